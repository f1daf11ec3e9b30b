"""Generic complexity formulas of the paper's methods in terms of (mu, L^w, L^beta, Lcal^w,
Lcal^beta): the expressions that Table 3 and the calculator substitute objectives into.

Every count multiplies log(Delta0/eps) (the paper's log(1/eps), Delta0 = F(x^0) - F^* being
the error the O-constant hides; see :mod:`pflbounds.papers.hanzely2023.symbols`).
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.hanzely2023.symbols import (
    Delta0,
    Lb,
    Lcb,
    Lcw,
    Lw,
    eps,
    mu,
    n,
    pw,
    rho,
)

LOG = sp.log(Delta0 / eps)
SQ = sp.sqrt(Lw) + sp.sqrt(Lb)

# ---------------------------------------------------------------- ACD-PFL (Theorem 7)
ACD_NU = mu / SQ**2
ACD_THETA = (sp.sqrt(ACD_NU**2 + 4 * ACD_NU) - ACD_NU) / 2
ACD_ETA = 1 / ACD_THETA
ACD_PW = sp.sqrt(Lw) / SQ
ACD_ITERATIONS = SQ / sp.sqrt(mu) * LOG
"""(sqrt(L^w) + sqrt(L^beta))/sqrt(mu) log: the 1/theta of the parameters (theta ~ sqrt(nu))."""
ACD_COMMUNICATION = sp.sqrt(Lw / mu) * LOG
"""p_w x iterations: one round (and one grad_w F per client) per w-update."""
ACD_GRAD_BETA = sp.sqrt(Lb / mu) * LOG

# ---------------------------------------------------------------- ASVRCD-PFL (Theorems 8-9)
ASVRCD_PW = Lcw / (Lcw + Lcb)
LCAL = 2 * sp.Max(Lcw / pw, Lcb / (1 - pw))
"""Lemma 15: the expected-smoothness constant of the block estimator."""
ASVRCD_ETA = 1 / (4 * LCAL)
ASVRCD_THETA2 = sp.Rational(1, 2)
ASVRCD_THETA1 = sp.Min(sp.Rational(1, 2),
                       sp.sqrt(ASVRCD_ETA * mu * sp.Max(sp.Rational(1, 2), ASVRCD_THETA2 / rho)))
ASVRCD_GAMMA = 1 / sp.Max(2 * mu, 4 * ASVRCD_THETA1 / ASVRCD_ETA)
ASVRCD_NU = 1 - ASVRCD_GAMMA * mu
ASVRCD_ITERATIONS_PW = (1 / rho + sp.sqrt(sp.Max(Lcw / pw, Lcb / (1 - pw)) / (rho * mu))) * LOG
"""Theorem 9 (corrected: Lcal^beta/p_beta) for any p_w."""
ASVRCD_ITERATIONS = (1 / rho + sp.sqrt((Lcw + Lcb) / (rho * mu))) * LOG
"""Theorem 8 (p_w = Lcal^w/(Lcal^w + Lcal^beta))."""
ASVRCD_W_OPTIMAL = (n + sp.sqrt(n * Lcw / mu)) * LOG
"""rho = p_w/n: communications and grad_w F_i calls (Theorem 8)."""
ASVRCD_BETA_OPTIMAL = (n + sp.sqrt(n * Lcb / mu)) * LOG
"""rho = p_beta/n: grad_beta F_i calls (Theorem 8)."""

# ---------------------------------------------------------------- lower bounds (Theorem 6)
LB_COMMUNICATION = sp.sqrt(Lw / mu) * LOG
LB_GRAD_W = n + sp.sqrt(n * Lcw / mu) * LOG
LB_GRAD_BETA = n + sp.sqrt(n * Lcb / mu) * LOG
LB_GRAD_W_APPENDIX = (n + sp.sqrt(n * Lcw / mu)) * LOG
LB_GRAD_BETA_APPENDIX = (n + sp.sqrt(n * Lcb / mu)) * LOG

# ---------------------------------------------------------------- Table 3 columns (no log)
TABLE3_COLUMNS = ("comm", "grad_w", "grad_beta", "grad_w_i", "grad_beta_i")
TABLE3_HEADERS = {"comm": "# Comm", "grad_w": "# grad_w F", "grad_beta": "# grad_beta F",
                  "grad_w_i": "# grad_w F_i", "grad_beta_i": "# grad_beta F_i"}


def table3_generic(has_w: bool = True, has_beta: bool = True) -> dict[str, sp.Expr]:
    """Table 3's columns from the generic formulas (constants and logs dropped): ACD-PFL for
    the first three, ASVRCD-PFL for the last two. A block the objective lacks costs 0."""
    zero = sp.Integer(0)
    return {
        "comm": sp.sqrt(Lw / mu) if has_w else zero,
        "grad_w": sp.sqrt(Lw / mu) if has_w else zero,
        "grad_beta": sp.sqrt(Lb / mu) if has_beta else zero,
        "grad_w_i": n + sp.sqrt(n * Lcw / mu) if has_w else zero,
        "grad_beta_i": n + sp.sqrt(n * Lcb / mu) if has_beta else zero,
    }
