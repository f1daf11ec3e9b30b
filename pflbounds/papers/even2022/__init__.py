"""even2022: Even, Massoulie & Scaman (2022), sample optimality in personalized FL.

Importing the package registers the paper only. A full load (every command but ``eval`` and
``solve``) imports ``MODULES``, which register every result, the complexity table and the
methods; ``eval`` and ``solve`` import only the module that declares their result
(``RESULT_MODULES``), so a cold start builds one module's formulas, not the paper's 30.
"""

from pflbounds.papers.even2022.paper import P

P.register(
    "On Sample Optimality in Personalized Collaborative and Federated Learning",
    "M. Even, L. Massoulie, K. Scaman. NeurIPS 2022 (HAL hal-03902927).",
    digest="000_even2022_digest.md",
)

MODULES = ("complexity", "methods", "theory")
"""What a full load imports (``theory`` imports every module that declares a result)."""

RESULT_MODULES = {
    **dict.fromkeys(("lemma5", "eq7", "theorem3", "corollary1", "lemma6", "lemma6_tuned",
                     "lemma6_eps"), "afa"),
    **dict.fromkeys(("lemma3", "lemma4", "eq6", "theorem2", "theorem2_part2"), "afo"),
    **dict.fromkeys(("baseline_local", "baseline_global", "baseline_personalised"),
                    "baselines"),
    **dict.fromkeys(("theorem4", "theorem4_tail", "theorem4_variance", "corollary2"),
                    "estimated"),
    **dict.fromkeys(("hkz_tail", "hkz_norm_tail", "theorem4_recovery", "theorem4_bias"),
                    "concentration"),
    **dict.fromkeys(("lemma1", "lemma2", "eq4", "eq5", "theorem1"), "lower_bound"),
    **dict.fromkeys(("corollary1_remark", "corollary2_agents"), "speedup"),
}
"""The module that declares each result, in the order a full load registers them (the
catalog lists them in this order whatever was loaded first)."""
