"""scott2024 calculator: every form's value against an independent computation from the
paper's formulas in plain Python (math only, not the sympy expressions); solve for T and n;
T_min; a planted wrong bound is caught."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pflbounds.papers.scott2024  # noqa: F401  (registers)
from pflbounds.cli import main
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import HypothesisError, InputError, evaluate, solve

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


def test_lemmas_by_hand():
    b1, b2, L1, s1, beta, k, c = 1.0, 3.0, 1.0, 1.0, 0.01, 1, 1
    kw = dict(b1=b1, b2=b2, L1=L1, sigma1_2=s1, beta=beta, k=k, c=c, gammaG2=0.0, G2=0.0,
              sigma2_2=0.0, sigma3_2=0.0)
    printed = 4 * beta**2 * k * s1 / c + 108 * L1**2 * b2**2 * beta**4 * k**4 * (b1**2 + s1)
    assert float(evaluate(get("scott2024.lemmaC5"), "printed", **kw).value) == \
        pytest.approx(printed, rel=1e-12)
    corrected = printed + 4 * beta**2 * k * (b2**2 - 1) * s1 / c
    assert float(evaluate(get("scott2024.lemmaC5"), "corrected", **kw, b=1).value) == \
        pytest.approx(corrected, rel=1e-12)
    c4 = -0.75 * beta * 2 * 25 + 27 * L1**2 * b2**2 * beta**3 * 8 * (b1**2 + s1)
    got = evaluate(get("scott2024.lemmaC4"), "printed", strict=False,
                   **dict(kw, k=2, G2=25.0)).value
    assert float(got) == pytest.approx(c4, rel=1e-12)
    assert float(evaluate(get("scott2024.lemmaC1"), "explicit", b1=2.0, L2=0.5, b2=3.0,
                          L1=1.5, lam_h=0.1, lam_v=0.3).value) == pytest.approx(
        2 * 0.5 + 9 * 1.5 + 0.6)


def _thm32_by_hand(emp, eta_h2, eta_v2, a_h, a_v, a_t, theta2, n, m, delta, G=1,
                   appendix=False):
    if appendix:
        kl_meta, kl_sum = a_h * eta_h2 + a_v * eta_v2, n * a_t * theta2
    else:
        kl_meta = eta_h2 / (2 * a_h) + eta_v2 / (2 * a_v)
        kl_sum = n * theta2 / (2 * a_t)
    d = delta / G
    meta = math.sqrt((kl_meta + math.log(4 * math.sqrt(n) / d)) / (2 * n))
    sample = math.sqrt((kl_sum + math.log(8 * m * n / d) + 1) / (2 * m * n))
    return emp + meta + sample


T32 = dict(emp=0.27, eta_h2=3.0, eta_v2=2.0, alpha_h=0.1, alpha_v=0.2, alpha_theta=0.5,
           theta2=1.4, n=20000, m=200, delta=0.05)


@pytest.mark.parametrize("form", ["printed", "appendix", "corrected"])
def test_theorem3_2_matches_the_papers_display(form):
    kw = dict(T32, G=6) if form == "corrected" else T32
    got = float(evaluate(get("scott2024.theorem3_2"), form, **kw).value)
    want = _thm32_by_hand(0.27, 3.0, 2.0, 0.1, 0.2, 0.5, 1.4, 20000, 200, 0.05,
                          G=6 if form == "corrected" else 1, appendix=form == "appendix")
    assert got == pytest.approx(want, rel=1e-12)


def test_theorem_b1_and_gamma():
    n, m, delta, K = 50, 30, 0.1, 12.0
    kw = dict(er_hat=0.2, M=1.0, KLmeta=4.0, KLsum=K, n=n, m=m, delta=delta)
    want = 0.2 + math.sqrt((4 + math.log(4 * math.sqrt(n) / delta)) / (2 * n)) \
        + math.sqrt((K + math.log(8 * m * n / delta) + 1) / (2 * m * n))
    assert float(evaluate(get("scott2024.theoremB1"), "corrected", **kw).value) == \
        pytest.approx(want, rel=1e-12)
    lam = math.sqrt(8 * m * n * K) + 1
    gamma = K / (lam - 1) + lam / (8 * m * n)
    assert gamma == pytest.approx(math.sqrt(K / (2 * m * n)) + 1 / (8 * m * n), rel=1e-12)
    got = float(evaluate(get("scott2024.theoremB1_gamma"), "printed", Kc=K, lam_pb=lam, m=m,
                         n=n).value)
    assert got == pytest.approx(gamma, rel=1e-12)
    with pytest.raises(HypothesisError, match="n >= 8"):
        evaluate(get("scott2024.theoremB1"), "corrected", **dict(kw, n=5))


def test_solve_for_T_and_n_on_every_form():
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
    n = int(solve(get("scott2024.theorem3_2"), "n", 0.9, "printed",
                  **{k: v for k, v in T32.items() if k != "n"}).value)
    args = (0.27, 3.0, 2.0, 0.1, 0.2, 0.5, 1.4)
    assert _thm32_by_hand(*args, n, 200, 0.05) <= 0.9 < _thm32_by_hand(*args, n - 1, 200, 0.05)


def test_solve_for_n_below_the_sample_floor_is_refused():
    # the sample term tends to sqrt(theta2/(4 alpha_theta m)) = 0.0592 > 0.3 - 0.27
    with pytest.raises(InputError, match="n"):
        solve(get("scott2024.theorem3_2"), "n", 0.3, "printed",
              **{k: v for k, v in T32.items() if k != "n"})


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


def test_instance_relations_of_the_paper():
    """c <= n (Lemma C.2), er^ <= M (loss in [0, M]), K >= log(8mn) (KL >= 0, delta <= 1)
    and a Spearman correlation in [-1, 1]: declared once, refused with their reason."""
    import sympy as sp

    from pflbounds.symbolic.catalog import instance_relations

    own = {sp.sstr(r.relation) for r in instance_relations("scott2024")
           if r.paper == "scott2024"}
    assert own == {"c <= n", "er_hat <= M", "Kc >= log(8*m*n)", "rho_0 >= -1", "rho_0 <= 1"}
    assert float(evaluate(get("scott2024.lemmaC2_45"), "printed", c=4, n=4, Vsum=2.0,
                          a_max=0.5).value) == pytest.approx(4 / 4 * 2 + 16 * 0.25)
    for rid in ("lemmaC2", "lemmaC2_45"):
        with pytest.raises(InputError, match="c=5 > n=4: the c clients of a round"):
            evaluate(get(f"scott2024.{rid}"), "printed", strict=False, c=5, n=4, Vsum=1.0,
                     a_max=1.0)
    kw = dict(er_hat=0.2, M=1.0, KLmeta=4.0, KLsum=12.0, n=50, m=30, delta=0.1)
    with pytest.raises(InputError, match=r"er_hat=1.5 > M=1: the loss takes values in \[0, M\]"):
        evaluate(get("scott2024.theoremB1"), "printed", **dict(kw, er_hat=1.5))
    assert float(evaluate(get("scott2024.theoremB1"), "printed", **dict(kw, er_hat=1.0,
                                                                      M=1.0)).value) > 1
    # K = sum KL + log(8mn/delta) >= log(8 * 30 * 50) = 9.39
    with pytest.raises(InputError, match=r"K >= log\(8mn\).*Kc=9, m=30, n=50"):
        evaluate(get("scott2024.theoremB1_lambda_star"), "printed", Kc=9.0, m=30, n=50)
    with pytest.raises(InputError, match=r"rho_0=-1.01"):
        evaluate(get("scott2024.fig3"), "printed", rho_0=-1.01)


def test_gamma_needs_lambda_in_its_range_and_gamma_star_the_non_trivial_case():
    g = get("scott2024.theoremB1_gamma")
    m, n, K = 20, 10, 10.0
    # Gamma is the Part I bound for lambda in (1, 4mn) = (1, 800)
    assert float(evaluate(g, "printed", Kc=K, lam_pb=799.0, m=m, n=n).value) == \
        pytest.approx(K / 798 + 799 / 1600, rel=1e-12)
    for lam, cond in ((800.0, "lambda < 4mn"), (1.0, "lambda > 1"), (0.5, "lambda > 1")):
        with pytest.raises(HypothesisError, match=cond):
            evaluate(g, "printed", Kc=K, lam_pb=lam, m=m, n=n)
    gs = get("scott2024.theoremB1_gamma_star")
    # K + 1 < 2mn: the printed sqrt((K + 1)/(2mn)) bounds the exact sqrt(K/(2mn)) + 1/(8mn)
    exact = float(evaluate(gs, "explicit", Kc=K, m=m, n=n).value)
    printed = float(evaluate(gs, "printed", Kc=K, m=m, n=n).value)
    assert exact <= printed
    # K = 1000, m = n = 1: lambda* = 90.4 >= 4mn, and sqrt(1001/2) = 22.37 < 22.49
    assert math.sqrt(1001 / 2) < math.sqrt(1000 / 2) + 1 / 8
    for form in ("explicit", "printed"):
        with pytest.raises(HypothesisError, match=r"lambda\* < 4mn"):
            evaluate(gs, form, Kc=1000.0, m=1, n=1)
    # lambda* < 4mn but K + 1 >= 2mn: only the printed form refuses (K = 399 at mn = 200)
    assert float(evaluate(gs, "explicit", Kc=399.0, m=m, n=n).value) > 0
    with pytest.raises(HypothesisError, match=r"K \+ 1 < 2mn"):
        evaluate(gs, "printed", Kc=399.0, m=m, n=n)
