"""philippenko2025's results, one module per topic (the manifest in ``__init__.py`` lists them
in the paper's order): the collaboration weights (Definitions 1 and 3), the sufficient cluster
(Definition 2), the step ratio (Remark 3), the heterogeneity of quadratics (Property 1), the
descent (Lemma 1, (S2), Theorem 1), the effective cluster (Lemma 2), the rates of Theorem 2,
the sample complexity (Corollary 1 and Section 4) and the non-convex rate (Theorem 3).

Importing a topic module registers its results in the catalog; look them up with
``pflbounds.symbolic.get("philippenko2025.theorem2_constant")`` or through the module's objects
(``theory.rates.THEOREM2_CONSTANT``).
"""
