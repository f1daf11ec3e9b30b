"""hanzely2023's results, one module per topic (the manifest in ``__init__.py`` lists them in
the paper's order): the objectives and their constants (Section 2, Lemmas 1-4, Table 2),
LSGD-PFL (Theorems 1, 2, 5, Lemmas 5-7), LSGD-PFL without convexity (Theorems 3-4, Lemmas
8-14), the lower bounds (Theorem 6, Eq. (54)), ACD-PFL (Theorem 7), ASVRCD-PFL (Theorems 8-9,
Lemmas 15-16), the standard facts of App. B.7 (Proposition 1) and Table 3.

Importing a topic module registers its results in the catalog; look them up with
``pflbounds.symbolic.get("hanzely2023.theorem7")`` or through the module's objects
(``theory.acd.THEOREM7``).
"""
