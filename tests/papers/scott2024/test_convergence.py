"""scott2024 Theorem 3.1 (theory/convergence.py, checks/convergence.py): every form against
an independent computation from the paper's displays in plain Python (math only, not the
sympy expressions), the hidden step conditions and T_min, solve for T, the command line; the
exact numbers of population D quoted in the errata; the population-A runs and their figures
(P1, P2, P3, P15); every check of the topic ending with its expected verdict."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pflbounds.checking.outcome import Outcome
from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.cli import main
from pflbounds.papers.scott2024.checks import convergence as cv
from pflbounds.papers.scott2024.checks.common import (
    THEOREM_FORMS,
    conditions_hold,
    config,
    fall_fits,
    fixed_start,
    form_value,
    p1_against_T,
    plot_p2,
    plot_p3,
    plot_p15,
)
from pflbounds.papers.scott2024.errata import ERRATA
from pflbounds.papers.scott2024.instances import point_a, setup_a
from pflbounds.papers.scott2024.theory.convergence import THEOREM3_1
from pflbounds.papers.scott2024.theory.lemmas import LEMMA_C1
from pflbounds.running import run_check
from pflbounds.symbolic.catalog import get, results
from pflbounds.symbolic.evaluate import HypothesisError, evaluate, solve
from pflbounds.symbolic.units import DimensionError

C = dict(Delta0=2.0, L=9.5, L1=1.3, T=500_000, b=4, b1=1.1, b2=3.0, c=3, gammaG2=0.4, k=2,
         sigma1_2=1.7, sigma2_2=0.6, sigma3_2=0.25)


BETA = 2 * math.sqrt(C["c"]) / (C["k"] * math.sqrt(C["T"]))


def theorem31_by_hand(form: str, beta: float = BETA) -> float:
    """Theorem 3.1 from the paper's displays: (2), (97)-(98), (115)-(116), (113)-(114)."""
    D, L, L1, T, b = C["Delta0"], C["L"], C["L1"], C["T"], C["b"]
    b1, b2, c, g2, k = C["b1"], C["b2"], C["c"], C["gammaG2"], C["k"]
    s1, s2, s3 = C["sigma1_2"], C["sigma2_2"], C["sigma3_2"]
    head = D / math.sqrt(c * T) + 224 * c * L1**2 * b1**2 * b2**2 / T
    floor_b = 8 * b1**2 * s2 / b + 14 * L1**2 * b2**2 * s3 / b
    floor = 8 * b1**2 * s2 + 14 * L1**2 * b2**2 * s3
    root = k * math.sqrt(c * T)
    if form == "printed":
        return head + L * (6 * s1 + 4 * k * g2) / root + floor_b
    if form == "appendix":
        return head + floor + 4 * L * (2 * s1 + k * g2) / root
    if form == "proof":
        return head + floor + L * (6 * s1 + 4 * k * g2) / root
    if form == "rederived":
        return head + floor_b + (12 * L * s1 + 8 * L * k * g2) / root
    noise = b2**2 if form == "corrected" else 1.0
    return (2 * D / (beta * k * T) + 56 * L1**2 * b1**2 * b2**2 * beta**2 * k**2 + floor_b
            + 6 * L * beta * noise * s1 / c + 4 * L * beta * k * g2 / c)


def step_conditions_by_hand(beta: float, T_w: str) -> bool:
    """(a)-(e) of the proof of Theorem 3.1, (107)-(110) (digest §4.1.7), at C: (e) with b2^2
    as the paper derives it (``T_w`` "paper"), without it once Lemma C.5 carries b2^2
    ("corrected")."""
    L, L1, b2, c, k = C["L"], C["L1"], C["b2"], C["c"], C["k"]
    w = b2**2 if T_w == "paper" else 1.0
    tol = 1 + 1e-12
    return (beta <= tol / (8 * L * k) and beta <= tol / (56 * L * k)
            and beta <= tol / (6 * L * k) and beta <= tol / (12 * L * k)
            and c * (27 * L1**2 * w * beta * k**2 + 56 * L * L1**2 * w * beta**2 * k**3)
            <= L * tol)


def smallest_T_by_hand(T_w: str) -> int:
    """The smallest T at which beta = 2 sqrt(c)/(k sqrt(T)) meets the conditions, by
    bisection on the conditions themselves (no closed form)."""
    def ok(T):
        return step_conditions_by_hand(2 * math.sqrt(C["c"]) / (C["k"] * math.sqrt(T)), T_w)

    lo, hi = 1, 1
    while not ok(hi):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


