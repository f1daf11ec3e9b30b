"""scott2024's checks, one module per theory topic, each exposing ``CHECKS`` (registered by
the check registry when the paper loader imports it): the erratum checks (E_*) and the
predictions P1-P15 of the digest (§6.3) of Lemmas C.1-C.5 (``lemmas``), Theorem 3.1
(``convergence``), Theorem B.1 (``pac_bayes``), the Gaussian KL and Theorem 3.2
(``generalization``) and the communication counts (``communication_costs``). ``common.py``
holds the code several topics and experiments share. The paper's own experiments (Table 1 and
after) are in ``experiments/``.
"""

from pflbounds.checking.family import ErrorFamily

_COMPARISONS = ("scott2024.fig4", "scott2024.floats", "scott2024.table1",
                "scott2024.table1_n900", "scott2024.table2", "scott2024.table6",
                "scott2024.table7", "scott2024.table8", "scott2024.table9")

ERROR_FAMILY = ErrorFamily(
    level=0.05,
    checks=("scott2024.P1", "scott2024.P11", "scott2024.P12", "scott2024.P15_fullbatch",
            "scott2024.P15_minibatch", "scott2024.P2", "scott2024.P3", "scott2024.P3_kl_mc",
            "scott2024.P4", "scott2024.P5", "scott2024.P6_C4", "scott2024.P6_C5",
            "scott2024.P8", "scott2024.P8_planted", "scott2024.P8_quick",
            "scott2024.P9_part1", "scott2024.P9_part2", *_COMPARISONS),
    weights=dict.fromkeys(_COMPARISONS, 2.0),
)
"""The error family of scott2024's Monte Carlo verdicts: a family-wise level of 5% over its
26 Monte Carlo checks, the experiments' comparisons (a few draws each, every draw a training
run) at twice the weight of the others, whatever else a run holds. Every Monte Carlo check of
the paper compares limits with its claim: none is declared without comparisons."""
