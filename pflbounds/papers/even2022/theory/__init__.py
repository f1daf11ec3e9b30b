"""even2022's results, one module per topic (the manifest in ``__init__.py`` lists them).

Importing a topic module registers its results in the catalog; look them up with
``pflbounds.symbolic.get("even2022.theorem3")`` or through the module's objects
(``theory.afa.THEOREM3``).
"""
