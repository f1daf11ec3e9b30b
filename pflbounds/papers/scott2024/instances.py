"""scott2024's populations (digest §6) built on the engine's families, with the networks the
paper's checks put on them: what is particular to the paper. The families themselves stay
paper-neutral in :mod:`pflbounds.problems` and :mod:`pflbounds.exact`.

* Population A (:class:`~pflbounds.problems.populations.LowRankRegression`, digest §6.1):
  low-rank regression clients with linear-linear PeFLL networks theta = H A psibar_i.
* Population B (:class:`~pflbounds.problems.noisy_halfspaces.NoisyHalfspaces`, digest §6.2):
  noisy linear classifiers, descriptor features psi(x, y) = y x, fixed networks from the span
  of W and the Gaussian posteriors of Theorem 3.2.
* Population C (:class:`~pflbounds.problems.populations.LabelShift`): the label-shift clients
  of the paper's experiments (Table 1 and after), seen and unseen, with PeFLL's networks.
* Population D (:class:`~pflbounds.exact.linear_hypernetwork.LinearHypernetworkSGD`): its
  constants (identical Huber clients, linear hypernetwork) and Theorem 3.1 read on its exact
  runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from pflbounds.checking import bound
from pflbounds.exact.linear_hypernetwork import LinearHypernetworkSGD
from pflbounds.extras import lazy_module
from pflbounds.papers.scott2024.theory.convergence import (
    THEOREM3_1,
    THEOREM3_1_STEP,
    THEOREM3_1_T_MIN,
)
from pflbounds.papers.scott2024.theory.lemmas import LEMMA_C1
from pflbounds.problems.noisy_halfspaces import NoisyHalfspaces
from pflbounds.problems.populations import LabelShift, LowRankInstance, LowRankRegression

pefll = lazy_module("pflbounds.algorithms.pefll", "scott2024's networks")
models = lazy_module("pflbounds.algorithms.client_models", "scott2024's networks")
hn = lazy_module("pflbounds.algorithms.hypernetworks", "scott2024's networks")
jfu = lazy_module("jax.flatten_util", "scott2024's networks")


# ------------------------------------------------------------------------------ population A
POINT_A = {"n": 50, "m": 20, "p": 6, "q": 2, "l": 3, "s_noise": 0.3, "lam": 1e-3, "c": 5,
           "k": 5, "s": 5, "instance": 0}
"""The population-A setting of the training checks: 50 clients of 20 points in p = 6 (rank
q = 2), descriptors in l = 3, 5 clients per round, 5 local steps on minibatches of 5."""


def point_a(**kw: Any) -> dict[str, Any]:
    """A grid point of population A: :data:`POINT_A` with ``kw`` changed or added."""
    return dict(POINT_A, **kw)


def instance_a(p: Mapping[str, Any]) -> LowRankInstance:
    """The grid point's population-A instance (its own seed, not the replicas')."""
    pop = LowRankRegression(p["p"], p["q"], p["s_noise"], p["lam"], p["lam"], p["lam"])
    return pop.draw(p["n"], p["m"], np.random.default_rng([2024, int(p.get("instance", 0))]))


def setup_a(p: Mapping[str, Any]
            ) -> tuple[LowRankInstance, pefll.Architecture, pefll.ClientData]:
    """The instance, PeFLL with a linear hypernetwork and a linear embedding (theta = H A
    psibar), and the clients' data (features psi, points, targets)."""
    inst = instance_a(p)
    arch = pefll.Architecture("pefll", models.LinearRegression(p["p"]),
                              hn.linear_hypernetwork(p["l"], p["p"]),
                              hn.linear_embedding(p["p"], p["l"]))
    return inst, arch, pefll.ClientData(inst.psi, inst.X, inst.Y)


