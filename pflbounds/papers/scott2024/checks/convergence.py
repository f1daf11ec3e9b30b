"""Checks of scott2024's Theorem 3.1 (App. C.3, ``theory/convergence.py``).

* Population D (exact, :mod:`pflbounds.exact.linear_hypernetwork`; identical clients, linear
  hypernetwork, Huber loss inside its quadratic zone, from the optimum): the printed forms
  against the exact average E||grad F||^2 where the hidden step conditions hold (erratum4,
  erratum9), the general-beta (113)-(114) without b2^2 on sigma_1^2 (erratum5).
* The proof's algebra, symbolically (erratum2, erratum4, erratum6, erratum7, erratum5 carried
  into the step condition (e)).
* Population A (PeFLL-train with linear-linear networks, constants measured a posteriori on
  the same runs, erratum11): every form against the measured average (P1), the rate in T
  (P2), the floor of batch descriptors (P3) and the dependence on the local steps k (P15).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.checking import Check, CheckKind, Verdict, bound, requiring
from pflbounds.extras import lazy_module
from pflbounds.papers.scott2024.checks.common import (
    THEOREM_FORMS,
    conditions_hold,
    config,
    fixed_start,
    form_value,
    plot_p1,
    plot_p2,
    plot_p3,
    plot_p15,
    replica_keys,
    trajectory_constants,
)
from pflbounds.papers.scott2024.instances import (
    linear_factors,
    point_a,
    setup_a,
    theorem_bounds,
    theorem_run,
    theorem_sweep,
)
from pflbounds.papers.scott2024.theory.convergence import (
    BETA_STAR,
    THEOREM3_1,
    THEOREM3_1_STEP,
    THEOREM3_1_T_MIN,
    step_conditions,
)
from pflbounds.papers.scott2024.theory.lemmas import LEMMA_C4, LEMMA_C5
from pflbounds.reporting.figure_specs import Plot, curves, series
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.constants import get_constant
from pflbounds.symbolic.evaluate import HypothesisError
from pflbounds.symbolic.result import Result

jax = lazy_module("jax", "scott2024's networks")
pefll = lazy_module("pflbounds.algorithms.pefll", "scott2024's networks")
hn = lazy_module("pflbounds.algorithms.hypernetworks", "scott2024's networks")


# ------------------------------------------------------------------------------ population D
def simulate_theorem(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Theorem 3.1 on population D: the exact average E||grad F||^2 against the form named
    ``printed`` (as the erratum's printed side) and ``corrected`` in the grid point; the
    horizons of :func:`theorem_sweep` for its figure."""
    b2sq, T = float(p["b2sq"]), int(p["T"])
    run = theorem_run(b2sq, T)
    bounds = theorem_bounds(run, b2sq, T)
    bp, bc = bounds[p["printed"]], bounds[p["corrected"]]
    sweep = theorem_sweep(b2sq, run["T_min"], p["printed"], p["corrected"])
    return {**sweep, "mean": np.array([run["avg"]]), "ks": np.array([float(T)]),
            "bound_printed": np.array([bp]), "bound_corrected": np.array([bc]),
            "ratio_printed": np.asarray(run["avg"] / bp),
            "ratio_corrected": np.asarray(run["avg"] / bc),
            "average_t0": np.asarray(run["avg0"]), "beta": np.asarray(run["beta"]),
            "T_min": np.asarray(run["T_min"]), "step_conditions_hold":
                np.asarray(float(T >= run["T_min"])),
            "log10_zone_exit": np.asarray(run["exit"])}


_FORMS = {"printed": "main text, eq. (2)", "appendix": "appendix, eqs. (97)–(98)",
          "proof": "proof's last line, eqs. (115)–(116)",
          "explicit": r"general-$\beta$ form, eqs. (113)–(114)",
          "rederived": "re-derived form", "corrected": "corrected form"}
"""Legend names of Theorem 3.1's forms (the equations as text, not as a difference)."""


