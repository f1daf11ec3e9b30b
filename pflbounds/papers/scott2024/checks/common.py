"""Check code several scott2024 topics and experiments share: PeFLL-train runs on population A
and the constants measured on them (the lemmas' and Theorem 3.1's checks) with the figures of
those runs against a run parameter (T, b, k: Theorem 3.1's checks, kept here so that
``convergence.py`` holds its twelve checks within the size limit), Theorem 3.2's terms on
population B (Theorem B.1's and Theorem 3.2's checks, Table 8) and the risks of trained
networks on population C (the experiments). The populations are in
:mod:`pflbounds.papers.scott2024.instances`; a catalog form is evaluated with
:func:`pflbounds.checking.bound` (or :func:`form_value` outside its side conditions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.checking.draws import DrawPlan
from pflbounds.checking.jsonsafe import canonical_json
from pflbounds.extras import lazy_jit, lazy_module
from pflbounds.papers.scott2024.instances import (
    PER_CLASS,
    Setting,
    descriptor_features,
    fixed_networks,
    pefll_architecture,
    population_b,
    posterior_thetas,
)
from pflbounds.papers.scott2024.theory.generalization import KL_GAUSS
from pflbounds.papers.scott2024.theory.lemmas import LEMMA_C1
from pflbounds.papers.scott2024.theory.pac_bayes import THEOREM_B1_PART1, THEOREM_B1_PART2
from pflbounds.problems.noisy_halfspaces import NoisyHalfspaces
from pflbounds.problems.populations import LowRankInstance, label_shift_risk
from pflbounds.reporting.figure_specs import dots, figure, series
from pflbounds.running.seeds import stable_words
from pflbounds.running.shared import shared_computation
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import check_conditions, numeric
from pflbounds.symbolic.result import Result

jax = lazy_module("jax", "scott2024's networks")
jnp = lazy_module("jax.numpy", "scott2024's networks")
pefll = lazy_module("pflbounds.algorithms.pefll", "scott2024's networks")
models = lazy_module("pflbounds.algorithms.client_models", "scott2024's networks")
hn = lazy_module("pflbounds.algorithms.hypernetworks", "scott2024's networks")
jfu = lazy_module("jax.flatten_util", "scott2024's networks")


def form_value(result: Result, form: str, **values: Any) -> np.ndarray:
    """A catalog form's value, also outside its side conditions (reported separately)."""
    f = get(result.id).form(form)
    return np.asarray(numeric(f.exprs[""], values), dtype=float)


def conditions_hold(result: Result, form: str, **values: Any) -> bool:
    """Whether the form's side conditions hold at these values."""
    r = get(result.id)
    try:
        check_conditions(r.conditions_for(form), values)
    except Exception:  # noqa: BLE001  (any violated condition)
        return False
    return True


# ------------------------------------------------------------------------------ population A
def config(p: Mapping[str, Any], **over: Any) -> pefll.TrainConfig:
    """Theorem 3.1's step beta = 2 sqrt(c)/(k sqrt(T)) unless ``beta`` is given."""
    T, c, k = int(p["T"]), int(p["c"]), int(p["k"])
    beta = float(p.get("beta", 2 * np.sqrt(c) / (k * np.sqrt(T))))
    kw = dict(T=T, c=c, k=k, beta=beta, b=p.get("b"), s=p.get("s"), lam_h=p["lam"],
              lam_v=p["lam"], lam_theta=p["lam"], reg_step=p.get("reg_step", "proof"),
              record_every=int(p.get("record_every", 1)))
    kw.update(over)
    return pefll.TrainConfig(**kw)


def replica_keys(seed: np.random.SeedSequence, R: int) -> jax.Array:
    """One JAX key per replica, from the replica block's seed."""
    return jax.random.split(hn.key_of(seed), R)


def fixed_start(arch: pefll.Architecture, n: int, init: int, R: int) -> dict:
    """One eta_0 for every replica (replica axis first), drawn from the grid point's own
    ``init`` seed: Theorem 3.1 bounds the expectation over the algorithm's sampling from a
    given eta_0 (its F(eta_0) - F_* term), so replicas share it."""
    eta0 = arch.init(hn.key_of(np.random.SeedSequence([2024, 31, int(init)])), n)
    return jax.tree_util.tree_map(lambda a: jnp.broadcast_to(a, (R, *a.shape)), eta0)


