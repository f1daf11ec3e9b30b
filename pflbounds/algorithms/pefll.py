"""PeFLL-train and PeFLL-predict (Scott, Zakerinia & Lampert, Algorithms 1-2) and the
baselines that share its round: FedAvg (and fine-tuning), a pFedHN-style hypernetwork with
learned client embeddings, and Local. JAX on the CPU, float64.

One round (the form the proof of Theorem 3.1 analyses, digest §3.4; eqs. (71), (83)):

    C <- c clients uniformly without replacement
    for i in C:   B_i <- b of the client's m points (without replacement; b = m: all)
                  theta_{i,0} = h(v(B_i; eta_v); eta_h)
                  theta_{i,l} = theta_{i,l-1} - beta g_{t,i,l}   (l = 1..k; minibatch of s points
                                                                  with replacement, s = None:
                                                                  the full-data gradient)
                  Delta eta^(i) = J_i(eta_t)^T (theta_{i,k} - theta_{i,0})     (jax.vjp)
    eta_{t+1} = eta_t + server_lr (1/c) sum_i Delta eta^(i) - s_f grad f(eta_t),
    f(eta) = lam_h ||eta_h||^2 + lam_v ||eta_v||^2,

with the regularizer step s_f = beta k in the proof form (``reg_step="proof"``) and s_f = beta
as Algorithm 2 prints it (``reg_step="alg2"``, lines 17-18; scott2024.erratum1). The architectures:

* ``pefll``: theta_i = h(v(B_i; eta_v); eta_h), eta = {"h", "v"};
* ``pfedhn``: theta_i = h(e_i; eta_h), eta = {"h", "v": E (n x l)}: the client embeddings
  are parameters; a row is touched by one client per round, so it moves by its own Delta
  (not divided by c);
* ``fedavg``: theta_i = eta_h (one global model), eta = {"h", "v": empty}.

Every array has a leading replica axis; rounds run in ``lax.scan``, clients and replicas
under ``vmap``, the whole run under ``jit``. Replicas draw from their own keys (from one
numpy SeedSequence per replica block), so results do not depend on how blocks are spread
over workers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree

from pflbounds.algorithms.client_models import objective
from pflbounds.algorithms.hypernetworks import DenseNet, descriptor, sqnorm

ARCHITECTURES = ("pefll", "pfedhn", "fedavg")
REG_STEPS = ("proof", "alg2")


class ClientData(NamedTuple):
    """Clients' data, equal sizes: ``z`` (n, m, q) embedding inputs per point (fixed features
    or (x, one-hot y)), ``x`` (n, m, p) model inputs, ``y`` (n, m) targets or labels. A
    leading replica axis (R, n, m, ...) is allowed on all three (one population per
    replica)."""

    z: Any
    x: Any
    y: Any

    @property
    def n(self) -> int:
        return int(self.x.shape[-3])

    @property
    def m(self) -> int:
        return int(self.x.shape[-2])


@dataclass(frozen=True)
class Architecture:
    """Which parameters produce theta_i (see the module docstring)."""

    kind: str
    model: Any
    hyper: DenseNet | None = None
    embed: DenseNet | None = None
    l: int = 0

    def __post_init__(self) -> None:
        if self.kind not in ARCHITECTURES:
            raise ValueError(f"architecture must be one of {ARCHITECTURES}, got {self.kind!r}")

    def init(self, key: jax.Array, n: int) -> dict:
        kh, kv = jax.random.split(key)
        if self.kind == "fedavg":
            return {"h": 0.01 * jax.random.normal(kh, (self.model.d,)), "v": jnp.zeros(0)}
        eh = self.hyper.init(kh)
        if self.kind == "pefll":
            return {"h": eh, "v": self.embed.init(kv)}
        return {"h": eh, "v": jax.random.normal(kv, (n, self.hyper.sizes[0]))}

    def theta(self, eta: dict, z_batch: jax.Array, i: jax.Array) -> jax.Array:
        """theta of client i from its batch of embedding inputs (pefll) or its index."""
        if self.kind == "fedavg":
            return eta["h"]
        if self.kind == "pefll":
            return self.hyper.apply(eta["h"], descriptor(self.embed, eta["v"], z_batch))
        return self.hyper.apply(eta["h"], eta["v"][i])

    def floats_per_round(self, c: int) -> int:
        """Floats exchanged per round (digest P14): PeFLL 2c(d + |eta_v| + l); FedAvg and
        pFedHN 2c d (theta down, Delta theta up)."""
        d = self.model.d
        if self.kind == "pefll":
            return 2 * c * (d + self.embed.n_params + self.hyper.sizes[0])
        return 2 * c * d


def pefll_predict_floats(arch: Architecture) -> int:
    """PeFLL-predict for a new client: |eta_v| + l + d floats, no local optimisation (P14)."""
    return arch.embed.n_params + arch.hyper.sizes[0] + arch.model.d


@dataclass(frozen=True)
class TrainConfig:
    """Static settings of a run.

    ``T`` rounds, ``c`` clients per round, ``k`` local steps of size ``beta``, descriptor batch
    ``b`` (None: all m points), local minibatch ``s`` (None: full-data gradients), the
    regularizer weights, ``reg_step`` ("proof": beta k, "alg2": beta), ``server_lr`` on the
    aggregated Delta eta (1 in the proof), ``record_every``: the full objective's gradient is
    measured every that many rounds (0: never), ``jacobian``: also measure the Jacobian's
    operator norm (b_2) at every recorded iterate, ``minibatch_variance``: measure the exact
    minibatch-gradient variance sigma_1^2 at every local iterate (all m per-point gradients
    per step; off, the runs report NaN for it and follow the same trajectory bit for bit).
    """

    T: int
    c: int
    k: int
    beta: float
    b: int | None = None
    s: int | None = None
    lam_h: float = 0.0
    lam_v: float = 0.0
    lam_theta: float = 0.0
    reg_step: str = "proof"
    server_lr: float = 1.0
    record_every: int = 0
    jacobian: bool = False
    minibatch_variance: bool = False

    def __post_init__(self) -> None:
        if self.reg_step not in REG_STEPS:
            raise ValueError(f"reg_step must be one of {REG_STEPS}, got {self.reg_step!r}")
        if self.record_every and self.T % self.record_every:
            raise ValueError(f"record_every={self.record_every} must divide T={self.T}")

    @property
    def reg_step_size(self) -> float:
        return self.beta * self.k if self.reg_step == "proof" else self.beta


def _reg_grad(eta: dict, cfg: TrainConfig) -> dict:
    """grad f(eta) for f = lam_h ||eta_h||^2 + lam_v ||eta_v||^2."""
    return {"h": jax.tree_util.tree_map(lambda a: 2 * cfg.lam_h * a, eta["h"]),
            "v": jax.tree_util.tree_map(lambda a: 2 * cfg.lam_v * a, eta["v"])}


def as_jax(data: ClientData) -> ClientData:
    """The same clients with every array a JAX array."""
    return ClientData(*map(jnp.asarray, data))


def _batch_index(key, m: int, b: int | None):
    return jnp.arange(m) if b is None or b >= m else jax.random.choice(key, m, (b,),
                                                                         replace=False)


def _local_step(arch: Architecture, cfg: TrainConfig, xi, yi):
    """One local SGD step of a client with data (xi, yi): ``step(theta, key)`` returns the
    new theta, the full-data gradient at theta and the exact minibatch-gradient variance
    E||g - grad f_i(theta)||^2 = (1/s) mean_j ||grad ell_j - mean grad ell||^2 (s points with
    replacement; 0 for full-data steps; NaN unless ``cfg.minibatch_variance``)."""
    m = xi.shape[0]
    grad_f = jax.grad(partial(objective, arch.model, x=xi, y=yi, lam_theta=cfg.lam_theta))

    def step(theta, kk):
        g_full = grad_f(theta)
        if cfg.s is None:
            g, var = g_full, jnp.zeros(())
        else:
            idx = jax.random.randint(kk, (cfg.s,), 0, m)
            g = jax.grad(lambda t: objective(arch.model, t, xi[idx], yi[idx],
                                             cfg.lam_theta))(theta)
            if cfg.minibatch_variance:
                per = jax.vmap(jax.grad(arch.model.point_loss), in_axes=(None, 0, 0))(
                    theta, xi, yi)
                var = jnp.sum((per - per.mean(0)) ** 2) / (m * cfg.s)
            else:
                var = jnp.full((), jnp.nan)
        return theta - cfg.beta * g, g_full, var

    return step


def _client_round(arch: Architecture, data: ClientData, cfg: TrainConfig, eta: dict, i,
                  key) -> tuple[dict, dict]:
    """One participating client: Delta eta^(i) and its local diagnostics. For ``pfedhn``
    the "v" entry is the client's own embedding row's Delta (l,): the other rows' are 0."""
    m = data.m
    kb, ks = jax.random.split(key)
    bidx = _batch_index(kb, m, cfg.b)
    if arch.kind == "pfedhn":  # differentiate through the row only, not all n x l rows
        theta0, vjp = jax.vjp(lambda e: arch.hyper.apply(e["h"], e["v"]),
                              {"h": eta["h"], "v": eta["v"][i]})
    else:
        theta0, vjp = jax.vjp(lambda e: arch.theta(e, data.z[i][bidx], i), eta)
    local = _local_step(arch, cfg, data.x[i], data.y[i])

    def step(theta, kk):
        new, g_full, var = local(theta, kk)
        return new, (jnp.sqrt(jnp.sum(g_full ** 2)), var)

    thetak, (gn, var) = jax.lax.scan(step, theta0, jax.random.split(ks, cfg.k))
    (deta,) = vjp(thetak - theta0)
    return deta, {"b1": gn.max(), "sigma1_2": var.max()}


