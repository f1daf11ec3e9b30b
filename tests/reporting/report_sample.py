"""A fake but realistic report (Even et al. 2022) used by the reporting tests."""

from __future__ import annotations

import numpy as np
import sympy as sp

from pflbounds.reporting.model import (
    AssumptionRow,
    ClaimVerdict,
    ErratumBlock,
    FormBlock,
    PaperSection,
    PlotSpec,
    Provenance,
    Report,
    ResultBlock,
    Series,
    VerdictRow,
)
from pflbounds.symbolic.typst_printer import typst_math


class Otilde(sp.Function):
    """Õ(·) marker, as the symbolic layer defines it."""

    hidden_constant = True
    typst_name = "tilde(cal(O))"


K, N, mu, L, sigma2, eta = sp.symbols("K N mu L sigma2 eta", positive=True)
F0, Delta0, V, B, SumLam2, BiasSum = sp.symbols("F0 Delta0 V B SumLam2 BiasSum", positive=True)
NAMES = {
    "F0": "F^0",
    "SumLam2": "sum_(i,j) lambda_(i j)^2",
    "BiasSum": "sum_(i,j) lambda_(i j) b_(i j)^2",
    "V": "sum_j lambda_(i j)^2",
    "B": "sum_j lambda_(i j) b_(i j)^2",
}
kappa = L / mu

THM2_PRINTED = Delta0 * sp.exp(-K / (2 * kappa)) + Otilde(kappa * sigma2 / (mu * K) * V) + B / mu
THM2_EXPLICIT = (1 - eta * mu) ** K * Delta0 + eta * sigma2 * L / (2 * mu) * V + B / (2 * mu)
THM3_PRINTED = (
    F0 * sp.exp(-K / (2 * kappa))
    + Otilde(kappa * sigma2 / (K * mu * N) * SumLam2)
    + BiasSum / (2 * mu * N)
)
THM3_CORRECTED = (
    F0 * sp.exp(-eta * mu * K) + eta * L * sigma2 * SumLam2 / (mu * N) + BiasSum / (2 * mu * N)
)

# Numbers plotted for the VIOLATED check: AFA with eta = 1/(2L) on a star graph diverges.
K_GRID = np.arange(0, 31, dtype=float)
AFA_MEAN = 0.8 * 1.7**K_GRID
AFA_LO = AFA_MEAN * 0.97
AFA_HI = AFA_MEAN * 1.03
THM3_BOUND = 0.8 * np.exp(-K_GRID / 20) + 0.05
THM3_BOUND_CORR = 0.8 * np.exp(-K_GRID / (20 * 5.01)) + 0.05