@pytest.mark.parametrize("form", ["printed", "appendix", "proof", "rederived", "explicit"])
def test_theorem3_1_forms_match_the_papers_displays(form):
    # the explicit and rederived forms hold under the derivation's step conditions only:
    # evaluated from the first T that meets them at the theorem's beta
    T = smallest_T_by_hand("paper") if form in ("explicit", "rederived") else C["T"]
    C_T = dict(C)
    C["T"] = T
    try:
        beta = 2 * math.sqrt(C["c"]) / (C["k"] * math.sqrt(T))
        got = float(evaluate(get("scott2024.theorem3_1"), form, strict=False,
                             **dict(C, beta=beta)).value)
        assert got == pytest.approx(theorem31_by_hand(form, beta), rel=1e-12)
    finally:
        C.clear()
        C.update(C_T)


@pytest.mark.parametrize("form", ["explicit", "rederived"])
def test_derivation_forms_refuse_points_outside_the_step_conditions(form):
    # T = 5e5 at C: beta = 2.4e-3 > 1/(56 L k) = 9.4e-4
    with pytest.raises(HypothesisError, match=r"\(b\) beta <= 1/\(56 L k\)"):
        evaluate(get("scott2024.theorem3_1"), form, strict=False, **dict(C, beta=BETA))


def test_rederived_is_the_explicit_form_at_the_theorems_beta():
    assert theorem31_by_hand("rederived") == pytest.approx(theorem31_by_hand("explicit"),
                                                           rel=1e-12)
    main_sigma = theorem31_by_hand("printed") - theorem31_by_hand("rederived")
    assert main_sigma < 0  # the main text's sigma/gamma term is half of the derived one


@pytest.mark.parametrize("form, T_w", [("explicit", "paper"), ("corrected", "corrected")])
def test_T_min_is_the_smallest_T_meeting_the_step_conditions(form, T_w):
    kw = {n: C[n] for n in ("L", "L1", "b2", "k", "c")}
    got = float(evaluate(get("scott2024.theorem3_1_T_min"), form, strict=False, **kw).value)
    assert math.ceil(got) == smallest_T_by_hand(T_w)


def test_T_min_where_condition_e_binds():
    """L = 2, L1 = b2 = 1, k = 10, c = 20: (e) sets T_min; the digest's 3136 L1^4 b2^4 k^2
    c^3/L^2 = 6.27e8 is sufficient, the smallest T is 5.85e8."""
    C_T = dict(C)
    C.update(L=2.0, L1=1.0, b2=1.0, k=10, c=20)
    try:
        T = smallest_T_by_hand("paper")
        assert 12544 * 4 * 20 < T < 3136 * 100 * 8000 / 4
        kw = {n: C[n] for n in ("L", "L1", "b2", "k", "c")}
        got = float(evaluate(get("scott2024.theorem3_1_T_min"), "explicit", **kw).value)
        assert math.ceil(got) == T
    finally:
        C.clear()
        C.update(C_T)


def test_corrected_form_checks_the_step_conditions():
    T = smallest_T_by_hand("corrected")
    beta = 2 * math.sqrt(C["c"]) / (C["k"] * math.sqrt(T))
    kw = dict(C, T=T, beta=beta)
    val = float(evaluate(get("scott2024.theorem3_1"), "corrected", **kw).value)
    C_T = dict(C)
    C["T"] = T
    try:
        assert val == pytest.approx(theorem31_by_hand("corrected", beta), rel=1e-12)
    finally:
        C.clear()
        C.update(C_T)
    with pytest.raises(HypothesisError, match="56"):
        evaluate(get("scott2024.theorem3_1"), "corrected", **dict(C, beta=BETA))