def server_round(arch: Architecture, data: ClientData, cfg: TrainConfig, eta: dict,
                 key) -> tuple[dict, dict]:
    """eta_{t+1} from eta_t (one replica): the round of the module docstring."""
    kc, kk = jax.random.split(key)
    C = jax.random.choice(kc, data.n, (cfg.c,), replace=False)
    deta, diag = jax.vmap(lambda i, kq: _client_round(arch, data, cfg, eta, i, kq))(
        C, jax.random.split(kk, cfg.c))
    mean = jax.tree_util.tree_map(lambda a: a.mean(0), deta)
    if arch.kind == "pfedhn":  # each embedding row belongs to one client: its own step
        mean["v"] = jnp.zeros_like(eta["v"]).at[C].add(deta["v"])
    rg = _reg_grad(eta, cfg)
    new = jax.tree_util.tree_map(lambda e, d, g: e + cfg.server_lr * d - cfg.reg_step_size * g,
                                 eta, mean, rg)
    return new, {"b1": diag["b1"].max(), "sigma1_2": diag["sigma1_2"].max()}


@partial(jax.jit, static_argnums=(0, 2))
def round_draws(arch: Architecture, data: ClientData, cfg: TrainConfig, eta: dict,
                keys: jax.Array) -> tuple[dict, dict]:
    """Independent draws of one round from the same eta_t (client sampling, batches and SGD
    noise), one per key: eta_{t+1} with a leading draw axis, and the local diagnostics
    (Lemmas C.4-C.5 by Monte Carlo)."""
    return jax.vmap(lambda kk: server_round(arch, data, cfg, eta, kk))(keys)


