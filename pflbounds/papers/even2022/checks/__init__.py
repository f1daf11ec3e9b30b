"""even2022's checks, one module per theory topic, each exposing ``CHECKS`` (registered by
the check registry when the paper loader imports it): predictions P1-P15 of the digest (§7),
the erratum checks (E*), the concentration results of Appendix E and Corollary 2's agent
count (C2). ``common.py`` holds the code several topics share. Figure 1 (A1) is an experiment
of the paper: ``experiments/figure1.py``.
"""

from pflbounds.checking.family import ErrorFamily

ERROR_FAMILY = ErrorFamily(
    level=0.01,
    checks=("even2022.A1", "even2022.A1_personalisation", "even2022.E18", "even2022.E20",
            "even2022.P1_mc", "even2022.P7", "even2022.P12", "even2022.P12_bias",
            "even2022.P12_hkz", "even2022.P12_norm_tail", "even2022.P12_recovery",
            "even2022.P12_variance", "even2022.P13"),
    without_comparisons={
        "even2022.P10": "the lifted and the direct AFA recursions run on the same draws: the "
                        "residual is exactly 0 up to rounding, whatever the draws",
        "even2022.P7_identity": "AFA on clusters and mini-batch SGD run on the same draws: "
                                "their iterates agree up to rounding, whatever the draws",
    },
)
"""The error family of even2022's Monte Carlo verdicts: a family-wise level of 1%, an equal
share for each of its 13 Monte Carlo checks that compare limits with a claim (each splits its
share over its own comparisons), whatever else a run holds."""