def test_corrected_condition_e_has_no_b2():
    """With b2^2 on Lemma C.5's sigma_1^2 the condition absorbing the sigma_1^2 terms is c (27
    L1^2 beta k^2 + 56 L L1^2 beta^2 k^3) <= L: at L = 1, L1 = 10, b2 = 0.1, beta = 0.01 its
    left side is 27.56 (refused), where the paper's b2^2-weighted one is 0.2756 (which the
    corrected form accepted before, returning 2.41)."""
    kw = dict(Delta0=1.0, L=1.0, L1=10.0, b2=0.1, beta=0.01, T=1000, b=1, b1=1.0, c=1,
              gammaG2=0.0, k=1, sigma1_2=1.0, sigma2_2=0.0, sigma3_2=0.0)
    with pytest.raises(HypothesisError, match=r"\(e\) .* fails: .*\(left side 27.56, right "
                                              r"side 1\)"):
        evaluate(get("scott2024.theorem3_1"), "corrected", **kw)
    # the explicit form (the paper's own derivation) keeps the paper's b2^2-weighted (e)
    assert float(evaluate(get("scott2024.theorem3_1"), "explicit", strict=False,
                          **kw).value) > 0
    # for b2 > 1 the corrected (e) is the weaker one: at L = 9, L1 = 7, b2 = 3, beta = 1e-3
    # its left side is 1.348 <= 9, the paper's 9 * 1.348 = 12.1 > 9
    ok = dict(kw, L=9.0, L1=7.0, b2=3.0, beta=0.001)
    assert float(evaluate(get("scott2024.theorem3_1"), "corrected", **ok).value) > 0
    with pytest.raises(HypothesisError, match=r"\(e\) c \(27 L1\^2 b2\^2"):
        evaluate(get("scott2024.theorem3_1"), "explicit", strict=False, **ok)


def test_solve_for_T_on_every_form():
    for form in ("printed", "appendix", "proof", "rederived"):
        kw = {k: v for k, v in C.items() if k != "T"}
        target = 2 * theorem31_by_hand(form) if form in ("printed", "rederived") else \
            1.5 * theorem31_by_hand(form)
        needed = get("scott2024.theorem3_1").inputs(form)
        T = int(solve(get("scott2024.theorem3_1"), "T", target, form,
                      **{k: v for k, v in kw.items() if k in needed}).value)
        C_T = dict(C)
        for t, ok in ((T, True), (T - 1, False)):
            C["T"] = t
            beta = 2 * math.sqrt(C["c"]) / (C["k"] * math.sqrt(t))
            # the rederived form also needs the derivation's step conditions at beta*
            valid = form != "rederived" or step_conditions_by_hand(beta, "paper")
            assert (theorem31_by_hand(form) <= target and valid) is ok, (form, t)
        C.clear()
        C.update(C_T)
        if form == "rederived":  # the conditions, not the target, set T here
            assert T == smallest_T_by_hand("paper")


def test_a_planted_wrong_bound_is_caught():
    """A bound with the main text's sigma term but no 224 c .../T term is below the exact
    E||grad F||^2 of population D even where (113)-(114) holds."""
    from pflbounds.exact.linear_hypernetwork import LinearHypernetworkSGD

    T = 2_000_000
    model = LinearHypernetworkSGD(v=(3.0,), beta=2 / math.sqrt(T))
    measured = model.average_sq_grad(0.0, T)
    planted = 9 * 6 / math.sqrt(T)  # L (6 sigma_1^2)/(k sqrt(cT)), L = 9
    explicit = float(evaluate(get("scott2024.theorem3_1"), "explicit", Delta0=0.0, L=9.0,
                              L1=1.0, T=T, b=1, b1=1.0, b2=3.0, c=1, gammaG2=0.0, k=1,
                              sigma1_2=1.0, sigma2_2=0.0, sigma3_2=0.0,
                              beta=2 / math.sqrt(T)).value)
    assert measured > planted * 1.4
    assert measured < explicit


