"""Which code implements the method (or the instance) each even2022 result is about.

``pflbounds show even2022.theorem3`` lists these with their file and line.
"""

from __future__ import annotations

from pflbounds.papers.even2022.paper import P

_ALG = "pflbounds.algorithms.collaborative."
_AFO = (_ALG + "run_afo",)
_AFA = (_ALG + "run_afa", _ALG + "run_afa_lifted")
_SGD = (_ALG + "run_local_sgd",)
_EST = (_ALG + "run_afa_estimated", "pflbounds.problems.gaussian_means.GaussianMeans")
_HARD = ("pflbounds.problems.hard_instance.HardInstanceA",)

P.algorithms({
    **dict.fromkeys(("lemma3", "lemma4", "eq6", "theorem2", "theorem2_part2"), _AFO),
    **dict.fromkeys(("lemma5", "eq7", "theorem3", "corollary1"), _AFA),
    **dict.fromkeys(("lemma6", "lemma6_tuned", "lemma6_eps"), _SGD),
    **dict.fromkeys(("theorem4", "theorem4_tail", "theorem4_variance", "corollary2"), _EST),
    **dict.fromkeys(("lemma1", "lemma2", "eq4", "eq5", "theorem1"), _HARD),
})