def b2_on(arch: pefll.Architecture, data: pefll.ClientData, eta_like: dict,
          flat_etas: np.ndarray) -> float:
    """Largest ||J_i(eta)||_op over clients and the given flattened iterates (jax.jacfwd)."""
    _, unravel = jfu.ravel_pytree(eta_like)
    f = jax.jit(jax.vmap(lambda e: pefll.jacobian_opnorms(arch, data, unravel(e)).max()))
    return float(np.max(np.asarray(f(jnp.asarray(flat_etas)))))


def trajectory_constants(p: Mapping[str, Any], inst: LowRankInstance, arch, data, out: dict
                         ) -> dict[str, float]:
    """The constants of Theorem 3.1 measured on the runs in ``out`` (all replicas): L_1, L_2,
    L_3 exactly from the instance; b_1 the largest ||grad f_i(theta)|| over every visited
    theta; b_2 the largest Jacobian operator norm over recorded iterates and clients;
    sigma_1^2 and gamma_G^2 the largest met; F(eta_0) - F_* with F_* from the nuclear-norm
    program; L by Lemma C.1 from them."""
    tr = out["trace"]
    etas = np.asarray(tr["eta"])
    step = max(1, etas.shape[1] // 40)
    sub = etas[:, ::step].reshape(-1, etas.shape[-1])
    like = arch.init(jax.random.key(0), inst.n)
    b1 = float(max(np.max(out["b1_local"]), np.max(tr["b1_full"])))
    b2 = b2_on(arch, data, like, sub)
    vals = {"b1": b1, "b2": b2, "L1": inst.L1, "L2": inst.L2, "L3": inst.L3,
            "sigma1_2": float(np.max(out["sigma1_2"])),
            "gammaG2": float(np.max(tr["gammaG2"])),
            "Delta0": float(np.max(np.asarray(tr["F"])[:, 0]) - inst.F_star[0]),
            "sigma2_2": 0.0, "sigma3_2": 0.0, "b": float(p["m"])}
    vals["L"] = float(form_value(LEMMA_C1, "printed", **{k: vals[k] for k in
                                                         ("b1", "b2", "L1", "L2", "L3")}))
    return vals


# ------------------------------------------------------------------------------ figures of A
# The figures of Theorem 3.1's population-A runs against a run parameter: every form against
# T (P1), the rate in T (P2), the plateau against the descriptor batch b (P3), the average
# against the local steps k (P15).
THEOREM_FORMS = ("printed", "appendix", "proof", "rederived", "explicit", "corrected")


def plot_p1(outcome) -> list[dict]:
    """Theorem 3.1's forms side by side: bound, measured average, ratio, per grid point."""
    rows = []
    for ev in outcome.evidence:
        prm = ev["params"]
        mean = np.atleast_1d(np.asarray(ev.get("mean", np.nan), dtype=float))
        for j, f in enumerate(THEOREM_FORMS):
            b = float(np.asarray(ev["bound"])[j])
            mj = float(mean[j] if mean.size > j else mean[0])
            rows.append([f"T={prm['T']}, c={prm['c']}, k={prm['k']}", f, f"{mj:.3g}",
                         f"{b:.3g}", f"{b / mj:.3g}"])
    return [{"kind": "table", "title": "Theorem 3.1 on population A: every form against the "
             "measured average squared gradient norm", "columns": ["run", "form",
                                                                  "measured", "bound",
                                                                  "bound/measured"],
             "rows": rows, "caption": "Constants measured on the same runs (a posteriori); "
             "the corrected form is evaluated although its step-size conditions fail (see "
             "step_conditions_hold in the evidence)."}, *p1_against_T(outcome)]


FORM_STYLE = {"printed": "bound_printed", "corrected": "bound_corrected"}


def p1_against_T(outcome) -> list[dict]:
    """||grad F||^2 averaged over the run against T, with every form of Theorem 3.1 evaluated
    with the constants of the same runs, one figure per (c, k) with at least two T."""
    groups: dict[tuple, list] = {}
    for ev in outcome.evidence:
        prm = ev["params"]
        groups.setdefault((prm["c"], prm["k"]), []).append(ev)
    figs = []
    for (c, k), evs in groups.items():
        if len(evs) < 2:
            continue
        evs = sorted(evs, key=lambda e: float(e["params"]["T"]))
        T = np.array([float(e["params"]["T"]) for e in evs])

        def entry(e: dict, key: str, j: int = 0) -> float:
            return float(np.atleast_1d(np.asarray(e.get(key, np.nan), dtype=float))[j])

        items = [series("measured average", T,
                        [entry(e, "mean") for e in evs], "measured",
                        [entry(e, "lo") for e in evs], [entry(e, "hi") for e in evs],
                        group="measured")]
        for j, f in enumerate(THEOREM_FORMS):
            items.append(series(f"Theorem 3.1, {f}", T, [entry(e, "bound", j) for e in evs],
                                FORM_STYLE.get(f, "bound"), group=f))
        fig = figure("curves", f"{outcome.check_id}: Theorem 3.1's forms against T (c = {c}, "
                     f"k = {k})", "T", "(1/T) sum_t ||grad F(eta_t)||^2", items,
                     logx=True, logy=True)
        fig["caption"] = ("Population A, beta = 2 sqrt(c)/(k sqrt(T)); each form is evaluated "
                          "with b1, b2, L, sigma_1^2, gamma_G^2 and F(eta_0) - F_* measured on "
                          "the runs of its T (a posteriori), so a bound's curve bends where "
                          "the measured constants change.")
        figs.append(fig)
    return figs


CLAIM_SLOPE = -0.5
"""P2's claim is one-sided: the log-log slope of the average against T is at most -1/2
(Theorem 3.1's leading terms fall like T^(-1/2) and T^(-1)); no theory value lies below it."""


def plot_p2(outcome) -> list[dict]:
    """Per fixed eta_0: the average against T with its interval, the fitted line and the
    claim's boundary slope -1/2 (not a predicted value: the claim is slope <= -1/2)."""
    figs = []
    pts = {p["point"]: p for p in outcome.evidence if "point" in p}
    for f in outcome.fits:
        idx = list(f["points"])
        x = np.asarray(f["x"], dtype=float)
        lx = np.log(x)

        def band(key: str, idx: list = idx, size: int = x.size) -> list[float] | None:
            v = [float(np.ravel(pts[i][key])[0]) for i in idx if i in pts and key in pts[i]]
            return v if len(v) == size else None

        items = [series("measured average", x, np.asarray(f["cost"], dtype=float), "measured",
                        band("lo"), band("hi"), group="cost")]
        if np.isfinite(f.get("slope", np.nan)):
            items.append(series(f"fit slope {f['slope']:.2f}", x,
                                np.exp(f["intercept"] + f["slope"] * lx), "fit", group="cost"))
            level = f["intercept"] + f["slope"] * lx[0]
            items.append(series("claim boundary: slope -1/2 from the first T", x,
                                np.exp(level + CLAIM_SLOPE * (lx - lx[0])), "reference",
                                group="cost"))
        init = pts[idx[0]]["params"].get("init") if idx and idx[0] in pts else None
        fig = figure("scaling", f"{outcome.check_id}: the average squared gradient norm "
                     f"against T (eta_0 number {init})", "T",
                     "(1/T) sum_t ||grad F(eta_t)||^2", items, logx=True, logy=True)
        fig["annotations"] = [f"slope {f['estimate']:.2f} [{f['lo']:.2f}, {f['hi']:.2f}]; "
                              "claim: slope <= -1/2"]
        fig["caption"] = ("Population A, beta = 2 sqrt(c)/(k sqrt(T)), runs from one fixed "
                          "eta_0. The claim is one-sided (slope at most -1/2); the check's "
                          "band [-2.5, -1/2] has no theory value at its centre, its lower edge "
                          "only rules out a collapse.")
        figs.append(fig)
    return figs


def fall_fits(bs: np.ndarray, plateau: np.ndarray, m: float, full: float = 0.0
              ) -> dict[str, float]:
    """Least-squares exponents of the plateau's fall: log plateau on log b, and log (plateau -
    ``full``) (the excess over the full-data plateau) on log (1/b - 1/m), the
    finite-population reading: 1 for a 1/b law, 2 for a 1/b^2 (squared bias) law."""
    x1, x2 = np.log(bs), np.log(1 / bs - 1 / m)
    return {"slope_b": float(np.polyfit(x1, np.log(plateau), 1)[0]),
            "slope_fpc": float(np.polyfit(x2, np.log(plateau - full), 1)[0])}


def plot_p3(outcome) -> list[dict]:
    """The plateau against b with the floor in the colour of its curve, references 1/b and
    1/b^2 through the smallest batch, and the fitted exponents."""
    evs = sorted(outcome.evidence, key=lambda e: float(e["params"]["b"]))
    if not evs:
        return []
    bs = np.array([float(e["params"]["b"]) for e in evs])
    mean = np.array([float(np.asarray(e["mean"]).ravel()[0]) for e in evs])
    lo = np.array([float(np.asarray(e.get("lo", np.nan)).ravel()[0]) for e in evs])
    hi = np.array([float(np.asarray(e.get("hi", np.nan)).ravel()[0]) for e in evs])
    floor = np.array([float(np.asarray(e["bound"]).ravel()[0]) for e in evs])
    m = float(np.asarray(evs[0]["m"]))
    items = [series("plateau, mean of ||grad F||^2 over t >= T/2", bs, mean, "measured", lo,
                    hi, group="plateau"),
             series("floor 8 b1^2 sigma_2^2/b + 14 L1^2 b2^2 sigma_3^2/b", bs, floor,
                    "bound", group="plateau"),
             series("1/b through the first point", bs, mean[0] * bs[0] / bs, "reference",
                    group="1/b"),
             series("1/b^2 through the first point", bs, mean[0] * (bs[0] / bs) ** 2,
                    "reference", group="1/b^2")]
    fig = figure("curves", f"{outcome.check_id}: batch-descriptor floor against b",
                 "b (descriptor batch)", "||grad F||^2", items, logx=True, logy=True)
    full = [float(np.asarray(e["plateau_full"])) for e in evs if "plateau_full" in e]
    notes = []
    if full:
        items.append(series(f"plateau at b = m = {m:g} (no floor: the noise of this T)",
                            bs, np.full(bs.size, full[0]), "reference", group="b = m"))
    if len(bs) >= 2 and np.all(mean > (full[0] if full else 0.0)):
        f = fall_fits(bs, mean, m, full[0] if full else 0.0)
        notes.append(f"exponent in b: {f['slope_b']:.2f} (1/b: -1, 1/b^2: -2)")
        notes.append(f"excess over b = m against (1/b - 1/m): {f['slope_fpc']:.2f} (1/b law: "
                     "1, squared bias: 2)")
    fig["annotations"] = notes
    fig["caption"] = ("Population A, m = 20: the plateau at each descriptor batch size b "
                      "against Theorem 3.1's floor with sigma_2^2, sigma_3^2, b_1, b_2 measured "
                      "on the same runs.")
    rows = [[f"{b:g}", f"{mu:.3g}", f"{fl:.3g}", f"{fl / mu:.3g}",
             f"{float(np.asarray(e['const_sigma2_2'])):.3g}",
             f"{float(np.asarray(e['const_sigma3_2'])):.3g}",
             f"{int(float(np.asarray(e.get('sum_diverged', 0.0))))}"]
            for b, mu, fl, e in zip(bs, mean, floor, evs, strict=True)]
    table = {"kind": "table", "title": f"{outcome.check_id}: plateau and floor per batch size",
             "columns": ["b", "plateau", "floor", "floor/plateau", "sigma_2^2", "sigma_3^2",
                         "diverged runs"],
             "rows": rows, "caption": "sigma_2^2, sigma_3^2: A4's constants, exact over the "
             "batch draw, max over clients and recorded iterates; diverged runs are left out "
             "of the plateau and the constants."}
    return [fig, table]


def plot_p15(outcome) -> list[dict]:
    """The average against k in both regimes, with the fitted slopes."""
    groups: dict[str, list] = {}
    for ev in outcome.evidence:
        s = ev["params"].get("s")
        groups.setdefault("full-data local gradients" if s is None else
                          f"local minibatch {s}", []).append(ev)
    items = []
    for name, evs in groups.items():
        evs = sorted(evs, key=lambda e: float(e["params"]["k"]))
        k = [float(e["params"]["k"]) for e in evs]

        def val(e: dict, key: str) -> float:
            return float(np.atleast_1d(np.asarray(e.get(key, np.nan), dtype=float))[0])

        items.append(series(name, k, [val(e, "mean") for e in evs], "measured",
                            [val(e, "lo") for e in evs], [val(e, "hi") for e in evs],
                            group=name))
    fig = figure("curves", f"{outcome.check_id}: the average squared gradient norm against k",
                 "k (local steps; beta k fixed)", "(1/T) sum_t ||grad F(eta_t)||^2", items,
                 logx=True, logy=True)
    fig["annotations"] = [f"slope {f['estimate']:.2f} [{f['lo']:.2f}, {f['hi']:.2f}]: "
                          + ("full-data" if '"s":null' in str(f.get("group")) else "minibatch")
                          for f in outcome.fits]
    fig["caption"] = ("Population A, T = 2000, c = 5, beta k fixed (full-data local "
                      "gradients: 2 sqrt(c)/sqrt(T) = 0.1; local minibatch 1: 0.05), one "
                      "fixed eta_0; Theorem 3.1 predicts a 1/k fall of the sigma_1^2 part "
                      "only.")
    return [fig]


# ------------------------------------------------------------------------------ population B
ALPHA_NET = (0.01, 0.1)
ALPHA_THETA = (0.01, 0.1, 1.0)
GRID = tuple((a, t) for a in ALPHA_NET for t in ALPHA_THETA)
"""The data-independent alpha-grid: (alpha_h = alpha_v, alpha_theta)."""
FRESH = 20000
DRAWS = 4


@shared_computation("scott2024.future_risk", maxsize=64)
def future_risk(instance: int, p: int, q: int, rho: float, m: int, scale: float) -> np.ndarray:
    """er for every grid point (fixed eta): mean exact risk of theta~ over FRESH fresh
    clients, each with its own fresh sample of m for the descriptor and its own network
    draw. Seeded by the instance only, so every replica compares with the same numbers,
    and computed once per sweep (P8, P8_planted, P9_part2 and P11 read it, in tasks of
    both workers; a read-only array)."""
    pop = population_b({"p": p, "q": q, "rho": rho, "instance": instance})
    rng = np.random.default_rng([instance, 7])
    nets = fixed_networks(pop, scale)
    out = np.empty(len(GRID))
    for g, (a_net, a_theta) in enumerate(GRID):
        w = pop.clients(rng, (FRESH,))
        _, _, psi = descriptor_features(pop, rng, w, m)
        out[g] = 0.0
        for part in np.array_split(np.arange(FRESH), 20):  # one network draw per client
            _, tilde = posterior_thetas(rng, psi[part], nets, a_net, a_theta, 1)
            out[g] += pop.risk(tilde[0], w[part]).sum()
        out[g] /= FRESH
    return out


def theorem32_terms(eta_h2: float, eta_v2: float, a_net: float, kl_sums: np.ndarray, n: int,
                    m: int, conf: float) -> tuple[float, float]:
    """The complexity terms of Theorem 3.2 (corrected form, scott2024 (3) with erratum17's
    KL ||mu||^2/(2 alpha), loss range M = 1) at one grid point, with ``conf`` = delta/|grid|
    in both logarithms (erratum22): the meta term sqrt((||eta_h||^2/(2 alpha) +
    ||eta_v||^2/(2 alpha) + log(4 sqrt(n)/conf))/(2n)) (Theorem B.1 Part II) and the sample
    term, the mean over the network draws of sqrt((sum_i KL_i + log(8mn/conf) + 1)/(2mn))
    (Part I) with ``kl_sums`` = sum_i ||theta_i||^2/(2 alpha_theta) per draw (one entry, the
    mean over draws, gives Jensen's looser value). Returns (meta, sample)."""
    sample = float(np.mean(bound(THEOREM_B1_PART1, "printed", M=1.0, KLsum=kl_sums, m=m, n=n,
                                 delta=conf)))
    kl_meta = float(bound(KL_GAUSS, "corrected", eta_h2=eta_h2, eta_v2=eta_v2, alpha_h=a_net,
                          alpha_v=a_net))
    meta = float(bound(THEOREM_B1_PART2, "corrected", M=1.0, KLmeta=kl_meta, n=n,
                       delta=conf))
    return meta, sample


def grid_terms(pop: NoisyHalfspaces, nets: tuple[np.ndarray, np.ndarray], w: np.ndarray,
               x: np.ndarray, y: np.ndarray, psi: np.ndarray, delta: float,
               rng: np.random.Generator, grid: tuple[tuple[float, float], ...] = GRID
               ) -> dict[str, np.ndarray]:
    """emp, er~, meta, sample and the bound emp + meta + sample (Theorem 3.2 with
    delta/|grid|) at every grid point (alpha_h = alpha_v, alpha_theta), for the networks
    ``nets`` = (eta_h, eta_v) and the observed clients w with samples (x, y) and descriptor
    features psi."""
    n, m = x.shape[0], x.shape[1]
    conf = delta / len(grid)
    out = {k: np.empty(len(grid)) for k in ("emp", "er_tilde", "meta", "sample")}
    for g, (a_net, a_theta) in enumerate(grid):
        bar, tilde = posterior_thetas(rng, psi, nets, a_net, a_theta, DRAWS)
        pred = np.einsum("dnp,nmp->dnm", tilde, x)
        out["emp"][g] = float((np.where(pred >= 0, 1.0, -1.0) != y[None]).mean())
        out["er_tilde"][g] = float(pop.risk(tilde, w[None]).mean())
        kl_sum = (bar * bar).sum(axis=(1, 2)) / (2 * a_theta)
        out["meta"][g], out["sample"][g] = theorem32_terms(
            float((nets[0] ** 2).sum()), float((nets[1] ** 2).sum()), a_net, kl_sum, n, m,
            conf)
    out["bound"] = out["emp"] + out["meta"] + out["sample"]
    return out


def replica_terms(p: Mapping[str, Any], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """emp, er~, meta, sample and the bound emp + meta + sample (Theorem 3.2 with
    delta/|G|) for every grid point, one draw of the n observed clients."""
    pop = population_b(p)
    n, m, s, delta = int(p["n"]), int(p["m"]), float(p["scale"]), float(p["delta"])
    nets = fixed_networks(pop, s)
    w = pop.clients(rng, (n,))
    x, y, psi = descriptor_features(pop, rng, w, m)
    return grid_terms(pop, nets, w, x, y, psi, delta, rng)


def future_risk_of(p: Mapping[str, Any]) -> np.ndarray:
    """:func:`future_risk` at the grid point's population and networks."""
    return future_risk(int(p["instance"]), int(p["p"]), int(p["q"]), float(p["rho"]),
                       int(p["m"]), float(p["scale"]))


def replicas(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> list[dict]:
    """:func:`replica_terms` of R independent draws of the observed clients."""
    return [replica_terms(p, np.random.default_rng(s)) for s in seed.spawn(R)]


# ------------------------------------------------------------------------------ population C
SYNTH = "synthetic, small: population C, not the paper's CIFAR/FEMNIST numbers"
"""How the experiments' tables and figures are marked."""


@lazy_jit(static_argnums=0)
def class_errors(model: models.Softmax, thetas: jax.Array, tests: jax.Array, masks: jax.Array):
    """Error rate of every seed's and client's model on the held-out points of each class
    (seeds, clients, classes); classes outside a client's mask are never predicted (label
    masking, App. A.3; an all-True mask is the plain argmax)."""
    labels = jnp.arange(tests.shape[1])

    def client(theta, test, mask):
        def per_class(xc, c):
            z = jnp.where(mask, model.logits(theta, xc), -jnp.inf)
            return (jnp.argmax(z, axis=-1) != c).astype(jnp.float64).mean()
        return jax.vmap(per_class)(test, labels)

    return jax.vmap(lambda th, te, mk: jax.vmap(lambda t, k: client(t, te, k))(th, mk))(
        thetas, tests, masks)


def client_risks(model: models.Softmax, thetas: jax.Array, tests: np.ndarray, pis: np.ndarray,
                 masks: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per seed and client: risk and standard error under the client's label mixture."""
    if masks is None:
        masks = np.ones(pis.shape, dtype=bool)
    e = np.asarray(class_errors(model, thetas, jnp.asarray(tests), jnp.asarray(masks)))
    return label_shift_risk(e, pis, PER_CLASS)


def mean_risk(model: models.Softmax, thetas: jax.Array, tests: np.ndarray, pis: np.ndarray,
              masks: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per seed: the mean risk over clients and its standard error (seeds,)."""
    r, s_ = client_risks(model, thetas, tests, pis, masks)
    return r.mean(axis=1), np.sqrt((s_**2).sum(axis=1)) / s_.shape[1]


def predict_all(arch: pefll.Architecture, eta: dict, data: pefll.ClientData) -> jax.Array:
    """PeFLL-predict for every seed and client (seeds, clients, d)."""
    return jax.vmap(lambda e, d: pefll.predict_thetas(arch, e, d))(eta, data)


def local_thetas(st: Setting, p: Mapping[str, Any], data: pefll.ClientData) -> jax.Array:
    """Local: ``local_steps`` full-batch steps on each client's own data from zero."""
    local = jax.vmap(lambda t, d: pefll.fine_tune(st.model, t, int(p["local_steps"]),
                                                  float(p["ft_lr"]), float(p["lam_theta"]), d))
    return local(jnp.zeros((st.seeds, data.n, st.model.d)), data)


def method_keys(seed: np.random.SeedSequence, S: int, k: int = 5) -> jax.Array:
    """(S, k) JAX keys: one per method and seed."""
    return jax.vmap(lambda s: jax.random.split(s, k))(jax.random.split(hn.key_of(seed), S))


def train_pefll(st: Setting, p: Mapping[str, Any], keys: jax.Array, **arch_kw: Any
                ) -> tuple[pefll.Architecture, dict]:
    """PeFLL (:func:`~pflbounds.papers.scott2024.instances.pefll_architecture` with
    ``arch_kw``) trained on the seen clients, one run per seed."""
    arch = pefll_architecture(st, p, **arch_kw)
    return arch, pefll.train(arch, st.seen, st.cfg, keys)["eta"]


def seen_unseen(st: Setting, arch: pefll.Architecture, eta: dict) -> np.ndarray:
    """Mean risk of PeFLL-predict on the seen and on the unseen clients: (seeds, 2)."""
    return np.stack([mean_risk(st.model, predict_all(arch, eta, d), st.tests, pis)[0]
                     for d, pis in ((st.seen, st.pi_seen), (st.new, st.pi_new))], axis=1)


def fedavg_thetas(st: Setting, keys: jax.Array, data: pefll.ClientData) -> jax.Array:
    """FedAvg's global model trained on the seen clients, for every client of ``data``."""
    arch = pefll.Architecture("fedavg", st.model)
    g = pefll.train(arch, st.seen, st.cfg, keys)["eta"]["h"]
    return jnp.broadcast_to(g[:, None], (st.seeds, data.n, st.model.d))


POINT_KEYS = ("clients", "variant", "alpha_new", "checkpoint", "column")
"""Grid-point keys that pick one comparison out of an experiment's runs (shared by points
that differ only in them: :func:`comparison_check`)."""
_RUNS: dict[str, dict] = {}


def shared_run(run, p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """``run(p, R, seed)`` on ``p`` without its :data:`POINT_KEYS`, ``seeds = R``, from a
    stream keyed by the task's base seed and block, the run and those parameters: the points
    that differ only in what they pick read the same R draws (one run kept per process)."""
    base = {k: v for k, v in p.items() if k not in POINT_KEYS}
    base["seeds"] = int(R)
    words = stable_words(canonical_json({"run": run.__qualname__, "params": base}))
    block = int(seed.spawn_key[-1]) if seed.spawn_key else 0
    ss = np.random.SeedSequence(entropy=seed.entropy, spawn_key=(*words, block))
    key = canonical_json({"run": run.__qualname__, "params": base,
                          "seed": [int(seed.entropy), block]})
    if key not in _RUNS:
        _RUNS.clear()
        _RUNS[key] = run(base, R, ss)
    return _RUNS[key]


def comparison_check(claim: Result, title: str, expected: Verdict, run, pick, plot,
                     grid: tuple, methods: tuple[str, ...], plan: DrawPlan, description: str,
                     xlabel: str, suffix: str = "", ylabel: str = "accuracy (%)",
                     check_id: str | None = None) -> Check:
    """A comparison check of an experiment's claim on population C, named after the claim
    (its id, then ``suffix``) unless ``check_id`` names it: per grid point, ``pick(out, p)``
    gives the metric of ``methods`` (draws, methods) from the runs of :func:`shared_run` (one
    draw: one seed with its own population, initialisation and sampling), claimed decreasing
    along ``methods``."""
    def simulate(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
        out = shared_run(run, p, R, seed)
        extra = {k: v for k, v in out.items() if k not in ("mean", "bound", "ks")}
        return {**extra, "draws": np.asarray(pick(out, p), dtype=float)}

    simulate.__qualname__ = f"comparison_check.<{claim.id}{suffix}>"
    return Check(check_id or claim.id + suffix, title, CheckKind.COMPARISON, expected, simulate,
                 grid=grid, engine="mc", block_size=plan.draws, methods=methods,
                 order="decreasing", plan=plan, plot=plot, result_id=claim.id,
                 form="printed", xlabel=xlabel, ylabel=ylabel, description=description)


def accuracy(risk: np.ndarray) -> np.ndarray:
    """Accuracy in points (%) from a 0-1 risk (the metric of the experiments' comparisons,
    and of the pilots their plans come from, :mod:`..experiments.common`)."""
    return 100.0 * (1.0 - np.asarray(risk, dtype=float))


SIDE = {"seen": 0, "unseen": 1}  # the last axis of the experiments' ``risk``


def accuracy_text(risk: np.ndarray) -> str:
    """'mean ± std' of the accuracy (%) over seeds from risks (seeds,)."""
    a = 100 * (1 - np.asarray(risk, dtype=float))
    return f"{a.mean():.1f} ± {a.std():.1f}"


def setting_title(prm: Mapping[str, Any], S: int | None = None) -> str:
    S = int(prm["seeds"] if S is None else S)
    return f"n = {prm['n']} seen clients, T = {prm['T']}, {S} seed{'s' if S > 1 else ''}."


def accuracy_dots(title: str, xlabel: str, names: tuple[str, ...], risk: np.ndarray,
                  caption: str) -> dict:
    """A table's accuracies as dots: one category per method or variant, seen and unseen
    clients in two colours, the mean over seeds with their range (``risk`` of shape (seeds,
    variants, 2))."""
    acc = 100 * (1 - np.asarray(risk, dtype=float))
    items = [series("mean over seeds (bar: their range)", list(names), acc[:, :, w].mean(0),
                    "measured", acc[:, :, w].min(0), acc[:, :, w].max(0), group=f"{who} clients")
             for w, who in enumerate(("seen", "unseen"))]
    return dots(title, xlabel, "accuracy (%)", items, logy=False, caption=caption)


def accuracy_tables(outcome, title: str, first: str, names: tuple[str, ...], caption: str
                    ) -> list[dict]:
    """One report table per grid point: accuracy (%) of each variant on seen and unseen
    clients, mean ± std over seeds (evidence ``risk`` of shape (seeds, variants, 2)); with
    three variants or more, the same as dots."""
    figs = []
    for ev in distinct_runs(outcome.evidence):
        r = np.asarray(ev["risk"], dtype=float)
        rows = [[nm, accuracy_text(r[:, j, 0]), accuracy_text(r[:, j, 1])]
                for j, nm in enumerate(names)]
        head = f"{title} ({SYNTH}), {setting_title(ev['params'], r.shape[0])}"
        figs.append({"kind": "table", "title": head,
                     "columns": [first, "seen clients", "unseen clients"], "rows": rows,
                     "caption": "Accuracy (%), mean ± std over seeds. " + caption})
        if len(names) >= 3:
            figs.append(accuracy_dots(f"{outcome.check_id}: {head}", first, names, r,
                                      caption))
    return figs


def distinct_runs(evidence) -> list:
    """The evidence of the grid points that start a new run (points that differ only in
    :data:`POINT_KEYS` share their runs: their tables are drawn once)."""
    out, seen = [], set()
    for ev in evidence:
        key = canonical_json({k: v for k, v in dict(ev["params"]).items()
                              if k not in POINT_KEYS})
        if key not in seen:
            seen.add(key)
            out.append(ev)
    return out
