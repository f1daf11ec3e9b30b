"""Tests for the sympy -> Typst math printer."""

from __future__ import annotations

import io

import matplotlib.image as mpimg
import numpy as np
import pytest
import sympy as sp
import typst

from pflbounds.symbolic.typst_printer import (
    symbol_to_typst,
    typst_display,
    typst_inline,
    typst_math,
    typst_string,
)

x, y, a, b, i, j, K, N = sp.symbols("x y a b i j K N")
mu, L, eta, sigma2 = sp.symbols("mu L eta sigma2", positive=True)


class Otilde(sp.Function):
    """Õ(·): hides constant and logarithmic factors."""

    hidden_constant = True
    typst_name = "tilde(cal(O))"


class BigO(sp.Function):
    hidden_constant = True
    typst_name = "cal(O)"


class BigOmega(sp.Function):
    hidden_constant = True
    typst_name = "Omega"


# ---------------------------------------------------------------------------------------------
# Symbol names
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("x", "x"),
        ("mu", "mu"),
        ("eps", "epsilon"),
        ("lamda", "lambda"),
        ("sigma2", "sigma^2"),
        ("nu2", "nu^2"),
        ("Delta2", "Delta^2"),
        ("Delta0", "Delta_0"),
        ("F0", "F_0"),
        ("x_12", "x_12"),
        ("d_eff", 'd_"eff"'),
        ("b_max", 'b_"max"'),
        ("b_ij", "b_(i j)"),
        ("V_i", "V_i"),
        ("Delta0_i", "Delta_(0,i)"),
        ("D_star", "D^*"),
        ("lambda_hat_ij", "hat(lambda)_(i j)"),
        ("x_bar", "overline(x)"),
        ("BiasSum", '"BiasSum"'),
        ("SumLam2", '"SumLam2"'),
        ("N_eff", 'N_"eff"'),
        ("Neps_LB_i", '"Neps"_("LB",i)'),
        ("a#b$c", '"a#b$c"'),
        ('x"y\\z', '"x\\"y\\\\z"'),
        ("x_", '"x_"'),
        ("weird name", '"weird name"'),
    ],
)
def test_symbol_names(name: str, expected: str) -> None:
    assert symbol_to_typst(name) == expected
    assert typst_math(sp.Symbol(name)) == expected


def test_symbol_mapping_wins() -> None:
    s = sp.Symbol("SumLam2", positive=True)
    names = {"SumLam2": "sum_(i,j) lambda_(i j)^2"}
    assert typst_math(s / N, names) == "frac(sum_(i,j) lambda_(i j)^2, N)"
    # A compound mapped name is parenthesized under a power.
    assert typst_math(s**2, names) == "(sum_(i,j) lambda_(i j)^2)^2"


