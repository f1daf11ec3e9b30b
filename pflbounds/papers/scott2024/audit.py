"""What the audits need to know about scott2024 (read by :mod:`pflbounds.audit`).

``AUDIT_CHECKS``: the mutation audit runs the theory checks of the quick suite (population D,
the proof algebra, the dimension check, Gamma(lambda*), the Gaussian KL, Lemma C.2, P10, P14
and P8 on population B at delta = 0.3). The training checks (P1, P2, P4, P5, P6_C4, P6_C5,
P13, table1 and the other experiments) are left out: each needs a JAX compilation of 20-60 s
on the shared machine, once per mutant, and they are not in the quick suite either. So are
the full-size runs of population B (P8, P9_part1, P9_part2, P11: 300 draws each, P8_quick is
their quick version) and the planted claim P8_planted, whose verdict compares er with emp
alone (the forms it evaluates are drawn beside it): no mutant can move it, at a minute a run.

``MUTANT_NOTES``: why mutants of a form survive the audited checks, keyed by
``result:form`` (or ``result``).
"""

AUDIT_CHECKS = [
    "scott2024.E_C5_lemmaC5", "scott2024.E_C4_theorem3_1_main",
    "scott2024.E_C4_theorem3_1_appendix", "scott2024.E_C4_theorem3_1_proof",
    "scott2024.E_C5_theorem3_1", "scott2024.E_C1_lemmaC4", "scott2024.P6_lemmaC4_proof_step",
    "scott2024.E_algebra", "scott2024.E_dimension", "scott2024.E_P2_gamma",
    "scott2024.E_P3_kl", "scott2024.P3_kl_mc", "scott2024.P7_lemmaC2", "scott2024.P10",
    "scott2024.P14", "scott2024.P8_quick",
]

MUTANT_NOTES: dict[str, str] = {}
