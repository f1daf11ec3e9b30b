"""Units, dimension analysis, and the dimension check of every encoded result."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from pflbounds.symbolic import DimensionError, Unit, dimension, get, results
from pflbounds.symbolic.constants import K, L, eps, eta, mu, sigma2, units_of
from pflbounds.symbolic.hidden import Omega, Otilde

F = Unit(f=Fraction(1))
X = Unit(x=Fraction(1))


def dim(expr):
    return dimension(expr, units_of(expr.free_symbols))


# ----------------------------------------------------------------------------- Unit
def test_unit_arithmetic():
    curv = F / X**2
    assert curv == Unit(Fraction(1), Fraction(-2))
    assert curv * (X**2 / F) == Unit()
    assert (curv * curv).f == 2 and (curv * curv).x == -4
    assert (F**2 / X**2) / curv == F
    assert (F ** Fraction(1, 2)).f == Fraction(1, 2)
    assert Unit().dimensionless
    assert not F.dimensionless
    assert (F / F).dimensionless


def test_unit_str():
    assert str(Unit()) == "1"
    assert str(F) == "[f]"
    assert str(F / X**2) == "[f]*[x]^-2"
    assert str(X**2 / F) == "[f]^-1*[x]^2"
    assert str(F ** Fraction(1, 2)) == "[f]^1/2"


@pytest.mark.parametrize(
    "text, want",
    [
        ("f/x^2", Unit(Fraction(1), Fraction(-2))),
        ("f^2/x^2", Unit(Fraction(2), Fraction(-2))),
        ("x^2/f", Unit(Fraction(-1), Fraction(2))),
        ("f", Unit(Fraction(1), Fraction(0))),
        ("x", Unit(Fraction(0), Fraction(1))),
        ("1", Unit()),
        ("", Unit()),
        ("x*f^-0.5", Unit(Fraction(-1, 2), Fraction(1))),
        ("f^2/x^4", Unit(Fraction(2), Fraction(-4))),
        ("f / x ^ 2", Unit(Fraction(1), Fraction(-2))),
        ("1/f", Unit(Fraction(-1), Fraction(0))),
        ("f/x/x", Unit(Fraction(1), Fraction(-2))),
    ],
)
def test_unit_parse(text, want):
    assert Unit.parse(text) == want


def test_unit_parse_roundtrip_through_constants():
    assert units_of({mu})[mu] == Unit.parse("f/x^2")
    assert units_of({sigma2})[sigma2] == Unit.parse("f^2/x^2")
    assert units_of({eta})[eta] == Unit.parse("x^2/f")
    assert units_of({K})[K] == Unit()
    assert units_of({eps})[eps] == F


@pytest.mark.parametrize("bad", ["g", "f/y^2", "m*s"])
def test_unit_parse_rejects_unknown_base(bad):
    with pytest.raises(ValueError, match="unknown base dimension"):
        Unit.parse(bad)


# ----------------------------------------------------------------------------- dimension
@pytest.mark.parametrize(
    "expr, want",
    [
        (mu, "f/x^2"),
        (eta * mu, "1"),
        (eta * sigma2 * L / mu, "f"),
        (sigma2 / mu, "f"),
        (sp.sqrt(mu), "f^0.5/x"),
        (sp.exp(-eta * mu * K), "1"),
        (sp.log(2 * mu**2 * K * eps / (sigma2 * L)), "1"),
        (sp.Min(1 / (2 * L), sp.log(K) / (mu * K)), "x^2/f"),
        (sp.Max(2 * L / mu, 2 * L * sigma2 / (eps * mu**2)), "1"),
        (sp.Heaviside(mu - L), "1"),
        (sp.ceiling(sp.Max(L / mu, 1) * sp.log(4)), "1"),
        (sp.Abs(L - mu), "f/x^2"),
        (sp.Piecewise((mu, eta > 1 / L), (L, True)), "f/x^2"),
        (Otilde(sigma2 / (mu * K)), "f"),
        (Omega(sigma2 / (mu * eps)), "1"),
        (sp.Integer(3) / 7 + sp.pi + sp.E, "1"),
    ],
)
def test_dimension_of_good_expressions(expr, want):
    assert dim(expr) == Unit.parse(want)


def test_dimension_of_relation_is_the_common_unit():
    assert dimension(sp.Le(eta, 1 / L), units_of({eta, L})) == Unit.parse("x^2/f")


def test_zero_has_every_unit_in_a_relation():
    assert dimension(sp.Gt(sigma2, 0), units_of({sigma2})) == Unit.parse("f^2/x^2")
    with pytest.raises(DimensionError, match="a relation"):
        dimension(sp.Gt(sigma2, 1), units_of({sigma2}))


@pytest.mark.parametrize(
    "expr, pieces",
    [
        # a sum of mismatched units, nested: the message names the inner sum only
        (K * (mu + sigma2) + L, ["a sum", "mu + sigma2", "[f]*[x]^-2", "[f]^2*[x]^-2"]),
        (sp.exp(mu), ["argument of exp", "exp(mu)", "[f]*[x]^-2"]),
        (eps * sp.exp(-K * mu), ["argument of exp", "exp(-K*mu)"]),
        (sp.log(sigma2 * K), ["argument of log", "log(K*sigma2)"]),
        (sp.Min(mu, eta), ["Min mixes units", "Min(eta, mu)"]),
        (sp.Max(1 / (2 * L), eta * mu), ["Max mixes units"]),
        (sp.Le(eta, mu), ["a relation", "eta <= mu"]),
        (mu**eta, ["exponent eta carries unit"]),
        (mu**sp.pi, ["non-rational power", "mu**pi"]),
        (sp.ceiling(mu * K), ["rounding of a dimensional quantity"]),
        (sp.Heaviside(mu - eta), ["a sum", "-eta + mu"]),
        (sp.Piecewise((mu, eta > 1 / L), (eta, True)), ["a piecewise expression"]),
        (sp.gamma(K), ["no dimension rule", "gamma(K)"]),
        (Otilde(mu + eps), ["a sum", "eps + mu"]),
    ],
)
def test_dimension_errors_name_the_offending_subexpression(expr, pieces):
    with pytest.raises(DimensionError) as info:
        dim(expr)
    msg = str(info.value)
    for p in pieces:
        assert p in msg, (p, msg)


def test_dimension_error_names_the_innermost_bad_sum_not_the_whole():
    expr = eps * sp.exp(-K / 2) + sigma2 / mu * (1 + eta * mu + mu)
    with pytest.raises(DimensionError) as info:
        dim(expr)
    msg = str(info.value)
    assert "eta*mu + mu + 1" in msg
    assert "exp" not in msg


def test_undeclared_symbol_is_a_dimension_error():
    z = sp.Symbol("zeta_unknown")
    with pytest.raises(DimensionError, match="zeta_unknown has no declared unit"):
        dimension(z + mu, {mu: Unit.parse("f/x^2")})


def test_tuple_has_no_unit():
    with pytest.raises(DimensionError, match="tuple"):
        dimension(sp.Tuple(mu, L), units_of({mu, L}))


def test_dimensionless_base_any_power():
    assert dim(K**eta.subs(eta, sp.Rational(1, 3))) == Unit()
    assert dim(sp.Integer(2) ** (K / 3)) == Unit()


# ----------------------------------------------------------------------------- results
_FAILING_PRINTED = {("even2022.theorem4", "printed"), ("even2022.corollary2", "printed")}
_FAILING_PRINTED |= {  # philippenko2025 errata 1, 4 and 7, shown by the dimension check
    ("philippenko2025.lemma1", "printed"), ("philippenko2025.definition2_ratio", "printed"),
    ("philippenko2025.theorem2_horizon", "printed")}
_FAILING_PRINTED |= {  # even2022 errata 20_hkz, 18, 24 and 23_agents
    ("even2022.hkz_tail", "printed"), ("even2022.theorem4_bias", "printed"),
    ("even2022.baseline_global", "printed"), ("even2022.baseline_personalised", "printed"),
    ("even2022.corollary2_agents", "printed")}
_FAILING_PRINTED |= {  # erickson2025 erratum 2: eps = 4 sigma^2 (s+1)/s + 2 delta (eta dropped)
    (f"erickson2025.{rid}", form)
    for rid in ("theorem4_3", "theorem4_3_eta38", "corollary_floor", "corollary_iterations")
    for form in ("printed", "explicit")}
_FAILING_PRINTED |= {  # scott2024: beta = 2 sqrt(c)/(k sqrt(T)) is a pure number (Theorem 3.1
    # forms at that beta, the step rule, T_min); erratum3 (no beta in Lemma C.3's iterate)
    # and erratum17 (the appendix's KL = alpha ||eta||^2)
    *(("scott2024.theorem3_1", f) for f in ("printed", "appendix", "proof", "rederived")),
    ("scott2024.theorem3_1_step", "printed"), ("scott2024.theorem3_1_T_min", "corrected"),
    ("scott2024.theorem3_1_T_min", "explicit"),
    ("scott2024.lemmaC3_iterate", "printed"), ("scott2024.kl_gaussian", "printed"),
    ("scott2024.theorem3_2", "appendix")}


def _all_forms():
    out = []
    for r in results():
        for name in r.forms:
            out.append(pytest.param(r.id, name, id=f"{r.id}[{name}]"))
    return out


@pytest.mark.parametrize("rid, form", _all_forms())
def test_dimension_check_of_every_form(rid, form):
    r = get(rid)
    f = r.form(form)
    if f.normalized:
        # stated in normalised units (mu = L = 1/r^2 or instance A): documented, not checked
        assert "mu" in f.normalized
        return
    if (rid, form) in _FAILING_PRINTED:
        with pytest.raises(DimensionError):
            r.dimension_check(form)
        return
    units = r.dimension_check(form)
    for part, u in units.items():
        assert u == r.part_unit(part)


def test_only_the_two_printed_forms_with_errata_fail_the_dimension_check():
    failing = set()
    for r in results():
        for name, f in r.forms.items():
            if f.normalized:
                continue
            try:
                r.dimension_check(name)
            except DimensionError:
                failing.add((r.id, name))
    assert failing == _FAILING_PRINTED


def test_normalized_forms_are_the_theorem1_lower_bounds():
    normalized = {(r.id, n) for r in results() for n, f in r.forms.items() if f.normalized}
    assert ("even2022.theorem1", "explicit") in normalized
    for rid, _ in normalized:
        assert rid.endswith("theorem1")


def test_theorem4_printed_fails_on_the_threshold_indicator():
    r = get("even2022.theorem4")
    with pytest.raises(DimensionError) as info:
        r.dimension_check("printed")
    msg = str(info.value)
    assert "sqrt(Delta2)" in msg and "u" in msg
    assert r.dimension_check("corrected") == {"": Unit.parse("f")}
    # the erratum attached to Theorem 4 describes the typo and the failed check
    texts = [e.what for e in r.errata]
    assert any("dimension check" in t and "4u^2 1{2u >= Delta}" in t for t in texts)


def test_corollary2_printed_fails_on_the_condition_on_C():
    r = get("even2022.corollary2")
    with pytest.raises(DimensionError) as info:
        r.dimension_check("printed")
    msg = str(info.value)
    assert "[printed:C]" in msg
    assert "[f]*[x]^-4" in msg
    units = r.dimension_check("corrected")
    assert set(units) == {"S", "KC", "K"}
    assert all(u == Unit() for u in units.values())
    texts = [e.what for e in r.errata]
    assert any("C = Omega~(nu^2 d_eff/eps)" in t and "dimension check" in t for t in texts)


def test_dimension_check_rejects_a_unit_different_from_the_quantity():
    r = get("even2022.theorem2")
    assert r.dimension_check("explicit") == {"": Unit.parse("f")}
    # the same expression divided by mu would be a different unit
    from dataclasses import replace

    f = r.form("explicit")
    bad = replace(r, forms={"explicit": replace(f, expr=f.expr / mu)})
    with pytest.raises(DimensionError, match=r"has unit .* but the quantity"):
        bad.dimension_check("explicit")


def test_dimension_check_covers_conditions():
    from dataclasses import replace

    from pflbounds.symbolic.result import Condition

    r = get("even2022.lemma6")
    bad = replace(r, conditions=(Condition(sp.Le(eta, 1 / (2 * sigma2)), "typo"),))
    with pytest.raises(DimensionError, match="a relation"):
        bad.dimension_check("printed")
