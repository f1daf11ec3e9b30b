"""philippenko2025's checks, one module per theory topic, each exposing ``CHECKS`` (registered
by the check registry when the paper loader imports it): predictions P1-P20 of the digest
(§6) and the erratum checks (E*). ``common.py`` holds the code several topics share. Figure 2
of Appendix A (F2) and the exact dynamics of its synthetic experiment (P19) are an experiment
of the paper: ``experiments/figure2.py``.
"""