@partial(jax.jit, static_argnums=(0, 2))
def chained_gradients(arch: Architecture, data: ClientData, cfg: TrainConfig, eta: dict,
                      clients: jax.Array, keys: jax.Array) -> dict:
    """For each client of ``clients`` and each key (a draw of the batch and the local SGD
    noise): the chained full-data gradients grad_theta f_i(theta_{i,l-1}) J(B_i, eta)^T for
    l = 1..k (flattened, shape (draws, clients, k, |eta|)), the exact grad F_i(eta)
    (clients, |eta|), and the largest ||grad f_i|| and minibatch variance met (Lemma C.3)."""
    flat, unravel = ravel_pytree(eta)
    m = data.m

    def one(i, key):
        kb, ks = jax.random.split(key)
        bidx = _batch_index(kb, m, cfg.b)
        theta0, vjp = jax.vjp(lambda e: arch.theta(unravel(e), data.z[i][bidx], i), flat)
        local = _local_step(arch, cfg, data.x[i], data.y[i])

        def step(theta, kk):
            new, g_full, var = local(theta, kk)
            return new, (vjp(g_full)[0], jnp.sqrt(jnp.sum(g_full ** 2)), var)

        _, (ch, gn, var) = jax.lax.scan(step, theta0, jax.random.split(ks, cfg.k))
        return ch, gn.max(), var.max()

    ch, gn, var = jax.vmap(lambda kk: jax.vmap(one)(clients, jax.random.split(kk, clients.size)))(
        keys)
    exact = client_gradients(arch, data, cfg, eta)[clients]
    return {"chained": ch, "grad_Fi": exact, "b1": gn.max(), "sigma1_2": var.max()}


