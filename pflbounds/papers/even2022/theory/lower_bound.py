"""Lower bound of even2022: Lemmas 1-2, Fano's inequality (Eqs. 4-5) and Theorem 1."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.even2022 import inputs
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import HARD_INSTANCE, cond, form, result
from pflbounds.papers.even2022.symbols import (
    C1,
    I1,
    Itot,
    N_eff,
    Neps,
    Vcard,
    d,
    eps,
    mu,
    psi,
    r,
    sigma2,
)
from pflbounds.symbolic.hidden import Omega
from pflbounds.symbolic.result import Kind
from pflbounds.symbolic.unevaluated import Ge, Le, Lt

LEMMA1 = result(
    "lemma1", "Lemma 1", Kind.IDENTITY,
    "sub-optimality level below which at most one g_alpha of the packing lies", "f",
    "For any x, at most one g_alpha in G(delta) satisfies g_alpha(x) - inf g_alpha < psi(delta)/3.",
    [form("printed", psi / 3)],
    relation="=", source="App. B.1 (Agarwal et al.)",
    quantity_typst="\"threshold\"",
    unchecked=("a proof step, not checked on its own. A packing lemma of Theorem 1's proof; check "
               "P6 tests Theorem 1."),
    methods=HARD_INSTANCE,
)

LEMMA2 = result(
    "lemma2", "Lemma 2", Kind.IDENTITY,
    "accuracy E[g_alpha(x^K) - min g_alpha] below which a test with error <= 1/3 exists", "f",
    "If a method reaches E[g_alpha(x^K) - min g_alpha] < psi(delta)/9, some test alpha_hat "
    "has max_alpha P(alpha_hat != alpha) <= 1/3.",
    [form("printed", psi / 9)],
    relation="=", source="App. B.1 (Agarwal et al.)",
    quantity_typst="\"accuracy threshold\"",
    unchecked=("a proof step, not checked on its own. A reduction to testing in Theorem 1's proof;"
               " check P6 tests Theorem 1."),
    methods=HARD_INSTANCE,
)

EQ4 = result(
    "eq4", "Fano's inequality, Eq. (4)", Kind.LOWER_BOUND,
    "P(alpha_hat != alpha) for alpha uniform on the packing", "1",
    "For alpha uniform on V, P(alpha_hat != alpha) >= 1 - (I(phi, alpha) + ln 2)/ln|V|.",
    [form("printed", 1 - (Itot + sp.log(2)) / sp.log(Vcard))],
    relation=">=", source="App. B.2", equations=("4",),
    quantity_typst="PP(hat(alpha) != alpha)",
    unchecked=("a standard fact, not checked. Fano's inequality; check P6 tests the lower bound it"
               " leads to."),
    methods=HARD_INSTANCE,
)

EQ5 = result(
    "eq5", "Fano's sample bound, Eq. (5)", Kind.LOWER_BOUND,
    "K_eps, oracle calls to reach error psi", "1",
    "If I(phi_K, alpha) = K I(phi_1, alpha), then K_eps >= (2/3 ln|V| - ln 2)/I(phi_1, alpha).",
    [form("printed", (sp.Rational(2, 3) * sp.log(Vcard) - sp.log(2)) / I1)],
    relation=">=", source="App. B.2", equations=("5",),
    quantity_typst="K_epsilon",
    unchecked=("a proof step, not checked on its own. Fano's inequality solved for K; check P6 "
               "tests Theorem 1's explicit form, which instantiates it."),
    methods=HARD_INSTANCE,
)

THEOREM1 = result(
    "theorem1", "Theorem 1", Kind.LOWER_BOUND,
    "K_eps: oracle calls any method needs for E[f_i(x_i^K) - f_i^*] <= eps (worst case over "
    "the class D)", "1",
    "For eps in (0, 1/16), b obeying the triangle inequality and mu = L = 1/r^2, "
    "inf_M sup_D K_i^eps = Omega(r^2 sigma^2 / (eps N_i^eps(b^2/(4 mu)))), where "
    "N_i^eps(b^2/(4mu)) = #{j : b_ij^2 <= 4 mu eps}.",
    [
        form("printed", Omega(r**2 * sigma2 / (eps * Neps)),
             "As printed; N_i^eps counts the agents with b_ij^2 <= 4 mu eps.",
             conditions=(cond(Lt(eps, sp.Rational(1, 16)), "eps in (0, 1/16)"),),
             normalized="the theorem fixes mu = L = 1/r^2 and states eps < 1/16 in those "
                        "units"),
        form("explicit", ((d / 3) * sp.log(2 / sp.sqrt(sp.E)) - sp.log(2))
             / (C1 * 36 * d * eps * N_eff),
             "Explicit constants on the self-consistent hard instance A of the digest (§5.3): "
             "Fano with target eps = delta^2/(36 d) <= psi/9 and KL <= 8.79 delta^2; "
             "N_eff = #{j : b_1j^2 < 36 eps}.",
             conditions=(cond(Ge(d, 11), "the Fano numerator is positive"),
                         cond(Le(eps * d, sp.Rational(1, 576)), "delta <= 1/4")),
             normalized="instance A has mu = L = 1 and samples in the unit ball, so eps is "
                        "measured in units of mu * 1^2"),
        form("corrected", Omega(sigma2 / (mu * eps * Neps)),
             "With r^2 = 1/mu written out; the proof's own count is #{j : b_1j^2 < 36 mu eps} "
             "(threshold 36, not 4), see the erratum on Theorem 1's normalisation."),
    ],
    relation=">=", source="Section 3, App. B", hypotheses=("even2022.D",),
    errata=(ERRATA["erratum4"],),
    example={"Neps": 2, "N_eff": 2, "d": 20, "eps": 5e-5, "mu": 1, "r": 1, "sigma2": 1},
    derivations=(
        inputs.neps_derivation("Neps", 4.0, "N_i^eps = #{j : b_ij^2 <= 4 mu eps}",
                               forms=("printed",), mu_is_inverse_r2=True),
        inputs.neps_derivation("Neps", 36.0, "N_i^eps = #{j : b_ij^2 < 36 mu eps}",
                               forms=("corrected",), strict=True),
        inputs.neps_derivation("N_eff", 36.0, "N_eff = #{j : b_1j^2 < 36 eps}",
                               forms=("explicit",), with_mu=False, strict=True),
    ),
    quantity_typst="K_i^epsilon",
    methods=HARD_INSTANCE,
)