def test_typst_string_escapes() -> None:
    assert typst_string('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'


# ---------------------------------------------------------------------------------------------
# Expressions: exact output
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # sums and differences
        (x + y, "x + y"),
        (x - y, "x - y"),
        (1 - eta * mu, "1 - eta mu"),
        (x - a - b, "x - a - b"),
        (-x - y, "-x - y"),
        # products and fractions
        (2 * x * y, "2 x y"),
        (-2 * x * y, "-2 x y"),
        (x / y, "frac(x, y)"),
        (-x / (2 * y), "-frac(x, 2 y)"),
        (sigma2 / (mu * K), "frac(sigma^2, K mu)"),
        ((x + y) / (x - y), "frac(x + y, x - y)"),
        (x * (a - b) * (y + 1), "x (a - b) (y + 1)"),
        (sp.Mul(2, 3, evaluate=False), "2 dot 3"),
        (sp.Mul(x, 2, evaluate=False), "x dot 2"),
        (sp.Rational(3, 4), "frac(3, 4)"),
        (sp.Rational(-1, 2), "-frac(1, 2)"),
        (sp.Integer(-7), "-7"),
        # powers
        (x**2, "x^2"),
        (x ** (y + 1), "x^(y + 1)"),
        (x**-2, "frac(1, x^2)"),
        (x**-y, "frac(1, x^y)"),
        (sp.sqrt(x + y), "sqrt(x + y)"),
        (1 / sp.sqrt(x), "frac(1, sqrt(x))"),
        (x ** sp.Rational(1, 3), "root(3, x)"),
        (x ** sp.Rational(3, 2), "x^(3\\/2)"),
        ((x + y) ** 2, "(x + y)^2"),
        (sp.Pow(-1, K), "(-1)^K"),
        (sigma2**2, "(sigma^2)^2"),
        (sp.Symbol("D_star") ** 2, "D^(*2)"),
        (sp.Symbol("b_ij") ** 2, "b_(i j)^2"),
        (sp.Symbol("d_eff") ** 2, 'd_"eff"^2'),
        # exponentials and logarithms
        (sp.exp(x), "e^x"),
        (sp.exp(-K * mu / (2 * L)), "e^(-K mu\\/(2 L))"),
        (sp.exp(-eta * mu * K), "e^(-K eta mu)"),
        (sp.exp(-1 / K), "e^(-1\\/K)"),
        (sp.exp(-K * sp.Max(2 * x, y) / 8), "exp(-frac(K max(2 x, y), 8))"),
        (sp.log(x), "ln(x)"),
        (sp.log(x) ** 2, "ln(x)^2"),
        # numbers
        (sp.Float(0.25), "0.25"),
        (sp.Float(1.5e-3) * x, "0.0015 x"),
        (sp.Float(1e10), "10^(10)"),
        (sp.Float(-2.5e-7), "-2.5 times 10^(-7)"),
        (sp.oo, "infinity"),
        (sp.pi * x, "pi x"),
        # functions
        (sp.Min(x, y), "min(x, y)"),
        (sp.Max(x, 2), "max(2, x)"),
        (sp.Min(1 / (2 * L), sp.log(x) / (mu * K)), "min(frac(1, 2 L), frac(ln(x), K mu))"),
        (sp.Abs(x - y), "abs(x - y)"),
        (sp.floor(x / 2), "floor(frac(x, 2))"),
        (sp.ceiling(x), "ceil(x)"),
        (sp.sin(x) ** 2, "sin(x)^2"),
        (sp.Function("f")(x, y), "f(x, y)"),
        (sp.Function("f_i")(x), "f_i (x)"),
        (sp.Function("Neps")(x), '"Neps"(x)'),
        (sp.factorial(N), "N!"),
        (sp.binomial(N, K), "binom(N, K)"),
        # hidden constants
        (Otilde(sigma2 / (mu * K)), "tilde(cal(O))(frac(sigma^2, K mu))"),
        (BigO(1 / K), "cal(O)(frac(1, K))"),
        (BigOmega(sigma2 / N), "Omega(frac(sigma^2, N))"),
        (2 * Otilde(x) + y, "y + 2 tilde(cal(O))(x)"),
        # relations
        (sp.Le(eta, 1 / (2 * L)), "eta <= frac(1, 2 L)"),
        (sp.Ge(x, 4 * y), "x >= 4 y"),
        (sp.Lt(x, y), "x < y"),
        (sp.Gt(x, y), "x > y"),
        (sp.Eq(x, y), "x = y"),
        (sp.Ne(x, y), "x != y"),
        # indicators, cases, sums
        (sp.Heaviside(x - y), "bb(1)_(x >= y)"),
        (sp.Heaviside(x - y, 0), "bb(1)_(x > y)"),
        (sp.Heaviside(x), "bb(1)_(x >= 0)"),
        (
            sp.Piecewise((x, x > 0), (0, True)),
            'cases(x & quad "if " x > 0, 0 & quad "otherwise")',
        ),
        (sp.Sum(1 / sp.Symbol("N_i"), (i, 1, N)), "sum_(i = 1)^N frac(1, N_i)"),
        (sp.Sum(x + i, (i, 1, N)), "sum_(i = 1)^N (i + x)"),
        (
            sp.Sum(sp.IndexedBase("lambda")[i, j] ** 2, (i, 1, N), (j, 1, N)),
            "sum_(j = 1)^N sum_(i = 1)^N lambda_(i j)^2",
        ),
        (sp.Matrix([[1, x], [y, 2]]), "mat(1, x; y, 2)"),
        (sp.gamma(x), "Gamma(x)"),
        (sp.Function("f")(x).diff(x), "frac(d, d x) f(x)"),
        (sp.Function("f")(x, y).diff(x, 2, y), "frac(partial^3, partial x^2 partial y) f(x, y)"),
    ],
)
def test_expressions(expr: sp.Basic, expected: str) -> None:
    assert typst_math(expr) == expected


