"""scott2024's results, one module per topic (the manifest in ``__init__.py`` lists them):
Lemmas C.1-C.5 (``lemmas``), Theorem 3.1 (``convergence``), Theorem B.1 (``pac_bayes``), the
Gaussian KL and Theorem 3.2 (``generalization``) and the floats exchanged per round
(``communication_costs``).

Importing a topic module registers its results in the catalog; look them up with
``pflbounds.symbolic.get("scott2024.theorem3_1")`` or through the module's objects
(``theory.convergence.THEOREM3_1``).
"""
