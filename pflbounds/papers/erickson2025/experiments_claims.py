"""The empirical claims of erickson2025's experiments (§5.1 Table 1 and Fig. 1, §5.2), as
results the experiment checks (checks/experiments.py) name: each states a comparison
between two measured quantities of the same runs, so its one form is the comparison
quantity itself (``err_ref``, ``r2_ref``, ``rho_ref``, ``acc_ref``: the value of the method
or matrix the claim compares with). They carry no constant of the theory: the checks run
them on the synthetic generator of §5.1 and on a digits stand-in for FEMNIST.
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.erickson2025 import results  # noqa: F401  (registered first: the
from pflbounds.papers.erickson2025.paper import P, form, result  # report lists theory first)
from pflbounds.symbolic.result import Kind

err_ref = P.constant("err_ref", "estimation error (1/n) sum_i ||theta_i - theta_i^true|| of "
                     "the method a claim compares with (measured)", "x", "nonnegative",
                     latex=r"e_{ref}", typst="e_\"ref\"")
r2_ref = P.constant("r2_ref", "mean test R^2 of the method a claim compares with (measured)",
                    "1", "real", latex=r"R^2_{ref}", typst="R^2_\"ref\"")
rho_ref = P.constant("rho_ref", "Spearman correlation of the local estimates' distances with "
                     "the true distances (measured)", "1", "real", latex=r"\rho_{ref}",
                     typst="rho_\"ref\"")
P.relation(sp.Le(r2_ref, 1), "a test R^2 = 1 - sum of squared residuals/total sum of squares "
           "is at most 1 (Table 1's R^2; it may be negative, never above 1)")
P.relation(sp.Ge(rho_ref, -1), "a Spearman rank correlation lies in [-1, 1] (Fig. 1)")
P.relation(sp.Le(rho_ref, 1), "a Spearman rank correlation lies in [-1, 1] (Fig. 1)")
acc_ref = P.constant("acc_ref", "mean test accuracy of the method a claim compares with "
                     "(measured)", "1", "unit_interval", latex=r"acc_{ref}",
                     typst="\"acc\"_\"ref\"")


def _claim(key: str, label: str, kind: Kind, quantity: str, unit: str, statement: str,
           ref: sp.Basic, note: str, source: str, quantity_typst: str):
    return result(key, label, kind, quantity, unit, statement, [form("printed", ref, note)],
                  source=source, quantity_typst=quantity_typst)


TABLE1_ERROR = _claim(
    "table1_error", "Table 1: estimation error ordering", Kind.UPPER_BOUND,
    "estimation error of the better method of an ordering", "x",
    "Karula < FedAvg ~ IFCA << Local in estimation error (5.86, 7.47, 7.69, 35.33).",
    err_ref, "err_ref: the error of the method it is compared with.", "Table 1, §5.1", "e")
TABLE1_R2 = _claim(
    "table1_r2", "Table 1: test R^2 ordering", Kind.LOWER_BOUND,
    "mean test R^2 of the better method of an ordering", "1",
    "Karula > FedAvg >~ IFCA > Local in test R^2 (0.938, 0.846, 0.821, 0.692).",
    r2_ref, "r2_ref: the R^2 of the method it is compared with.", "Table 1, §5.1", "R^2")
IFCA_COLLAPSE = _claim(
    "ifca_collapse", "§5.1: IFCA collapses to one cluster", Kind.UPPER_BOUND,
    "effective number of IFCA clusters in use (exp of the share entropy)", "1",
    "IFCA 'does not discover meaningful client clusters and effectively collapses to "
    "learning a single global model'.", sp.Rational(3, 2),
    "3/2: about one cluster in use.", "§5.1", "k_\"eff\"")
FIG1 = _claim(
    "fig1", "Fig. 1: D recovers the model distances", Kind.LOWER_BOUND,
    "Spearman correlation of D_ij with ||theta_i^true - theta_j^true||^2", "1",
    "D 'matches the ground truth closely', the distances of the local estimates do not.",
    rho_ref, "rho_ref: the local estimates' correlation.", "Fig. 1, §5.1", "rho_D")
SECTION5_2 = _claim(
    "section5_2", "§5.2: Karula's accuracy on FEMNIST", Kind.LOWER_BOUND,
    "Karula's mean test accuracy", "1",
    "Karula is more accurate than Local, FedAvg and IFCA (91.3% against 89.3, 84.4, 83.9).",
    acc_ref, "acc_ref: the accuracy of the method it is compared with.",
    "§5.2 (final test accuracies)", "\"acc\"")
