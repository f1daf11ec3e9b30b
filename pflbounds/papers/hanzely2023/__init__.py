"""hanzely2023: Hanzely, Zhao & Kolar (2023), the unified personalized FL framework.

Importing the package registers the paper only. A full load (every command but ``eval`` and
``solve``) imports ``MODULES``; ``eval`` and ``solve`` import only the module that declares
their result (``RESULT_MODULES``).
"""

from pflbounds.papers.hanzely2023.paper import P

P.register(
    "Personalized Federated Learning: A Unified Framework and Universal Optimization Techniques",
    "F. Hanzely, B. Zhao, M. Kolar. Transactions on Machine Learning Research, 2023 "
    "(arXiv:2102.09743).",
    digest="004_hanzely_digest.md",
)

MODULES = ("complexity", "methods", "theory")
"""What a full load imports (``theory`` imports every module that declares a result)."""

RESULT_MODULES = {
    **dict.fromkeys(("lemma1", "lemma2", "lemma3", "lemma4", "unrescaled", "table2_fl",
                     "table2_full", "table2_mt2", "table2_mx2", "table2_apfl2", "table2_ws2",
                     "table2_residual"), "objectives"),
    **dict.fromkeys(("theorem1", "theorem2", "theorem5", "theorem5_weak", "lemma5", "lemma6",
                     "lemma7", "table1_lsgd"), "lsgd"),
    **dict.fromkeys(("theorem3", "theorem4", "lemma8", "lemma9", "lemma10", "lemma11", "lemma12",
                     "lemma13", "lemma14"), "nonconvex"),
    **dict.fromkeys(("theorem6", "eq54"), "lower"),
    **dict.fromkeys(("theorem7", "theorem7_parameters", "acd_contraction", "table1_acd"), "acd"),
    **dict.fromkeys(("theorem8", "theorem8_parameters", "theorem9", "lemma15", "lemma16",
                     "lemma16_57", "table1_asvrcd"), "asvrcd"),
    **dict.fromkeys(("proposition1", "proposition1_35"), "facts"),
    **dict.fromkeys(("table3_fl", "table3_full", "table3_mt2", "table3_mx2", "table3_apfl2",
                     "table3_ws2", "table3_residual"), "table3"),
}
"""The module that declares each result, in the paper's order (the catalog lists them in
this order whatever was loaded first): ``eval`` and ``solve`` import only that module."""