def full_objective(arch: Architecture, data: ClientData, cfg: TrainConfig, eta: dict
                   ) -> jax.Array:
    """F(eta) = (1/n) sum_i f_i(h(S_i, eta)) + f(eta) (App. C; full-data descriptors)."""
    data = as_jax(data)
    n = data.n
    Fi = jax.vmap(lambda i: objective(arch.model, arch.theta(eta, data.z[i], i), data.x[i],
                                      data.y[i], cfg.lam_theta))(jnp.arange(n))
    return Fi.mean() + cfg.lam_h * sqnorm(eta["h"]) + cfg.lam_v * sqnorm(eta["v"])


def client_gradients(arch: Architecture, data: ClientData, cfg: TrainConfig, eta: dict
                     ) -> jax.Array:
    """grad F_i(eta) for every client, flattened: (n, |eta|) (jax.grad of F_i = f_i o h)."""
    flat, unravel = ravel_pytree(eta)
    data = as_jax(data)

    def Fi(e, i):
        return objective(arch.model, arch.theta(unravel(e), data.z[i], i), data.x[i],
                         data.y[i], cfg.lam_theta)

    return jax.vmap(jax.grad(Fi), in_axes=(None, 0))(flat, jnp.arange(data.n))


def jacobian_opnorms(arch: Architecture, data: ClientData, eta: dict, idx=None) -> jax.Array:
    """||grad_eta h(S_i, eta)||_op for every client (jax.jacfwd; the largest singular value
    through the d x d Gram matrix). ``idx`` (n, b): batch indices (default all points)."""
    flat, unravel = ravel_pytree(eta)
    data = as_jax(data)

    def J(i, ix):
        return jax.jacfwd(lambda e: arch.theta(unravel(e), data.z[i][ix], i))(flat)

    ids = jnp.arange(data.n)
    ix = jnp.broadcast_to(jnp.arange(data.m), (data.n, data.m)) if idx is None else idx
    Js = jax.vmap(J)(ids, ix)
    return jnp.sqrt(jax.vmap(lambda a: jnp.linalg.eigvalsh(a @ a.T)[-1])(Js))


def _measure(arch, data, cfg, eta) -> dict:
    """Exact diagnostics of the full objective at eta (one replica)."""
    G = client_gradients(arch, data, cfg, eta)
    reg = ravel_pytree(_reg_grad(eta, cfg))[0]
    gbar = G.mean(0)
    grad = gbar + reg
    thetas = jax.vmap(lambda i: arch.theta(eta, data.z[i], i))(jnp.arange(data.n))
    gth = jax.vmap(lambda t, x, y: jax.grad(partial(objective, arch.model,
                                                    lam_theta=cfg.lam_theta))(t, x, y))(
        thetas, data.x, data.y)
    out = {"grad": grad, "grad2": jnp.sum(grad ** 2),
           "F": full_objective(arch, data, cfg, eta),
           "gammaG2": jnp.mean(jnp.sum((G - gbar) ** 2, axis=1)),
           "b1_full": jnp.sqrt(jnp.sum(gth ** 2, axis=1)).max(),
           "eta": ravel_pytree(eta)[0]}
    if cfg.jacobian:
        out["b2"] = jacobian_opnorms(arch, data, eta).max()
    return out


def _run_one(arch: Architecture, cfg: TrainConfig, data: ClientData, key, eta0=None) -> dict:
    """A whole run of one replica (traced under jit and vmap), from ``eta0`` or a random
    initialisation."""
    k0, kr = jax.random.split(key)
    if eta0 is None:
        eta0 = arch.init(k0, data.n)
    per = cfg.record_every or cfg.T
    blocks = cfg.T // per

    def inner(carry, kk):
        eta, b1, s1 = carry
        eta, d = server_round(arch, data, cfg, eta, kk)
        return (eta, jnp.maximum(b1, d["b1"]), jnp.maximum(s1, d["sigma1_2"])), None

    def outer(carry, kk):
        carry, _ = jax.lax.scan(inner, carry, jax.random.split(kk, per))
        rec = _measure(arch, data, cfg, carry[0]) if cfg.record_every else {}
        return carry, rec

    z = jnp.zeros(())
    (etaT, b1, s1), recs = jax.lax.scan(outer, (eta0, z, z), jax.random.split(kr, blocks))
    out = {"eta": etaT, "b1_local": b1, "sigma1_2": s1}
    if cfg.record_every:
        first = _measure(arch, data, cfg, eta0)
        out["trace"] = jax.tree_util.tree_map(lambda a, r: jnp.concatenate([a[None], r]),
                                              first, recs)
    return out