def plot_theorem(outcome: Any) -> list[dict]:
    """Theorem 3.1's convergence on population D: the exact average of E||grad F(eta_t)||^2
    against T with the erratum's two forms (:func:`theorem_sweep`); without the sweep (an
    older run), the default figures."""
    figs = []
    for ev in outcome.evidence:
        if "sweep_T" not in ev:
            return Plot("curves")(outcome)
        p = ev["params"]
        T = ev["sweep_T"]
        items = [
            series("exact average", T, ev["sweep_avg"], "measured", group="run"),
            series(f"{_FORMS[p['printed']]}", T, ev["sweep_printed"], "bound_printed",
                   group="run"),
            series(f"{_FORMS[p['corrected']]}", T, ev["sweep_corrected"], "bound_corrected",
                   group="run"),
        ]
        figs.append(curves(
            f"{outcome.check_id}: Theorem 3.1 against T on population D", "T (rounds)",
            "(1/T) sum_t E||grad F(eta_t)||^2", items, logx=True, logy=True,
            vlines=[(float(p["T"]), "the check's horizon")],
            caption=f"Population D (identical clients, linear hypernetwork, b2^2 = "
                    f"{float(p['b2sq']):g}, from the optimum), beta = 2/sqrt(T) at every "
                    f"horizon T from T_min = {int(T[0])} (the step conditions hold from there) "
                    f"to 100 T_min; exact expectations."))
    return figs


def _theorem_check(key: str, which: str, b2sq: float, T: int, printed: str, corrected: str,
                   description: str) -> Check:
    """An erratum check of one Theorem 3.1 form (``printed`` side) against another
    (``corrected`` side) on the population-D run at (b2sq, T)."""
    return Check(
        f"scott2024.{key}", f"Theorem 3.1, {which}, on population D", CheckKind.ERRATUM,
        Verdict.CONFIRMED, simulate_theorem,
        grid=({"b2sq": b2sq, "T": T, "printed": printed, "corrected": corrected},),
        engine="exact", rel_tol=1e-9, result_id=THEOREM3_1.id, form=printed,
        xlabel="T (rounds)", ylabel="(1/T) sum_t E||grad F(eta_t)||^2",
        description=description, plot=plot_theorem)


# ------------------------------------------------------------------------------ algebra
def _sym(name: str) -> sp.Symbol:
    return get_constant(name, "scott2024").symbol


def _expr(result: Result, form: str) -> sp.Basic:
    return get(result.id).form(form).expr


def _sigma_term(expr: sp.Basic) -> sp.Basic:
    """The sigma_1^2/gamma_G^2 part of a Theorem 3.1 form (everything with sigma1_2 or
    gammaG2)."""
    return sp.Add(*[t for t in sp.Add.make_args(sp.expand(expr))
                    if t.has(_sym("sigma1_2")) or t.has(_sym("gammaG2"))])


def _claim_c4() -> float:
    """C4: (113)-(114) at beta* equals the re-derived form, whose sigma/gamma term is twice the
    main text's; the three printed terms differ."""
    beta, b = _sym("beta"), _sym("b")
    rederived = _expr(THEOREM3_1, "rederived")
    diff = sp.simplify(_expr(THEOREM3_1, "explicit").subs(beta, BETA_STAR) - rederived)
    half = sp.simplify(_sigma_term(rederived) - 2 * _sigma_term(_expr(THEOREM3_1, "printed")))
    terms = {f: sp.simplify(_sigma_term(_expr(THEOREM3_1, f)).subs(b, 1))
             for f in ("printed", "appendix", "proof")}
    differ = sp.simplify(terms["printed"] - terms["appendix"]) != 0
    same = sp.simplify(terms["printed"] - terms["proof"]) == 0
    return float(diff != 0) + float(half != 0) + float(not differ) + float(not same)


