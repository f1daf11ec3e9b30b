"""Audits: how much to trust a verdict.

* :mod:`pflbounds.audit.mutants`: checker power, by running the checks on mutated formulas;
* :mod:`pflbounds.audit.false_alarms`: the false-VIOLATED rate of Monte Carlo checks of true
  bounds over many seeds, per check and suite-wide;
* :mod:`pflbounds.audit.tightness`: encoded bounds against the exact worst case of their
  method computed by PEPit (performance estimation).
"""