def test_display_and_inline_wrappers() -> None:
    assert typst_display(x / y) == "$ frac(x, y) $"
    assert typst_inline(x / y) == "$frac(x, y)$"
    assert typst_math(3) == "3"


def test_custom_typst_method() -> None:
    class Special(sp.Symbol):
        def _typst(self, printer: object) -> str:
            return "star.filled"

    assert typst_math(Special("s") + 1) == "star.filled + 1"


def test_float_digits_setting() -> None:
    assert typst_math(sp.Float(1 / 3), float_digits=3) == "0.333"


# ---------------------------------------------------------------------------------------------
# Compilation: every expression of the Even et al. digest, Appendix B, plus edge cases
# ---------------------------------------------------------------------------------------------
def even2022_appendix_b() -> dict[str, sp.Basic]:
    """The sympy skeleton of Appendix B of the even2022 digest, one entry per expression."""
    (N_, d, K_, mu_, L_, s2, eps, eta_, F0, Delta0, V, B, SumLam2, BiasSum, DeltaLam0) = sp.symbols(
        "N d K mu L sigma2 eps eta F0 Delta0 V B SumLam2 BiasSum DeltaLam0", positive=True
    )
    kappa = L_ / mu_
    out: dict[str, sp.Basic] = {}
    out["afo_bound"] = (
        (1 - eta_ * mu_) ** K_ * Delta0 + eta_ * s2 * L_ / (2 * mu_) * V + B / (2 * mu_)
    )
    A = 2 * mu_**2 * K_ * Delta0 / (s2 * L_ * V)
    out["A"] = A
    out["eta6"] = sp.Min(1 / (2 * L_), sp.log(A) / (mu_ * K_))
    out["afo_paper_after6"] = (
        Delta0 * sp.exp(-K_ / kappa) + s2 * L_ / (mu_**2 * K_) * sp.log(A) * V + B / (2 * mu_)
    )
    out["afo_safe_after6"] = (
        Delta0 * sp.exp(-K_ / (2 * kappa))
        + s2 * L_ * V / (2 * mu_**2 * K_) * (1 + sp.log(A))
        + B / (2 * mu_)
    )
    A7 = 2 * mu_**2 * K_ * DeltaLam0 / (s2 * L_ * SumLam2 / N_)
    out["A7"] = A7
    out["eta7"] = sp.Min(1 / (2 * L_), sp.log(A7) / (mu_ * K_))
    out["afa_paper"] = (
        DeltaLam0 * sp.exp(-K_ / (2 * kappa))
        + kappa * s2 / (K_ * mu_ * N_) * sp.log(A7) * SumLam2
        + BiasSum / (2 * mu_ * N_)
    )
    out["afa_safe"] = (
        F0 * sp.exp(-eta_ * mu_ * K_)
        + eta_ * L_ * s2 * SumLam2 / (mu_ * N_)
        + BiasSum / (2 * mu_ * N_)
    )
    invN_mean = sp.Symbol("invN_mean", positive=True)
    out["K_cor1"] = 2 * sp.Max(kappa * s2 / (eps * mu_) * invN_mean, kappa) * sp.log(F0 / eps)
    T = sp.Symbol("T", positive=True)
    out["lemma6_last"] = sp.exp(-eta_ * mu_ * T) * Delta0 + eta_ * L_ * s2 / mu_
    out["T_eps"] = sp.Max(2 * L_ * s2 / (eps * mu_**2), 2 * L_ / mu_) * sp.log(Delta0 / eps)
    C, Neff = sp.symbols("C N_eff", positive=True)
    out["K_LB_thm1"] = C * s2 / (mu_ * eps * Neff)
    C1 = sp.Rational(879, 100)
    out["K_LB_A"] = ((d / 3) * sp.log(2 / sp.sqrt(sp.E)) - sp.log(2)) / (C1 * 36 * d * eps * Neff)
    S, u, nu2, deff, Delta2, Cc, bmax, Dstar, cN = sp.symbols(
        "S u nu2 d_eff Delta2 C_c b_max D_star c_N", positive=True
    )
    out["thm4_var"] = kappa * s2 / (K_ * mu_) * (1 / Cc + 2 * Cc * sp.exp(-S * u / (8 * nu2)))
    out["thm4_bias"] = (
        2 * cN * bmax**2 * sp.exp(-S * sp.Max(2 * u, Delta2 - 2 * u) / (8 * nu2))
        + 4 * Dstar**2 * u * sp.Heaviside(4 * u - Delta2)
    ) / (2 * mu_)
    out["thm4_cond_u"] = sp.Ge(u, 4 * nu2 * deff / S)
    out["tail_cross"] = 2 * sp.exp(-S * sp.Max(2 * u, Delta2 - 2 * u) / (8 * nu2))
    # Printed forms with hidden constants (digest §4.6, §4.9, §4.4).
    out["thm2_printed"] = (
        Delta0 * sp.exp(-K_ / (2 * kappa)) + Otilde(kappa * s2 / (mu_ * K_) * V) + B / mu_
    )
    out["thm3_printed"] = (
        F0 * sp.exp(-K_ / (2 * kappa))
        + Otilde(kappa * s2 / (K_ * mu_ * N_) * SumLam2)
        + BiasSum / (2 * mu_ * N_)
    )
    out["thm1_printed"] = BigOmega(s2 / (mu_ * eps * Neff))
    return out