def _claim_c6() -> float:
    """C6: (L/2) times Lemma C.5's 108 is 54 L, not the printed 56 L, and (L/2) times C.5's
    4 beta^2 k/c is 2 L beta^2 k/c as in (102). The printed 56 is kept as an over-estimate:
    the coefficient of the L L1^2 b2^2 beta^2 k^3 term of the step condition (e) as encoded
    (:func:`step_conditions`, the paper's derivation) must be at least the 54 that Lemma
    C.5's printed 108 gives, so that (e) still implies what (104)-(106) need."""
    L, L1, b2, beta, k, c = (_sym(n) for n in ("L", "L1", "b2", "beta", "k", "c"))
    c5 = sp.expand(_expr(LEMMA_C5, "printed"))
    big = sp.simplify(L / 2 * c5.coeff(L1**2 * b2**2 * beta**4 * k**4 * _sym("b1") ** 2))
    noise = sp.simplify(L / 2 * c5.coeff(_sym("sigma1_2")).subs({L1: 0}))
    e = step_conditions()[4].relation
    kept = sp.expand(e.lhs * L / c).coeff(L * L1**2 * b2**2 * beta**2 * k**3)
    return float(big != 54 * L) + float(sp.simplify(noise - 2 * L * beta**2 * k / c) != 0) \
        + float(not bool(kept >= big / L))


def _claim_c7(p: Mapping[str, Any]) -> float:
    """C7: at beta = 2 sqrt(c)/(k sqrt(T)) the step conditions of each form hold from its T_min
    exactly (the calculator's T_min against the conditions themselves): those of the explicit
    form (the paper's derivation, (e) with b2^2) from T_min [explicit], those of the corrected
    form ((e) without b2^2) from T_min [corrected]; at T = ceil(T_min) all hold, at T = 0.98
    T_min one fails, whichever of (b) and (e) sets T_min."""
    kw = {n: p[n] for n in ("L", "L1", "b2", "k", "c")}

    def ok(form: str, T: int) -> bool:
        beta = float(bound(THEOREM3_1_STEP, "printed", c=p["c"], k=p["k"], T=T))
        try:
            bound(THEOREM3_1, form, **kw, beta=beta, T=T, Delta0=1.0, b1=1.0, b=1,
                  sigma1_2=1.0, sigma2_2=0.0, sigma3_2=0.0, gammaG2=1.0)
        except HypothesisError:
            return False
        return True

    bad = 0.0
    for form in ("explicit", "corrected"):
        t_min = float(bound(THEOREM3_1_T_MIN, form, **kw))
        bad += float(not ok(form, int(np.ceil(t_min)))) + float(ok(form, int(0.98 * t_min)))
    return bad