@partial(jax.jit, static_argnums=(0, 1, 4))
def _train_jit(arch, cfg, data, keys, per_replica_data, eta0):
    f = partial(_run_one, arch, cfg)
    if per_replica_data:
        return jax.vmap(f)(data, keys, eta0)
    return jax.vmap(f, in_axes=(None, 0, 0 if eta0 is not None else None))(data, keys, eta0)


def train(arch: Architecture, data: ClientData, cfg: TrainConfig, keys: jax.Array,
          eta0: dict | None = None) -> dict:
    """Run ``len(keys)`` replicas. Returns ``eta`` (final parameters, replica axis first),
    ``b1_local`` (largest ||grad f_i|| at the local iterates), ``sigma1_2`` (largest exact
    minibatch-gradient variance at the local iterates; NaN unless ``cfg.minibatch_variance``
    and a local minibatch) and, with ``record_every``, a ``trace``
    of (T/record_every + 1) records of the full objective at eta_0, eta_e, eta_2e, ...:
    ``grad`` (flattened grad F), ``grad2`` = ||grad F||^2, ``F``, ``gammaG2`` =
    (1/n) sum_i ||grad F_i - grad F_bar||^2, ``b1_full`` = max_i ||grad f_i(h(S_i, eta))||,
    ``eta`` (flattened) and, with ``jacobian``, ``b2`` = max_i ||J_i||_op. ``eta0`` (replica
    axis first) continues earlier runs instead of a random initialisation."""
    per = data.x.ndim == 4
    return _train_jit(arch, cfg, jax.tree_util.tree_map(jnp.asarray, data), keys, per, eta0)


# ------------------------------------------------------------------------------ prediction
def predict_thetas(arch: Architecture, eta: dict, data: ClientData) -> jax.Array:
    """theta_i for every client of ``data`` from the whole client dataset (one replica):
    PeFLL-predict (one forward pass of h(v(S_i)), no local step), pFedHN's own embedding
    rows, or FedAvg's global model."""
    data = as_jax(data)
    return jax.vmap(lambda i: arch.theta(eta, data.z[i], i))(jnp.arange(data.n))


@partial(jax.jit, static_argnums=(0, 2, 3, 4))
def fine_tune(model, thetas, steps: int, lr: float, lam_theta: float, data: ClientData):
    """``steps`` full-batch gradient steps on each client's own data (FedAvg + fine-tuning,
    Local from a common start): thetas (n, d)."""
    def one(theta, x, y):
        g = jax.grad(partial(objective, model, lam_theta=lam_theta))

        def body(t, _):
            return t - lr * g(t, x, y), None
        return jax.lax.scan(body, theta, None, length=steps)[0]
    return jax.vmap(one)(thetas, data.x, data.y)


def pfedhn_new_embeddings(arch: Architecture, eta: dict, data: ClientData, rounds: int,
                          cfg: TrainConfig, key: jax.Array) -> jax.Array:
    """pFedHN for new clients: a fresh embedding per client (the mean of the learned rows),
    moved by ``rounds`` client-server rounds (k local steps, Delta e = J_e^T Delta theta)
    with the hypernetwork frozen. Returns theta (n_new, d)."""
    data = as_jax(data)
    e0 = jnp.broadcast_to(eta["v"].mean(0), (data.n, eta["v"].shape[1]))
    sub = replace(cfg, b=None)
    new = Architecture("pfedhn", arch.model, arch.hyper, l=arch.l)

    def client(e, i, kk):
        et = {"h": eta["h"], "v": e[None]}

        def body(et, kq):
            d, _ = _client_round(new, ClientData(data.z[i][None], data.x[i][None],
                                                 data.y[i][None]), sub, et, 0, kq)
            return {"h": et["h"], "v": et["v"] + d["v"][None]}, None
        et, _ = jax.lax.scan(body, et, jax.random.split(kk, rounds))
        return arch.hyper.apply(eta["h"], et["v"][0])

    return jax.jit(jax.vmap(client))(e0, jnp.arange(data.n), jax.random.split(key, data.n))


def errors(model, thetas: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
    """Mean per-point error of each client's theta on its points: (n,)."""
    return jax.vmap(lambda t, xx, yy: model.error(t, xx, yy).mean())(thetas, x, y)