def edge_cases() -> dict[str, sp.Basic]:
    return {
        "hostile_names": sp.Symbol("a#b$c") + sp.Symbol('q"]') + sp.Symbol("x_y_z_w"),
        "piecewise": sp.Piecewise((x**2, sp.And(x > 0, y < 1)), (-x, True)),
        "double_sum": sp.Sum(sp.IndexedBase("lambda")[i, j] ** 2, (i, 1, N), (j, 1, N)),
        "nested": sp.sqrt(1 + 1 / (1 + 1 / x)) ** sp.Rational(3, 2),
        "big_float": sp.Float(6.02214076e23) * x,
        "matrix": sp.Matrix([[1, x], [y, sp.Rational(1, 2)]]),
        "function_sub": sp.Function("f_i")(sp.Symbol("x_j_star")) - sp.Function("f_i")(x),
    }


def _ink_fraction(png: bytes) -> float:
    """Fraction of pixels that are not background-white in a PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = np.asarray(mpimg.imread(io.BytesIO(png), format="png"), dtype=float)
    rgb = img[..., :3]
    if img.shape[-1] == 4:  # transparent pixels count as background
        rgb = np.where(img[..., 3:4] > 0, rgb, 1.0)
    return float(np.mean(rgb.min(axis=-1) < 0.9))


def test_appendix_b_and_edge_cases_compile() -> None:
    exprs = {**even2022_appendix_b(), **edge_cases()}
    assert len(exprs) >= 20
    lines = ["#set page(width: 16cm, height: auto, margin: 1cm)"]
    for k, (name, expr) in enumerate(exprs.items()):
        if k:
            lines.append("#pagebreak()")
        lines.append(f"#raw({typst_string(name)})")
        lines.append(typst_display(expr))
    source = "\n".join(lines).encode()
    pdf = typst.compile(source)
    assert pdf.startswith(b"%PDF")
    pages = typst.compile(source, format="png", ppi=40)
    assert isinstance(pages, list)
    assert len(pages) == len(exprs)
    for png in pages:
        assert _ink_fraction(png) > 0.002
