"""erickson2025's checks, one module per theory topic, each exposing ``CHECKS`` (the check
registry registers them when the paper loader imports the module): the predictions P1-P13 of
digest §7 and the erratum checks (E_dimension, E_reading_A, E_inexact_definition, P2,
P4_rescaled, P9_lp, P11_printed). ``common.py`` holds the code several topics and experiments
share (Karula runs on the quadratic clients of a grid point, the figures' access to evidence,
the projection and the LOT surrogate of §5, the shared §5.1 draws and the comparisons of the
claims' checks). The checks of the §5 experiments (P14, F1, S52) are in ``experiments/``.
"""