def simulate_t_min(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """theorem3_1_T_min is the smallest T from which beta = 2 sqrt(c)/(k sqrt(T)) meets the
    step conditions of its form (those of theorem3_1 [explicit] for the explicit T_min, of
    [corrected] for the corrected one): every condition holds at T = ceil(T_min) and one
    fails at the integer just below T_min. Residual: the number of such claims that fail."""
    kw = {n: p[n] for n in ("L", "L1", "b2", "k", "c")}

    def ok(form: str, T: int) -> bool:
        beta = float(bound(THEOREM3_1_STEP, "printed", c=p["c"], k=p["k"], T=T))
        return conditions_hold(THEOREM3_1, form, **kw, beta=beta, T=T, Delta0=1.0, b1=1.0,
                               b=1, sigma1_2=1.0, sigma2_2=0.0, sigma3_2=0.0, gammaG2=1.0)

    bad, mins = 0.0, []
    for form in ("explicit", "corrected"):
        t_min = float(bound(THEOREM3_1_T_MIN, form, **kw))
        below = int(np.ceil(t_min)) - 1
        bad += float(not ok(form, int(np.ceil(t_min)))) + float(ok(form, below))
        mins.append(t_min)
    return {"residual": np.asarray(bad), "T_min": np.array(mins)}


def _claim_c5e() -> float:
    """C5 carried into condition (e): with Lemma C.5's b2^2 on sigma_1^2, the sigma_1^2
    coefficient of Lemma C.4 + (L/2) Lemma C.5 (the descent (101)-(106)) stays below the
    corrected bound's 3 L beta^2 k b2^2/c ((107), times beta k/2 from (113)) by exactly
    (beta^2 k b2^2/c) (L - c (27 L1^2 beta k^2 + 54 L L1^2 beta^2 k^3)): b2^2 cancels, and the
    corrected form's (e) (with the paper's 56) implies it. The paper's b2^2-weighted (e) does
    not: at L = 1, L1 = 10, b2 = 0.1, beta = 0.01, c = k = 1 it holds while the coefficient
    exceeds the bound's. Residual 0 when all of this holds."""
    L, L1, b2, beta, k, c = (_sym(n) for n in ("L", "L1", "b2", "beta", "k", "c"))
    s1 = _sym("sigma1_2")

    def coeff(expr: sp.Basic) -> sp.Basic:
        return sp.expand(expr).coeff(s1)

    descent = coeff(_expr(LEMMA_C4, "corrected")) + L / 2 * coeff(_expr(LEMMA_C5, "corrected"))
    target = coeff(_expr(THEOREM3_1, "corrected") * beta * k / 2)
    margin = target - descent
    factored = beta**2 * k * b2**2 / c * (L - c * (27 * L1**2 * beta * k**2
                                                   + 54 * L * L1**2 * beta**2 * k**3))
    point = {L: 1, L1: 10, b2: sp.Rational(1, 10), beta: sp.Rational(1, 100), k: 1, c: 1}
    paper_e = bool(step_conditions()[4].relation.subs(point))
    corrected_e = bool(step_conditions(jacobian_on_noise=True)[4].relation.subs(point))
    return (float(sp.simplify(margin - factored) != 0) + float(not paper_e)
            + float(bool(margin.subs(point) >= 0)) + float(corrected_e))


def _claim_c2() -> float:
    """C2: as b -> infinity (and T -> infinity) the main text's floor vanishes, the
    appendix's (97) and proof's (115) floors do not."""
    b, T = _sym("b"), _sym("T")
    lim = {f: sp.limit(sp.limit(_expr(THEOREM3_1, f), T, sp.oo), b, sp.oo)
           for f in ("printed", "appendix", "proof")}
    return float(lim["printed"] != 0) + float(lim["appendix"] == 0) + float(lim["proof"] == 0)


def simulate_algebra(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Residual 0 when the claim of the grid point holds (see the _claim_* functions). The
    claims are named by the digest's items (§7): C2, C4, C6, C7 are erratum2, erratum4,
    erratum6, erratum7; C5e is erratum5 carried into the step condition (e)."""
    claim = p["claim"]
    res = {"C4": _claim_c4, "C6": _claim_c6, "C2": _claim_c2, "C5e": _claim_c5e}.get(claim)
    value = res() if res is not None else _claim_c7(p)
    return {"residual": np.asarray(value)}


_C7 = ({"claim": "C7", "L": 9.0, "L1": 1.0, "b2": 3.0, "k": 1, "c": 1},
       {"claim": "C7", "L": 135.0, "L1": 2.5, "b2": 6.7, "k": 5, "c": 5},
       {"claim": "C7", "L": 2.0, "L1": 1.0, "b2": 1.0, "k": 10, "c": 20})

# ------------------------------------------------------------------------------ P1, P2


def simulate_p1(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P1: (1/T) sum_{t=0}^{T-1} ||grad F(eta_t)||^2 per replica against every form of
    Theorem 3.1 with the constants of the same runs (entry j = THEOREM_FORMS[j])."""
    inst, arch, data = setup_a(p)
    cfg = config(p, minibatch_variance=True)
    out = hn.to_numpy(pefll.train(arch, data, cfg, replica_keys(seed, R)))
    g2 = np.asarray(out["trace"]["grad2"])
    avg = g2[:, :-1].mean(axis=1)
    vals = trajectory_constants(p, inst, arch, data, out)
    common = {k: vals[k] for k in ("Delta0", "L1", "b1", "b2", "sigma1_2", "sigma2_2",
                                   "sigma3_2", "b", "L", "gammaG2")}
    common.update(c=float(cfg.c), T=float(cfg.T), k=float(cfg.k))
    bounds = []
    for f in THEOREM_FORMS:
        extra = {"beta": cfg.beta} if f in ("explicit", "corrected") else {}
        bounds.append(float(form_value(THEOREM3_1, f, **common, **extra)))
    step_ok = conditions_hold(THEOREM3_1, "corrected", **common, beta=cfg.beta)
    return {"samples": np.repeat(avg[:, None], len(THEOREM_FORMS), axis=1),
            "bound": np.array(bounds), "ks": np.arange(len(THEOREM_FORMS), dtype=float),
            "avg_t1_T": np.asarray(g2[:, 1:].mean()), "step_conditions_hold":
            np.asarray(float(step_ok)), "F_star": np.asarray(inst.F_star[0]),
            "F_T": np.asarray(np.asarray(out["trace"]["F"])[:, -1].mean()),
            **{f"const_{k}": np.asarray(v) for k, v in vals.items()}}


def simulate_p2(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P2: the cost of a horizon T is the average squared gradient norm (1/T) sum_{t<T}
    ||grad F(eta_t)||^2 of a run with beta = 2 sqrt(c)/(k sqrt(T)) (one per replica), every
    replica from the grid point's fixed eta_0 (``init``; a random start per replica when the
    point has none)."""
    inst, arch, data = setup_a(p)
    eta0 = fixed_start(arch, inst.n, p["init"], R) if "init" in p else None
    out = pefll.train(arch, data, config(p), replica_keys(seed, R), eta0)
    g2 = np.asarray(out["trace"]["grad2"])
    return {"cost": g2[:, :-1].mean(axis=1), "grad2_0": np.asarray(g2[0, 0])}


# ------------------------------------------------------------------------------ P3
def simulate_p3(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P3: the plateau (mean ||grad F||^2 over the run's second half) at batch size ``b``
    against the floor of Theorem 3.1 (2) with the constants measured on the same runs."""
    inst, arch, data = setup_a(p)
    b = int(p["b"])
    cfg = config(p)
    out = pefll.train(arch, data, cfg, replica_keys(seed, R),
                      fixed_start(arch, inst.n, p["init"], R))
    tr = out["trace"]
    g2 = np.asarray(tr["grad2"])
    etas = np.asarray(tr["eta"])
    # a run that diverges has unbounded b_1, b_2 along its path (A1 fails, the floor is
    # infinite there): it is counted, and the comparison is made on the runs that stay finite
    ok = np.isfinite(g2).all(axis=1) & np.isfinite(etas).all(axis=(1, 2))
    if not ok.any():
        raise FloatingPointError(f"P3: every run diverged at b = {b}")
    half = g2.shape[1] // 2
    plateau = g2[ok, half:].mean(axis=1)
    sub = etas[ok, :: max(1, etas.shape[1] // 20)].reshape(-1, etas.shape[-1])
    H, A = linear_factors(arch, arch.init(jax.random.key(0), inst.n), sub)
    s2, s3 = inst.batch_variances(b, H, A)
    b2 = inst.batch_jacobian_norm(b, H, A, np.random.default_rng([2024, 3, b]))
    b1 = float(max(np.max(np.asarray(out["b1_local"])[ok]),
                   np.max(np.asarray(tr["b1_full"])[ok])))
    floor = float(form_value(THEOREM3_1, "printed", Delta0=0.0, L=1.0, gammaG2=0.0,
                             sigma1_2=0.0, c=float(cfg.c), k=float(cfg.k), T=np.inf, b1=b1,
                             b2=b2, L1=inst.L1, sigma2_2=s2, sigma3_2=s3, b=float(b)))
    extra = {}
    if p.get("reference"):  # the same runs with full-data descriptors: the noise-only plateau
        ref = pefll.train(arch, data, config(p, b=None), replica_keys(seed, R),
                          fixed_start(arch, inst.n, p["init"], R))
        g2m = np.asarray(ref["trace"]["grad2"])
        extra["plateau_full"] = np.asarray(g2m[:, half:].mean())
    return {**extra, "samples": plateau[:, None], "bound": np.array([floor]),
            "ks": np.array([float(b)]),
            "const_b1": np.asarray(b1), "const_b2": np.asarray(b2),
            "const_L1": np.asarray(inst.L1), "const_sigma2_2": np.asarray(s2),
            "const_sigma3_2": np.asarray(s3), "beta": np.asarray(cfg.beta),
            "m": np.asarray(float(inst.m)), "sum_diverged": np.asarray(float(R - ok.sum()))}


# ------------------------------------------------------------------------------ P15
KS = (1, 2, 5, 10)

BETA_K_MINIBATCH = 0.05
"""P15_minibatch's fixed product beta k (half the theorem's step at T = 2000, c = 5)."""


def simulate_p15(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P15: (1/T) sum_{t<T} ||grad F(eta_t)||^2 per replica at k local steps, beta = 2
    sqrt(c)/(k sqrt(T)), from the fixed eta_0 of ``init``; also the largest minibatch
    variance sigma_1^2 and gamma_G^2 met (which regime the point is in)."""
    inst, arch, data = setup_a(p)
    # beta k fixed at the grid point's beta_k (a parameter shared by every k, so the points
    # of one regime form one scaling group), else the theorem's beta = 2 sqrt(c)/(k sqrt(T))
    over = {"beta": float(p["beta_k"]) / int(p["k"])} if "beta_k" in p else {}
    out = pefll.train(arch, data, config(p, minibatch_variance=True, **over), replica_keys(seed, R),
                      fixed_start(arch, inst.n, p["init"], R))
    tr = out["trace"]
    g2 = np.asarray(tr["grad2"])
    # a diverged run (single-point gradients at beta = 2 sqrt(c)/sqrt(T) for k = 1) leaves
    # A1's bounded region: it is counted and left out, as in P3
    ok = np.isfinite(g2).all(axis=1)
    if not ok.any():
        raise FloatingPointError(f"P15: every run diverged at k = {p['k']}")
    return {"cost": g2[ok, :-1].mean(axis=1),
            "sigma1_2": np.asarray(np.max(np.asarray(out["sigma1_2"])[ok])),
            "gammaG2": np.asarray(np.max(np.asarray(tr["gammaG2"])[ok])),
            "sum_diverged": np.asarray(float(R - ok.sum()))}


_P15: dict[str, Any] = dict(engine="mc", replicas=8, block_size=8, x_param="k",
                           result_id=THEOREM3_1.id, form="printed", plot=plot_p15,
                           xlabel="k (local steps)",
                           ylabel="(1/T) sum_t ||grad F(eta_t)||^2")

CHECKS = [
    _theorem_check(
        "E_C4_theorem3_1_main", "main text (2)", 9.0, 2_000_000, "printed", "explicit",
        "b2^2 = 9, T = 2e6 (T >= T_min [explicit]: the hidden step conditions hold), beta = "
        "2/sqrt(T): the exact average of E||grad F||^2 against (2) (claimed violated) and "
        "against the paper's own (113)-(114) (claimed to hold)."),
    _theorem_check(
        "E_C4_theorem3_1_appendix", "appendix (97)-(98)", 9.0, 2_000_000, "appendix",
        "explicit", "Same run: the exact average against (97)-(98) (claimed violated) and "
        "(113)-(114) (claimed to hold)."),
    _theorem_check(
        "E_C4_theorem3_1_proof", "proof's last line (115)-(116)", 9.0, 2_000_000, "proof",
        "explicit", "Same run: (115)-(116) equals (2) here (sigma_2 = sigma_3 = 0); the exact "
        "average against it (claimed violated) and (113)-(114) (claimed to hold)."),
    _theorem_check(
        "E_C5_theorem3_1", "general-beta (113)-(114) without b2^2", 16.0, 4_000_000,
        "explicit", "corrected",
        "b2^2 = 16, T = 4e6 (>= T_min [explicit]), beta = 1e-3: the exact average against "
        "(113)-(114) without b2^2 on sigma_1^2 (claimed violated) and against the corrected "
        "form (b2^2 on sigma_1^2, step conditions met; claimed to hold)."),
    Check(
        "scott2024.E_algebra", "Theorem 3.1: the proof's algebra (erratum2, erratum4, erratum6, "
        "erratum7)",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_algebra,
        grid=({"claim": "C4"}, {"claim": "C6"}, {"claim": "C2"}, {"claim": "C5e"}, *_C7),
        engine="symbolic",
        tolerance=0.0, result_id=THEOREM3_1.id, form="explicit",
        description="Residual 0 when: (113)-(114) at beta = 2 sqrt(c)/(k sqrt(T)) equals the "
                    "re-derived form, whose sigma/gamma term is twice the main text's and the "
                    "printed forms disagree (erratum4); (L/2) 108 = 54 L, not 56 (erratum6); "
                    "the main text's floor vanishes as b -> infinity, (97)'s and (115)'s do "
                    "not (erratum2); with b2^2 on Lemma C.5's sigma_1^2 the condition "
                    "absorbing the sigma_1^2 terms is c (27 L1^2 beta k^2 + 56 L L1^2 beta^2 "
                    "k^3) <= L, b2^2 cancelled, and the paper's b2^2-weighted one misses b2 < 1 "
                    "points (erratum5 into erratum7); the explicit and corrected forms' step "
                    "conditions hold at their T_min and fail at 0.98 T_min (erratum7)."),
]

CHECKS.append(Check(
    "scott2024.E_T_min", "Theorem 3.1's T_min: the smallest T meeting the step conditions",
    CheckKind.IDENTITY, Verdict.HOLDS, simulate_t_min, grid=tuple(
        {k: v for k, v in q.items() if k != "claim"} for q in _C7), engine="symbolic",
    tolerance=0.0, result_id=THEOREM3_1_T_MIN.id, form="corrected",
    description="At three points (L, L1, b2, k, c), for the explicit and the corrected T_min: "
                "beta = 2 sqrt(c)/(k sqrt(T)) meets every step condition of the form at T = "
                "ceil(T_min) and fails one at the integer below T_min (where (b) or (e) sets "
                "it). Residual 0 when all hold."))

CHECKS += requiring(("jax",), [
    Check(
        "scott2024.P1", "Theorem 3.1 (every form) holds on population A, constants a posteriori",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p1,
        grid=tuple(point_a(T=T, c=c, k=k) for T, c, k in ((500, 5, 5), (2000, 5, 5), (8000, 5, 5),
                                                        (2000, 10, 2))),
        quick_grid=(point_a(T=400, c=5, k=5),), engine="mc", replicas=6, block_size=6,
        result_id=THEOREM3_1.id, form="printed", plot=plot_p1,
        xlabel="form (printed, appendix, proof, rederived, explicit, corrected)",
        ylabel="(1/T) sum_t ||grad F(eta_t)||^2",
        description="Proof-form PeFLL-train (regularizer step beta k), beta = 2 sqrt(c)/(k "
                    "sqrt(T)), full-data descriptors, local minibatch 5, exact grad F: the "
                    "average over t = 0..T-1 against each form of Theorem 3.1 with b1, b2, "
                    "L, sigma_1^2, gamma_G^2 and F(eta_0) - F_* (nuclear-norm program) "
                    "measured on the same runs. The hidden step conditions fail, so the "
                    "corrected form is evaluated outside them (recorded)."),
    Check(
        "scott2024.P2", "Theorem 3.1's rate: the average squared gradient norm falls like T^(-1/2) "
        "or faster", CheckKind.SCALING, Verdict.HOLDS, simulate_p2,
        grid=tuple(point_a(T=T, c=5, k=5, init=i) for i in (0, 1) for T in (500, 2000, 8000)),
        quick_grid=tuple(point_a(T=T, c=5, k=5, init=0) for T in (200, 800)),
        engine="mc", replicas=32, block_size=32, predicted=-0.5, tolerance=0.0,
        side="at_most", x_param="T", result_id=THEOREM3_1.id, form="rederived", plot=plot_p2,
        xlabel="T", ylabel="(1/T) sum_t ||grad F(eta_t)||^2",
        description="Log-log slope of the average squared gradient norm against T in {500, "
                    "2000, 8000} with beta = 2 sqrt(c)/(k sqrt(T)), 32 runs per T from one "
                    "fixed eta_0 (the theorem's expectation is over the algorithm's sampling "
                    "from a given eta_0), one fit per eta_0 (two of them). The claim is "
                    "one-sided, slope <= -1/2 (digest P2: falsified if significantly above "
                    "-1/2): HOLDS when the upper confidence limit of the slope is at most "
                    "-1/2, VIOLATED when the lower one is above it. The measured "
                    "average may fall faster than the bound's T^(-1/2) and T^(-1) terms while "
                    "the run leaves its starting region."),
    Check(
        "scott2024.P3", "Batch descriptors: the plateau stays below Theorem 3.1's floor and falls "
        "with b", CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p3,
        grid=tuple(point_a(T=4000, c=5, k=5, init=0, b=b, record_every=10, reference=b == 10)
                   for b in (2, 5, 10)),
        quick_grid=tuple(point_a(T=400, c=5, k=5, init=0, b=b, record_every=10) for b in (2, 5)),
        engine="mc", replicas=8, block_size=8, result_id=THEOREM3_1.id, form="printed",
        plot=plot_p3, xlabel="b (descriptor batch)", ylabel="||grad F||^2 plateau",
        description="Proof-form PeFLL-train on population A (m = 20) with descriptors from b "
                    "points per round, beta = 2 sqrt(c)/(k sqrt(T)), one fixed eta_0: the mean "
                    "of ||grad F(eta_t)||^2 over t >= T/2 against 8 b1^2 sigma_2^2/b + 14 L1^2 "
                    "b2^2 sigma_3^2/b (the printed form at T = inf), sigma_2^2 and sigma_3^2 "
                    "exact over the batch draw, max over clients and recorded iterates."),
    Check(
        "scott2024.P15_minibatch", "Local steps, sigma_1-dominated (local minibatch 1): the "
        "average squared gradient norm falls with k, at most like 1/k (weak prediction, reported)",
        CheckKind.SCALING, Verdict.HOLDS, simulate_p15,
        grid=tuple(point_a(T=2000, c=5, k=k, s=1, init=0, beta_k=BETA_K_MINIBATCH) for k in KS),
        quick_grid=tuple(point_a(T=200, c=5, k=k, s=1, init=0, beta_k=BETA_K_MINIBATCH)
                         for k in (1, 5)),
        predicted=-0.5, tolerance=0.5, **{**_P15, "replicas": 16, "block_size": 16},
        description="Population A, k in {1, 2, 5, 10}, local minibatch of 1 point, 16 runs "
                    "per k from one fixed eta_0, beta k fixed at 0.05 (half of Theorem 3.1's "
                    "2 sqrt(c)/sqrt(T) = 0.1 at T = 2000, c = 5: at 0.1 the single-point steps "
                    "of k = 1 sit at the edge of stability and the averages are heavy-tailed; "
                    "the explicit form holds for any beta within its conditions): the "
                    "log-log slope of the mean against k read as within [-1, 0] (Theorem "
                    "3.1's sigma_1^2 part falls like 1/k when beta k is fixed, its other terms "
                    "do not depend on k). Setting and statistic fixed before the run."),
    Check(
        "scott2024.P15_fullbatch", "Local steps, gamma_G-dominated (full-data local gradients): k "
        "matters little (weak prediction, reported)",
        CheckKind.SCALING, Verdict.HOLDS, simulate_p15,
        grid=tuple(point_a(T=2000, c=5, k=k, s=None, init=0) for k in KS),
        quick_grid=tuple(point_a(T=200, c=5, k=k, s=None, init=0) for k in (1, 5)),
        predicted=0.0, tolerance=0.25, **_P15,
        description="As P15_minibatch with full-data local gradients (sigma_1 = 0, the "
                    "clients' heterogeneity gamma_G^2 remains): 'k should matter little' read "
                    "as a log-log slope within [-1/4, 1/4] (at most a factor 10^(1/4) = 1.8 "
                    "from k = 1 to 10)."),
])
