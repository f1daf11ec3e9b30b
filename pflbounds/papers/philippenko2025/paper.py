"""The philippenko2025 builder (its constants and results are declared through ``P``) and the
dotted names of the code each result is about (``methods=`` of its declaration)."""

from __future__ import annotations

from pflbounds.symbolic.builder import PaperBuilder

P = PaperBuilder("philippenko2025")
cond, form, result = P.cond, P.form, P.result

_ALG = "pflbounds.algorithms."
ADAPTIVE_AFO = (_ALG + "adaptive_afo.run_afo_adaptive",
                _ALG + "similarity_weights.true_gradient_rule")
"""All-for-one with Definition-1 weights from the true gradients (the setting of the theory)."""
WEIGHTS = (_ALG + "similarity_weights.collaboration_weights",
           _ALG + "similarity_weights.similarity_ratios")
"""Definition 1's weights and the similarity ratios they are built on."""
HARD_INSTANCE = ("pflbounds.problems.hard_instance.HardInstanceA",)
"""The hard instance of Even et al.'s lower bound, which Section 4 quotes."""
EVEN2022_LOWER_BOUND = "even2022.theorem1"
"""The lower bound of Even et al. (their Theorem 1) that Section 4 compares Corollary 1 with:
the calculator and check P10_ratio evaluate it from the catalog."""
