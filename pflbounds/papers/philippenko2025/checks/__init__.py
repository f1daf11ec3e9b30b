"""philippenko2025's checks, one module per theory topic, each exposing ``CHECKS`` (registered
by the check registry when the paper loader imports it): predictions P1-P20 of the digest
(§6) and the erratum checks (E*). ``common.py`` holds the code several topics share. Figure 2
of Appendix A (F2) and the exact dynamics of its synthetic experiment (P19) are an experiment
of the paper: ``experiments/figure2.py``.
"""

from pflbounds.checking.family import ErrorFamily

ERROR_FAMILY = ErrorFamily(
    level=0.01,
    checks=("philippenko2025.F2", "philippenko2025.F2_code", "philippenko2025.P11",
            "philippenko2025.P12_adaptive", "philippenko2025.P14", "philippenko2025.P14_peers",
            "philippenko2025.P15", "philippenko2025.P15_printed", "philippenko2025.P15_rate",
            "philippenko2025.P19", "philippenko2025.P19_adaptive", "philippenko2025.P19_local",
            "philippenko2025.P3", "philippenko2025.P4", "philippenko2025.P4_bound",
            "philippenko2025.F2_binary_d2", "philippenko2025.F2_binary_d10",
            "philippenko2025.F2_continuous_d2", "philippenko2025.F2_continuous_d10"),
)
"""The error family of philippenko2025's Monte Carlo verdicts: a family-wise level of 1%, an
equal share for each of its 19 Monte Carlo checks, all of which compare confidence limits
with a claim (a bound, a lower bound, a fitted slope, a mean within a tolerance, or a paired
difference of two methods over draws: Figure 2's ordering); each
splits its share over its own comparisons (grid points, recorded iterations, fits), whatever
else a run holds. Every other check of the paper is exact (the linear-Gaussian propagator,
closed forms or identities evaluated without sampling) and takes no share."""
