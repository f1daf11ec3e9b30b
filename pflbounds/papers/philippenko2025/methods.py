"""Which code implements the method each philippenko2025 result is about.

``pflbounds show philippenko2025.theorem2_constant`` lists these with their file and line.
"""

from __future__ import annotations

from pflbounds.papers.philippenko2025.paper import P

_ALG = "pflbounds.algorithms."
_RUN = _ALG + "adaptive_afo.run_afo_adaptive"
_TRUE = (_RUN, _ALG + "similarity_weights.true_gradient_rule")
_WEIGHTS = (_ALG + "similarity_weights.collaboration_weights",
            _ALG + "similarity_weights.similarity_ratios")

P.algorithms({
    **dict.fromkeys(("lemma1", "s2", "theorem1", "lemma2", "theorem2_constant",
                     "theorem2_floor", "theorem2_horizon", "theorem2_horizon_step",
                     "theorem2_decreasing", "theorem2_decreasing_step", "corollary1",
                     "corollary1_uniform", "corollary1_binary", "theorem3", "theorem3_step"),
                    _TRUE),
    **dict.fromkeys(("definition1", "definition1_ratio", "definition3_binary",
                     "definition3_continuous", "remark3_binary", "remark3_continuous"),
                    _WEIGHTS),
})
