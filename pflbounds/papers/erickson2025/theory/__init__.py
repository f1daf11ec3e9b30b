"""erickson2025's results, one module per topic (the manifest in ``__init__.py`` lists them),
in printed, explicit (the proof's own last line) and corrected forms.

Importing a topic module registers its results in the catalog; look them up with
``pflbounds.symbolic.get("erickson2025.theorem4_3")`` or through the module's objects
(``theory.general_step.THEOREM4_3``). The claims of the §5 experiments are results of
``experiments/``.
"""