def make_sample_report() -> Report:
    """Two results with sympy forms, three verdicts (an erratum check shown, with plots, and
    an INCONCLUSIVE verdict whose check expects HOLDS: a regression), one erratum."""
    thm2 = ResultBlock(
        id="even2022.theorem2",
        label="Theorem 2",
        kind="upper bound",
        quantity="E[f_i(x_i^K)] - f_i^* for agent i, last iterate",
        statement=(
            "All-for-one (weighted gradient averaging) with step size (6) reaches the "
            "weighted-neighbourhood variance plus a bias term."
        ),
        hypotheses=["Assumption 1 (noise)", "Assumption 2 (regularity)", "Assumption 3 (strong)"],
        conditions=[typst_math(sp.Le(eta, 1 / (2 * L))), typst_math(sp.Ge(K, 1))],
        forms=[
            FormBlock(
                "printed",
                typst_math(THM2_PRINTED, NAMES),
                hidden_constants=["Õ(·): up to constant and logarithmic factors"],
            ),
            FormBlock(
                "explicit",
                typst_math(THM2_EXPLICIT, NAMES),
                note="From the proof in Appendix C, before choosing the step size.",
            ),
        ],
    )
    thm3 = ResultBlock(
        id="even2022.theorem3",
        label="Theorem 3",
        kind="upper bound",
        quantity="E[F^K], the average excess error over agents at the last iterate",
        statement="All-for-all with W = ΛΛᵀ converges linearly up to a variance and a bias term.",
        hypotheses=["Assumption 1", "Assumption 2", "Assumption 3 (weak)"],
        conditions=[typst_math(sp.Le(eta, 1 / (2 * L)))],
        forms=[
            FormBlock(
                "printed",
                typst_math(THM3_PRINTED, NAMES),
                hidden_constants=["Õ(·): up to constant and logarithmic factors"],
            ),
            FormBlock(
                "corrected",
                typst_math(THM3_CORRECTED, NAMES),
                note="Valid when the spectral radius of W is at most 1.",
            ),
        ],
        errata_ids=["even2022.E13"],
    )
    curves = PlotSpec(
        kind="curves",
        title="AFA on a star graph (N = 20), eta = 1/(2L)",
        xlabel="K (oracle calls)",
        ylabel="E[F^K]",
        logy=True,
        series=[
            Series("measured E[F^K]", K_GRID, AFA_MEAN, AFA_LO, AFA_HI, style="measured"),
            Series("Theorem 3, printed", K_GRID, THM3_BOUND, style="bound_printed"),
            Series("Theorem 3, corrected", K_GRID, THM3_BOUND_CORR, style="bound_corrected"),
        ],
        annotations=["rho(W) = 5.01", "margin 3.1e-08 at K = 30"],
        hlines=[(0.05, "bias term")],
    )
    scaling = PlotSpec(
        kind="scaling",
        title="Cost to reach eps against cluster size",
        xlabel="C (agents per cluster)",
        ylabel="K_eps",
        logx=True,
        logy=True,
        series=[
            Series("measured", [2, 4, 8, 16, 32], [410, 205, 99, 52, 26], style="measured"),
            Series("fit, slope -0.99", [2, 32], [408, 26.3], style="fit"),
            Series("predicted, slope -1", [2, 32], [410, 25.6], style="reference"),
        ],
        annotations=["fitted slope -0.99 ± 0.02; predicted -1"],
    )
    verdicts = [
        VerdictRow(
            check_id="even2022.theorem2.bound_holds_quadratic",
            title="Explicit AFO bound on shared-Hessian quadratics",
            kind="bound_holds",
            result_id="even2022.theorem2",
            form="explicit",
            verdict="HOLDS",
            expected="HOLDS",
            as_expected=True,
            margin=1.011,
            replicas=None,
            detail=(
                "Exact expectations at 300 values of K: the bound exceeds E[error] by at "
                "least 1.1 %."
            ),
            config_hash="3f2a9c0d1e",
            seed=None,
        ),
        VerdictRow(
            check_id="even2022.theorem3.star_divergence",
            title="Printed AFA bound with eta = 1/(2L) on a star graph",
            kind="erratum",
            result_id="even2022.theorem3",
            form="printed",
            verdict="CONFIRMED",
            expected="CONFIRMED",
            as_expected=True,
            margin=3.1e-08,
            claims=[ClaimVerdict("printed", "VIOLATED", "VIOLATED", 3.2e7, "K = 30"),
                    ClaimVerdict("corrected", "HOLDS", "HOLDS", 0.81, "K = 30")],
            errata_ids=["even2022.E13"],
            replicas=400,
            detail=(
                "E[F^30] = 6.1e6 against a bound of 0.23: AFA diverges because rho(W) = 5.01 > 1."
            ),
            config_hash="b71e44a9c2",
            seed=20221,
            plots=[curves],
        ),
        VerdictRow(
            check_id="even2022.corollary2.scaling_C",
            title="Linear speedup in the cluster size",
            kind="scaling",
            result_id="even2022.corollary2",
            form="printed",
            verdict="INCONCLUSIVE",
            expected="HOLDS",
            as_expected=False,
            margin=None,
            replicas=64,
            detail="Fitted slope -0.99 ± 0.02 with 5 sweep points; tolerance ±0.1.",
            config_hash="0c55d2e817",
            seed=7,
            plots=[scaling],
        ),
    ]
    erratum = ErratumBlock(
        id="even2022.E13",
        where="Theorem 3 and Corollary 1",
        what=(
            "The proof claims that the spectral radius of W = ΛΛᵀ is 1 because Λ is "
            "stochastic; for a row-stochastic Λ it is ‖Λ‖² ≥ 1."
        ),
        fix="Use eta ≤ 1/(2 L rho(W)), or restrict to doubly stochastic Λ.",
        check_id="even2022.theorem3.star_divergence",
        verdict="CONFIRMED",
        expected="CONFIRMED",
        result_ids=["even2022.theorem3"],
        evidence="Star graph, N = 20: rho(W) = 5.01 and F^30 = 8.3e6 with eta = 1/(2L).",
        plots=[
            PlotSpec(
                kind="bars",
                title="Spectral radius of W by graph",
                ylabel="rho(W)",
                series=[Series("rho(W)", ["clusters", "ring", "star"], [1.0, 1.0, 5.01])],
                hlines=[(1.0, "rho = 1")],
            )
        ],
    )
    section = PaperSection(
        paper_id="even2022",
        title="On Sample Optimality in Personalized Collaborative and Federated Learning",
        citation="M. Even, L. Massoulié, K. Scaman. NeurIPS 2022.",
        assumptions=[
            AssumptionRow("A1", "Noise", "Stochastic gradients have variance at most σ²."),
            AssumptionRow("A2", "Regularity", "Each f_i is μ-strongly convex and L-smooth."),
            AssumptionRow(
                "A3",
                "Dissimilarity",
                "d_H(D_i, D_j) ≤ b_ij, with the weak or strong condition on ∇ℓ.",
            ),
        ],
        results=[thm2, thm3],
        verdicts=verdicts,
        errata=[erratum],
    )
    prov = Provenance(
        version="0.1.0",
        command="pflbounds validate even2022 --jobs 2 --out reports/",
        created="2025-01-02T03:04:05+00:00",
        python="3.11.9",
        platform="Linux-x86_64",
        rows=[(v.check_id, v.seed, v.config_hash) for v in verdicts],
        suite="even2022",
    )
    return Report(title="pflbounds validation report", sections=[section], provenance=prov)


#: Real even2022 checks, fast on their quick grids, that cover every kind of figure and table:
#: curves with bounds, a rate, a scaling, a Monte Carlo band, value tables (one x value, an
#: identity), four errata (CONFIRMED erratum checks and identities) and an expected VIOLATED.
SMALL_CHECKS = (
    "even2022.P1", "even2022.P1_mc", "even2022.P3", "even2022.P3n", "even2022.P6_theory",
    "even2022.P9_lemma5", "even2022.P10", "even2022.P11", "even2022.P14",
    "even2022.P15_global", "even2022.E16", "even2022.E17",
)
