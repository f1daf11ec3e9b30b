"""hanzely2023's checks, one module per theory topic, each exposing ``CHECKS`` (registered by
the check registry when the paper loader imports it): predictions P1-P12 of the digest (§7),
the erratum checks (E_*), Lemma 5's (21) (P_lemma5) and the calculator's regime map.
``common.py`` holds the code several topics share. The synthetic experiments of Section 5
(S51, S52) are the paper's own: ``experiments/section5.py``.
"""
