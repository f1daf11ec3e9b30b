"""erickson2025's own experiments (§5), one module each, with the claims the paper makes about
them (results) and the checks that run them (``CHECKS``): Table 1 and Fig. 1 of the synthetic
experiment of §5.1, which read the same draws (:func:`pflbounds.papers.erickson2025.checks.
common.synthetic_draws`), and the digits stand-in for the federated-MNIST experiment of §5.2.
"""