def test_cli_eval_solve_and_bad_input(capsys):
    assert main(["eval", "scott2024.theorem3_1", "--form", "explicit", "Delta0=0", "L=9",
                 "L1=1", "T=2000000", "b=1", "b1=1", "b2=3", "c=1", "gammaG2=0", "k=1",
                 "sigma1_2=1", "sigma2_2=0", "sigma3_2=0", "beta=2/sqrt(T)"]) == 0
    out = capsys.readouterr().out
    assert "0.0773755" in out
    assert main(["solve", "scott2024.theorem3_1", "--for", "T", "--target", "0.05", "--form",
                 "printed",
                 "Delta0=1", "L=9", "L1=1", "b=1", "b1=1", "b2=3", "c=1", "gammaG2=0",
                 "k=1", "sigma1_2=1", "sigma2_2=0", "sigma3_2=0"]) == 0
    out = capsys.readouterr().out
    T = int(float(out.split(":")[-1]))
    assert 9 * 6 / math.sqrt(T) + 1 / math.sqrt(T) + 224 * 9 / T <= 0.05 * (1 + 1e-5)
    Tl = 0.999 * T
    assert 9 * 6 / math.sqrt(Tl) + 1 / math.sqrt(Tl) + 224 * 9 / Tl > 0.05
    assert main(["eval", "scott2024.theorem3_2", "emp=0.3", "eta_h2=1", "eta_v2=1",
                 "alpha_h=1", "alpha_v=1", "alpha_theta=1", "theta2=1", "n=100", "m=10",
                 "delta=1.5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "delta" in err[0]


def test_numpy_inputs_broadcast():
    Ts = np.array([10_000, 100_000])
    kw = {k: v for k, v in C.items() if k != "T"}
    got = evaluate(get("scott2024.theorem3_1"), "printed", **kw, T=Ts).value
    assert np.all(np.diff(got) < 0)


def test_results_and_forms():
    RESULTS = {r.id: r for r in results("scott2024")}
    assert {"scott2024.lemmaC1", "scott2024.lemmaC2", "scott2024.lemmaC3", "scott2024.lemmaC4",
            "scott2024.lemmaC5", "scott2024.theorem3_1", "scott2024.theoremB1",
            "scott2024.theoremB1_part1", "scott2024.theoremB1_part2",
            "scott2024.theorem3_2"} <= set(RESULTS)
    assert set(get("scott2024.theorem3_1").forms) == {
        "printed", "appendix", "proof", "rederived", "explicit", "corrected"}
    assert len(get("scott2024.theorem3_1").form("corrected").conditions) == 5
    for r in RESULTS.values():
        assert r.source and r.statement


def test_every_erratum_names_a_registered_check():
    load_papers()
    linked = [e for e in ERRATA.values() if e.check_id]
    assert len(linked) >= 19
    for e in linked:
        assert get_check(e.check_id).paper == "scott2024", e.id
    assert {k for k, e in ERRATA.items() if not e.check_id} == {
        "erratum10", "erratum11", "erratum24"}


def test_general_beta_form_is_unit_consistent_and_the_fixed_beta_forms_are_not():
    get("scott2024.theorem3_1").dimension_check("explicit")
    get("scott2024.theorem3_1").dimension_check("corrected")
    with pytest.raises(DimensionError):
        get("scott2024.theorem3_1").dimension_check("printed")


def _ev(check_id: str, point: int = 0) -> dict:
    load_papers()
    c = get_check(check_id)
    return c.simulate(c.grid[point], 1, np.random.SeedSequence(0))


@pytest.mark.parametrize("cid, ratio", [
    ("scott2024.E_C4_theorem3_1_main", 1.47075),
    ("scott2024.E_C4_theorem3_1_appendix", 1.11020),
    ("scott2024.E_C5_theorem3_1", 1.33165)])
def test_population_d_ratios(cid, ratio):
    ev = _ev(cid)
    assert float(ev["mean"][0] / ev["bound_printed"][0]) == pytest.approx(ratio, rel=1e-5)


@pytest.mark.parametrize("cid", [
    "E_C4_theorem3_1_main", "E_C4_theorem3_1_appendix", "E_C4_theorem3_1_proof",
    "E_C5_theorem3_1", "E_algebra"])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"scott2024.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


def test_theorem_forms_differ_as_the_paper_prints_them():
    v = dict(Delta0=2.0, L1=2.5, b1=4.0, b2=6.0, sigma1_2=16.0, sigma2_2=0.0, sigma3_2=0.0,
             b=20.0, L=135.0, gammaG2=3.0, c=5.0, T=1000.0, k=5.0)
    printed = form_value(THEOREM3_1, "printed", **v)
    rederived = form_value(THEOREM3_1, "rederived", **v)
    head = v["L"] * (6 * 16 + 4 * 5 * 3) / (5 * np.sqrt(5000))
    assert rederived - printed == pytest.approx(head, rel=1e-12)  # (iii) doubles (i)'s term
    beta = 2 * np.sqrt(5) / (5 * np.sqrt(1000))
    assert form_value(THEOREM3_1, "explicit", beta=beta, **v) == pytest.approx(
        rederived, rel=1e-12)
    assert not conditions_hold(THEOREM3_1, "corrected", beta=beta, **v)
    assert conditions_hold(THEOREM3_1, "corrected", **dict(v, beta=1e-9))
    L = form_value(LEMMA_C1, "printed", b1=2.0, b2=3.0, L1=0.5, L2=1.5, L3=0.1)
    assert L == pytest.approx(2 * 1.5 + 9 * 0.5 + 0.1)


@pytest.mark.slow
def test_p1_evidence_on_a_short_run():
    p = point_a(T=200, c=5, k=5)
    out = cv.simulate_p1(p, 2, np.random.SeedSequence(3))
    assert out["samples"].shape == (2, len(THEOREM_FORMS))
    assert np.all(out["bound"] > out["samples"].max())  # every form holds, by far
    assert float(out["step_conditions_hold"]) == 0.0  # C7: T is far below T_min
    assert float(out["F_T"]) >= float(out["F_star"])
    assert float(out["const_L"]) == pytest.approx(
        out["const_b1"] * out["const_L2"] + out["const_b2"] ** 2 * out["const_L1"]
        + out["const_L3"])
    again = cv.simulate_p1(p, 2, np.random.SeedSequence(3))
    assert np.array_equal(again["samples"], out["samples"])


def test_fixed_start_gives_every_replica_the_same_eta0():
    inst, arch, _ = setup_a(point_a(T=10, c=2, k=1, n=4, m=5))
    a = fixed_start(arch, inst.n, 0, 3)
    b = fixed_start(arch, inst.n, 1, 3)
    ha, hb = np.asarray(a["h"][0]["W"]), np.asarray(b["h"][0]["W"])
    assert ha.shape[0] == 3 and np.array_equal(ha[0], ha[2])
    assert not np.array_equal(ha[0], hb[0])  # another init seed, another eta_0


def test_p1_figure_has_every_form_against_T():

    evs = [{"params": point_a(T=T, c=5, k=5), "mean": np.full(6, 1.0 / T),
            "lo": np.full(6, 0.9 / T), "hi": np.full(6, 1.1 / T),
            "bound": np.arange(1.0, 7.0) * 1e4 / T} for T in (8000, 500, 2000)]
    evs.append({"params": point_a(T=2000, c=10, k=2), "mean": np.full(6, 1e-3),
                "bound": np.full(6, 5.0)})
    o = Outcome("scott2024.P1", "bound_holds", "HOLDS", "HOLDS", evidence=evs)
    figs = p1_against_T(o)
    assert len(figs) == 1  # (10, 2) has one T only
    labels = [s["label"] for s in figs[0]["series"]]
    assert len(labels) == 1 + len(THEOREM_FORMS)
    assert figs[0]["series"][0]["x"] == [500.0, 2000.0, 8000.0]
    assert figs[0]["series"][-1]["y"][0] == pytest.approx(6e4 / 500)  # corrected, T = 500


@pytest.mark.slow
def test_minibatch_variance_is_a_diagnostic_only():
    """Switching the sigma_1^2 diagnostic off (the default) keeps the trajectory bit for bit
    and reports NaN; on, it is the exact variance, positive with a local minibatch."""
    import jax

    from pflbounds.algorithms import pefll

    p = point_a(T=6, c=2, k=2, n=6, m=5, record_every=3)
    inst, arch, data = setup_a(p)
    keys = jax.random.split(jax.random.key(5), 2)
    on = pefll.train(arch, data, config(p, minibatch_variance=True), keys)
    off = pefll.train(arch, data, config(p), keys)
    flat = [np.asarray(jax.flatten_util.ravel_pytree(o["eta"])[0]) for o in (on, off)]
    assert np.array_equal(*flat)
    assert np.array_equal(np.asarray(on["trace"]["grad2"]), np.asarray(off["trace"]["grad2"]))
    assert np.all(np.asarray(on["sigma1_2"]) > 0)
    assert np.all(np.isnan(np.asarray(off["sigma1_2"])))


def test_p2_figure_draws_the_claim_boundary_not_the_band_centre():

    T = [500.0, 2000.0, 8000.0]
    evs = [{"point": i, "params": point_a(T=int(t), c=5, k=5, init=0), "lo": [0.9 / t],
            "hi": [1.1 / t]} for i, t in enumerate(T)]
    fit = {"points": [0, 1, 2], "x": T, "cost": [1 / t for t in T], "slope": -1.0,
           "intercept": 0.0, "estimate": -1.0, "lo": -1.2, "hi": -0.8, "predicted": -1.5,
           "tolerance": 1.0}
    o = Outcome("scott2024.P2", "scaling", "HOLDS", "HOLDS", evidence=evs, fits=[fit])
    (fig,) = plot_p2(o)
    labels = [s["label"] for s in fig["series"]]
    assert labels[-1].startswith("claim boundary: slope -1/2")
    assert not any("-1.5" in lab for lab in labels)
    ref = fig["series"][-1]["y"]
    assert np.log(ref[2] / ref[0]) / np.log(16) == pytest.approx(-0.5)
    assert fig["series"][0]["lo"] == pytest.approx([0.9 / t for t in T])


def test_fall_fits_recover_the_exponents():
    bs = np.array([1.0, 2.0, 5.0, 10.0])
    assert fall_fits(bs, 3 / bs**2, 20)["slope_b"] == pytest.approx(-2)
    assert fall_fits(bs, 0.5 * (1 / bs - 1 / 20) ** 2, 20)["slope_fpc"] == pytest.approx(2)


def test_p3_figure_pairs_the_floor_with_the_plateau():
    evs = [{"params": {"b": b}, "mean": np.array([1 / b**2]), "lo": np.array([0.9 / b**2]),
            "hi": np.array([1.1 / b**2]), "bound": np.array([100 / b]), "m": np.asarray(20.0),
            "const_sigma2_2": np.asarray(3.0), "const_sigma3_2": np.asarray(1.0)}
           for b in (5.0, 1.0, 2.0)]
    o = Outcome("scott2024.P3", "bound_holds", "HOLDS", "HOLDS", evidence=evs)
    fig, table = plot_p3(o)
    plateau, floor = fig["series"][:2]
    assert plateau["x"] == [1.0, 2.0, 5.0] and floor["group"] == plateau["group"]
    assert floor["y"] == pytest.approx([100, 50, 20])
    assert "-2.00" in fig["annotations"][0]  # exponent in b
    assert table["rows"][0][3] == "100"  # floor/plateau at b = 1


def test_p15_grid_has_both_regimes_and_the_figure_splits_them():
    mini, full = (c for c in cv.CHECKS if c.id.startswith("scott2024.P15"))
    assert {p["s"] for p in mini.grid} == {1} and {p["s"] for p in full.grid} == {None}
    assert sorted({p["k"] for p in full.grid}) == list(cv.KS)
    assert (full.predicted - full.tolerance, full.predicted + full.tolerance) == (-0.25, 0.25)
    # the minibatch regime fixes beta k below the theorem's 0.1 (edge of stability at k = 1)
    assert {p["beta_k"] for p in mini.grid} == {cv.BETA_K_MINIBATCH} == {0.05}
    assert all("beta" not in p for p in mini.grid + full.grid)
    assert all("beta_k" not in p for p in full.grid)  # the theorem's beta there
    # one scaling group per regime: the grid points differ in k only
    for c in (mini, full):
        assert len({tuple(sorted((k, v) for k, v in p.items() if k != "k")) for p in c.grid}) == 1
    evs = [{"params": point_a(T=2000, c=5, k=k, s=s, init=0), "mean": np.array([1.0 / k]),
            "lo": np.array([0.9 / k]), "hi": np.array([1.1 / k])}
           for s in (1, None) for k in (5, 1)]
    o = Outcome("scott2024.P15", "scaling", "HOLDS", "HOLDS", evidence=evs)
    (fig,) = plot_p15(o)
    assert [s["label"] for s in fig["series"]] == ["local minibatch 1",
                                                   "full-data local gradients"]
    assert fig["series"][0]["x"] == [1.0, 5.0]


def test_claim_c6_fails_when_condition_e_drops_below_lemma_c5s_54(monkeypatch):
    """E_algebra's claim C6 reads the 56 of the encoded step condition (e) against the 54
    that Lemma C.5's 108 gives: it holds as encoded, and fails when (e) carries 50."""
    import sympy as sp

    assert cv._claim_c6() == 0.0
    real = cv.step_conditions

    def lowered(*a, **kw):
        conds = real(*a, **kw)
        e = conds[4]
        return (*conds[:4], type(e)(**{**e.__dict__, "relation": e.relation.subs(56, 50)}))

    monkeypatch.setattr(cv, "step_conditions", lowered)
    assert isinstance(cv.step_conditions()[4].relation, sp.Le)
    assert cv._claim_c6() == 1.0