def linear_factors(arch: pefll.Architecture, like: dict, flat: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(H, A) of the linear-linear networks from flattened iterates: (E, p, l), (E, l, p)."""
    _, unravel = jfu.ravel_pytree(like)
    trees = [unravel(e) for e in flat]
    H = np.stack([np.asarray(t["h"][0]["W"]) for t in trees])
    A = np.stack([np.asarray(t["v"][0]["W"]) for t in trees])
    return H, A


# ------------------------------------------------------------------------------ population B
POINT_B = {"instance": 11, "p": 5, "q": 2, "rho": 0.05, "m": 100, "n": 1000, "scale": 2.0,
           "delta": 0.05}
"""Population B of the generalization checks: n = 1000 observed clients with m = 100 points,
flip probability 0.05, fixed networks at scale 2, delta = 0.05."""
POINT_B_QUICK = {**POINT_B, "n": 300, "delta": 0.3}
"""Its quick version: n = 300, delta = 0.3."""


def population_b(p: Mapping[str, Any]) -> NoisyHalfspaces:
    """The population of the grid point (W drawn from its ``instance`` seed)."""
    return NoisyHalfspaces.random(int(p["p"]), int(p["q"]), float(p["rho"]),
                                  np.random.default_rng(int(p["instance"])))


def fixed_networks(pop: NoisyHalfspaces, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The fixed eta_h = s U (p x q) and eta_v = U^T (q x p), U an orthonormal basis of the
    span of W (a property of the population, not of a sample)."""
    U, _ = np.linalg.qr(pop.W)
    return scale * U, U.T.copy()


def posterior_thetas(rng: np.random.Generator, psi: np.ndarray,
                     nets: tuple[np.ndarray, np.ndarray], a_net: float, a_theta: float,
                     draws: int) -> tuple[np.ndarray, np.ndarray]:
    """theta_bar = eta_h~ eta_v~ psi_bar for ``draws`` sampled networks (eta~ = eta + sqrt(a)
    xi), and theta~ = theta_bar + sqrt(a_theta) xi'' (Theorem 3.2's posteriors). psi: (...,
    p); returns two arrays (draws, ..., p)."""
    H, A = nets
    Hs = H + np.sqrt(a_net) * rng.standard_normal((draws, *H.shape))
    As = A + np.sqrt(a_net) * rng.standard_normal((draws, *A.shape))
    M = Hs @ As
    bar = np.einsum("dpq,...q->d...p", M, psi)
    return bar, bar + np.sqrt(a_theta) * rng.standard_normal(bar.shape)


def descriptor_features(pop: NoisyHalfspaces, rng: np.random.Generator, w: np.ndarray,
                        m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """m samples (x, y) of each client w and its descriptor features psi_bar = (1/m) sum y x."""
    x, y = pop.samples(rng, w, m)
    return x, y, np.einsum("...m,...mp->...p", y, x) / m


# ------------------------------------------------------------------------------ population C
POINT_C = {"p": 10, "classes": 5, "sep": 3.0, "alpha": 0.3, "m_total": 4500, "k": 10,
           "beta": 0.1, "lam": 1e-4, "lam_theta": 1e-3, "server_lr": 0.3, "width": 32,
           "hidden": 3, "ft_steps": 20, "ft_lr": 0.1, "local_steps": 200}
"""Population C of the experiments: C = 5 Gaussian classes in p = 10, Dir(0.3) label
mixtures, 4500 training points shared out over the seen clients, k = 10, beta = 0.1, server
step 0.3, tanh MLP networks of width 32 (3 hidden layers in the hypernetwork)."""
POINT_C90 = dict(POINT_C, n=90, T=2000, seeds=3)
"""The setting of the experiments after Table 1: n = 90 seen clients, T = 2000, three seeds."""
PER_CLASS = 2000
"""Held-out points per class, shared by all clients, on which risks are estimated."""


def draw_clients_c(p: Mapping[str, Any], seeds: list[np.random.SeedSequence]):
    """Population C for every seed: the population, the seen and the unseen clients (n and
    max(1, n/9), m = m_total/n points each) and the held-out points, numpy only."""
    pop = LabelShift(p=int(p["p"]), classes=int(p["classes"]), sep=float(p["sep"]))
    n, m = int(p["n"]), int(p["m_total"]) // int(p["n"])
    n_new = max(1, n // 9)
    seen, new, tests = [], [], []
    for s in seeds:  # data generation only (numpy); training is vmapped over seeds
        rng = np.random.default_rng(s)
        mu = pop.means(rng)
        seen.append(pop.clients(mu, n, m, float(p["alpha"]), rng))
        new.append(pop.clients(mu, n_new, m, float(p["alpha"]), rng))
        tests.append(pop.test_points(mu, PER_CLASS, rng))
    return pop, seen, new, np.stack(tests)


def stack_clients(clients, classes: int, labels: bool = True) -> pefll.ClientData:
    """One ClientData with a leading seed axis; ``labels`` False: descriptors from x only."""
    return pefll.ClientData(np.stack([c.embedding_inputs(classes, labels) for c in clients]),
                            np.stack([c.X for c in clients]), np.stack([c.Y for c in clients]))


@dataclass(frozen=True, eq=False)
class Setting:
    """One grid point of population C with every seed's data stacked (seed axis first):
    seen and unseen clients, their label mixtures and training label sets, the held-out
    points, the descriptor size l = 1 + n_total/4 and the training configuration."""

    pop: LabelShift
    model: models.Softmax
    seen: pefll.ClientData
    new: pefll.ClientData
    pi_seen: np.ndarray
    pi_new: np.ndarray
    present_seen: np.ndarray
    present_new: np.ndarray
    tests: np.ndarray
    l: int
    cfg: pefll.TrainConfig

    @property
    def seeds(self) -> int:
        return int(self.seen.x.shape[0])

    @property
    def n(self) -> int:
        return self.seen.n

    def unlabelled(self) -> Setting:
        """The same clients with the labels withheld from the embedding inputs (Table 2)."""
        C = self.pop.classes
        z = np.asarray(self.seen.z).copy()
        z[..., -C:] = 0.0
        zn = np.asarray(self.new.z).copy()
        zn[..., -C:] = 0.0
        return replace(self, seen=self.seen._replace(z=z), new=self.new._replace(z=zn))


def present_labels(Y: np.ndarray, classes: int) -> np.ndarray:
    """Which classes occur in each client's training labels (..., classes), bool."""
    return (Y[..., None] == np.arange(classes)).any(axis=-2)


def train_config(p: Mapping[str, Any], n: int, m: int, **over: Any) -> pefll.TrainConfig:
    """5% of the n clients per round, descriptors from a batch of up to 32 points (App. A)."""
    kw = dict(T=int(p["T"]), c=max(1, round(0.05 * n)), k=int(p["k"]), beta=float(p["beta"]),
              b=min(32, m), lam_h=float(p["lam"]), lam_v=float(p["lam"]),
              lam_theta=float(p["lam_theta"]), server_lr=float(p["server_lr"]))
    return pefll.TrainConfig(**{**kw, **over})


def setting(p: Mapping[str, Any], seeds: list[np.random.SeedSequence]) -> Setting:
    """Draw the population of grid point ``p`` for every seed (numpy only)."""
    pop, seen, new, tests = draw_clients_c(p, seeds)
    C, n = pop.classes, int(p["n"])
    d_seen, d_new = stack_clients(seen, C), stack_clients(new, C)
    m = d_seen.x.shape[2]
    return Setting(pop, models.Softmax(pop.p, C), d_seen, d_new, np.stack([c.pi for c in seen]),
                   np.stack([c.pi for c in new]), present_labels(d_seen.y, C),
                   present_labels(d_new.y, C), tests, 1 + (n + d_new.x.shape[1]) // 4,
                   train_config(p, n, m))


def pefll_architecture(st: Setting, p: Mapping[str, Any], hidden: int | None = None,
                       embedding: str = "mlp") -> pefll.Architecture:
    """PeFLL with a tanh MLP hypernetwork (``hidden`` layers, default p["hidden"]) and an
    embedding network on (x, one-hot y): ``"mlp"`` (one hidden tanh layer) or ``"linear"``."""
    q = st.pop.p + st.pop.classes
    embed = (hn.mlp_embedding(q, st.l, int(p["width"])) if embedding == "mlp"
             else hn.linear_embedding(q, st.l))
    hyper = hn.mlp_hypernetwork(st.l, st.model.d, int(p["width"]),
                                int(p["hidden"]) if hidden is None else hidden)
    return pefll.Architecture("pefll", st.model, hyper, embed, l=st.l)


# ------------------------------------------------------------------------------ population D
POINT_D = dict(L1=1.0, b1=1.0, sigma1_2=1.0, gammaG2=0.0, sigma2_2=0.0, sigma3_2=0.0, c=1, k=1)
"""The constants of population D (Huber loss: b1 = L1 = 1; Gaussian oracle noise sigma_1 = 1;
identical clients, full-data descriptors: gamma_G = sigma_2 = sigma_3 = 0; c = k = 1 unless
a check says otherwise)."""


def theorem_run(b2sq: float, T: int) -> dict[str, float]:
    """Population D at |v|^2 = b2sq, beta = 2 sqrt(c)/(k sqrt(T)), from the optimum: the exact
    averages of E||grad F(eta_t)||^2 over t = 1..T and t = 0..T-1, L = b2^2 L1 (Lemma C.1
    with L2 = L3 = 0), the step conditions' T_min and the zone-exit bound."""
    beta = float(bound(THEOREM3_1_STEP, "printed", c=1, k=1, T=T))
    model = LinearHypernetworkSGD(v=(float(np.sqrt(b2sq)),), beta=beta)
    L = float(bound(LEMMA_C1, "printed", b1=1.0, L2=0.0, b2=np.sqrt(b2sq), L1=1.0, L3=0.0))
    t_min = float(bound(THEOREM3_1_T_MIN, "corrected", L=L, L1=1.0, b2=np.sqrt(b2sq), k=1,
                        c=1))
    return {"avg": model.average_sq_grad(0.0, T, start=1),
            "avg0": model.average_sq_grad(0.0, T, start=0), "beta": beta, "L": L,
            "T_min": t_min, "exit": model.log10_zone_exit_bound(T)}


def theorem_bounds(run: dict[str, float], b2sq: float, T: int) -> dict[str, float]:
    """Every form of Theorem 3.1 at the constants of the population-D run ``run`` (from the
    optimum: F(eta_0) - F_* = 0; b = 1 for the forms with the batch size)."""
    kw = dict(POINT_D, Delta0=0.0, L=run["L"], b2=np.sqrt(b2sq), T=T, b=1, beta=run["beta"])
    return {f: float(bound(THEOREM3_1, f, **kw))
            for f in ("printed", "appendix", "proof", "rederived", "explicit", "corrected")}


SWEEP = 12
"""Horizons of the convergence figure: T_min to 100 T_min, geometric."""


def theorem_sweep(b2sq: float, T_min: float, printed: str, corrected: str
                  ) -> dict[str, np.ndarray]:
    """Figure evidence: the exact average and the two forms at :data:`SWEEP` horizons from
    T_min (where the step conditions start to hold) to 100 T_min, each run with its own beta
    = 2 sqrt(c)/(k sqrt(T)): Theorem 3.1's convergence in T."""
    Ts = np.unique(np.ceil(np.geomspace(T_min, 100 * T_min, SWEEP)))
    avg, bp, bc = (np.empty(Ts.size) for _ in range(3))
    for i, T in enumerate(Ts):
        run = theorem_run(b2sq, int(T))
        bounds = theorem_bounds(run, b2sq, int(T))
        avg[i], bp[i], bc[i] = run["avg"], bounds[printed], bounds[corrected]
    return {"sweep_T": Ts, "sweep_avg": avg, "sweep_printed": bp, "sweep_corrected": bc}
