"""hanzely2023's checks, one module per theory topic, each exposing ``CHECKS`` (registered by
the check registry when the paper loader imports it): predictions P1-P12 of the digest (§7),
the erratum checks (E_*), Lemma 5's (21) (P_lemma5) and the calculator's regime map.
``common.py`` holds the code several topics share. The synthetic experiments of Section 5
(S51, S51_ascd, S52, S52_ascd) are the paper's own: ``experiments/section5.py``.
"""

from pflbounds.checking.family import ErrorFamily

ERROR_FAMILY = ErrorFamily(
    level=0.01,
    checks=("hanzely2023.P6_grads", "hanzely2023.P6_n", "hanzely2023.P6_zeta",
            "hanzely2023.S51", "hanzely2023.S51_ascd", "hanzely2023.S52",
            "hanzely2023.S52_ascd"),
)
"""The error family of hanzely2023's Monte Carlo verdicts: a family-wise level of 1%, an equal
share for each of its 7 Monte Carlo checks (ASVRCD-PFL's counts against Theorem 9 and its
rate against heterogeneity, and the four comparisons of Section 5), each splitting its share
over its own comparisons, whatever else a run holds. Every other check is exact or symbolic."""
