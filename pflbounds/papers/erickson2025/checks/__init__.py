"""erickson2025's checks, one module per theory topic, each exposing ``CHECKS`` (the check
registry registers them when the paper loader imports the module): the predictions P1-P13 of
digest §7 and the erratum checks (E_dimension, E_reading_A, E_inexact_definition, P2,
P4_rescaled, P9_lp, P11_printed). ``common.py`` holds the code several topics and experiments
share (Karula runs on the quadratic clients of a grid point, the figures' access to evidence,
the projection and the LOT surrogate of §5, the shared §5.1 draws and the comparisons of the
claims' checks). The checks of the §5 experiments (P14, F1, S52) are in ``experiments/``.
"""

from pflbounds.checking.family import ErrorFamily

_COMPARISONS = (
    "erickson2025.F1_spearman", "erickson2025.P14_error_fedavg", "erickson2025.P14_error_ifca",
    "erickson2025.P14_error_limit", "erickson2025.P14_error_limit_ifca",
    "erickson2025.P14_error_local", "erickson2025.P14_error_local_gd", "erickson2025.P14_r2",
    "erickson2025.P14_r2_ifca", "erickson2025.P14_r2_limit", "erickson2025.P14_r2_limit_ifca",
    "erickson2025.P14_r2_local", "erickson2025.P14_r2_local_gd",
    "erickson2025.S52_karula_fedavg", "erickson2025.S52_karula_ifca",
    "erickson2025.S52_karula_local",
)
"""The comparison checks of the §5 experiments (paired differences over declared draws)."""

ERROR_FAMILY = ErrorFamily(
    level=0.05,
    checks=("erickson2025.P1", "erickson2025.P1_count", "erickson2025.P1_printed",
            "erickson2025.P3", "erickson2025.P3_plain", "erickson2025.P4", "erickson2025.P4_linear",
            "erickson2025.P4_linear_original",
            "erickson2025.P4_rescaled", "erickson2025.P5", "erickson2025.P5_dykstra",
            "erickson2025.P5_linear", "erickson2025.P5_linear_original", *_COMPARISONS),
    without_comparisons={
        "erickson2025.P13": "the residual is the largest distance over the replicas between "
                            "each reading's last iterate and the cvxpy optimum, compared with "
                            "the tolerance as it is: no confidence limit enters",
    },
)
"""The error family of erickson2025's Monte Carlo verdicts: a family-wise level of 5%, an equal
share for each of its Monte Carlo checks that compare limits with a claim (the bounds and
slopes of Theorem 4.3 and its corollary, and the comparisons of the §5 experiments; each
splits its share over its own comparisons), whatever else a run holds. The level is 5% rather
than 1% so that the experiments' comparisons, whose draws cost minutes each, reach their
target power within their budgets."""
