"""scott2024's checks, one module per theory topic, each exposing ``CHECKS`` (registered by
the check registry when the paper loader imports it): the erratum checks (E_*) and the
predictions P1-P15 of the digest (§6.3) of Lemmas C.1-C.5 (``lemmas``), Theorem 3.1
(``convergence``), Theorem B.1 (``pac_bayes``), the Gaussian KL and Theorem 3.2
(``generalization``) and the communication counts (``communication_costs``). ``common.py``
holds the code several topics and experiments share. The paper's own experiments (Table 1 and
after) are in ``experiments/``.
"""
