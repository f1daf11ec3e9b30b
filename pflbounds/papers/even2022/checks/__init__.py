"""even2022's checks, one module per theory topic, each exposing ``CHECKS`` (registered by
the check registry when the paper loader imports it): predictions P1-P15 of the digest (§7),
the erratum checks (E*), the concentration results of Appendix E and Corollary 2's agent
count (C2). ``common.py`` holds the code several topics share. Figure 1 (A1) is an experiment
of the paper: ``experiments/figure1.py``.
"""
