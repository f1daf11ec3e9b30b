"""scott2024's checks, one module per theory topic, each exposing ``CHECKS`` (registered by
the check registry when the paper loader imports it): the erratum checks (E_*) and the
predictions P1-P15 of the digest (§6.3) of Lemmas C.1-C.5 (``lemmas``), Theorem 3.1
(``convergence``), Theorem B.1 (``pac_bayes``), the Gaussian KL and Theorem 3.2
(``generalization``) and the communication counts (``communication_costs``). ``common.py``
holds the code several topics and experiments share. The paper's own experiments (Table 1 and
after) are in ``experiments/``.
"""

from pflbounds.checking.family import ErrorFamily

_OTHERS = tuple(f"scott2024.{c}" for c in (
    "P1", "P11", "P12", "P15_fullbatch", "P15_minibatch", "P2", "P3", "P3_kl_mc", "P4", "P5",
    "P6_C4", "P6_C5", "P8", "P8_planted", "P8_quick", "P9_part1", "P9_part2"))
"""scott2024's Monte Carlo checks other than the experiments' comparisons."""


def comparisons() -> tuple[str, ...]:
    """The experiments' comparison checks, each named after its claim but P13 (the digest's
    prediction for Fig. 3); the results are declared in ``experiments/``, which import this
    package: read after loading."""
    from pflbounds.papers.scott2024.experiments.ablations import (
        FLOATS,
        TABLE6,
        TABLE7,
        TABLE8,
        TABLE9,
    )
    from pflbounds.papers.scott2024.experiments.benchmarks import TABLE1
    from pflbounds.papers.scott2024.experiments.new_clients import FIG4, TABLE2

    return (FIG4.id, FLOATS.id, TABLE1.id, TABLE1.id + "_n900", TABLE2.id, TABLE6.id,
            TABLE7.id, TABLE8.id, TABLE9.id, "scott2024.P13")


def __getattr__(name: str) -> ErrorFamily:
    """``ERROR_FAMILY``, built on first reading (PEP 562): the comparisons' ids come from the
    experiments' results, which import this package."""
    if name != "ERROR_FAMILY":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    comps = comparisons()
    family = ErrorFamily(level=0.05, checks=(*_OTHERS, *comps),
                         weights=dict.fromkeys(comps, 2.0))
    globals()["ERROR_FAMILY"] = family
    return family


ERROR_FAMILY: ErrorFamily
"""The error family of scott2024's Monte Carlo verdicts: a family-wise level of 5% over its
Monte Carlo checks, the experiments' comparisons (a few draws each, every draw a training
run) at twice the weight of the others, whatever else a run holds. Every Monte Carlo check of
the paper compares limits with its claim: none is declared without comparisons."""
