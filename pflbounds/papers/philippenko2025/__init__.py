"""philippenko2025: Philippenko, Le Bars, Scaman & Massoulie (2025), adaptive collaboration.

Importing the package registers the paper only. A full load (every command but ``eval`` and
``solve``) imports ``MODULES``; ``eval`` and ``solve`` import only the module that declares
their result (``RESULT_MODULES``).
"""

from pflbounds.papers.philippenko2025.paper import P

P.register(
    "Adaptive collaboration for online personalized distributed learning with heterogeneous "
    "clients",
    "C. Philippenko, B. Le Bars, K. Scaman, L. Massoulie. arXiv 2507.06844 v1 (2025).",
    digest="002_adaptive_collab_digest.md",
)

MODULES = ("complexity", "methods", "theory")
"""What a full load imports (``theory`` imports every module that declares a result)."""

RESULT_MODULES = {
    **dict.fromkeys(("definition1_ratio", "definition1", "definition3_binary",
                     "definition3_continuous", "definition2_ratio", "definition2_binary",
                     "definition2_continuous", "remark3_binary", "remark3_continuous",
                     "property1"), "definitions"),
    **dict.fromkeys(("lemma1", "s2", "theorem1", "lemma2"), "descent"),
    **dict.fromkeys(("theorem2_constant", "theorem2_floor", "theorem2_horizon_step",
                     "theorem2_horizon", "theorem2_decreasing_step", "theorem2_decreasing",
                     "corollary1", "corollary1_uniform", "corollary1_binary",
                     "section4_sufficient_variance", "section4_lower_bound", "theorem3_step",
                     "theorem3"), "rates"),
}
"""The module that declares each result, in the paper's order (the catalog lists them in
this order whatever was loaded first): ``eval`` and ``solve`` import only that module."""
