"""The hanzely2023 builder (its constants and results are declared through ``P``) and the
dotted names of the code each result is about (``methods=`` of its declaration)."""

from __future__ import annotations

from pflbounds.symbolic.builder import PaperBuilder

P = PaperBuilder("hanzely2023")
cond, form, result = P.cond, P.form, P.result

_A = "pflbounds.algorithms.block_pfl."
_X = "pflbounds.exact.propagator_block_pfl."
LSGD = (_A + "run_lsgd_pfl", _X + "lsgd_pfl_schedule")
"""LSGD-PFL (Algorithm 1) on the driver, and its exact schedule for the propagator."""
ACD = (_A + "run_acd_pfl", _X + "acd_pfl_draws")
"""ACD-PFL (Algorithm 2, best reading) on the driver, and its exact draws."""
ASVRCD = (_A + "run_asvrcd_pfl",)
"""ASVRCD-PFL (Algorithm 4, the practical form of Algorithm 3)."""
ASCD = (_A + "run_ascd_pfl",)
"""ASCD-PFL (Algorithm 5: ASVRCD-PFL without control variates)."""
SVRCD = (_A + "svrcd_estimator", _A + "run_svrcd_pfl")
"""SVRCD-PFL (Algorithm 7) and its block estimator (Eq. (55))."""
OBJECTIVE = ("pflbounds.problems.pfl_objectives.PFLObjective",
             "pflbounds.papers.hanzely2023.instances.build")
"""The objectives of Section 2 as instances (their certified constants)."""
NESTEROV = ("pflbounds.papers.hanzely2023.instances.nesterov_losses",)
"""The hard instance of the lower bounds: Nesterov's tridiagonal quadratic (App. B.8)."""
SECTION5 = (_A + "run_lsgd_pfl", _A + "run_ascd_pfl", _A + "run_asvrcd_pfl",
            "pflbounds.papers.hanzely2023.experiments.section5.run")
"""The methods of Section 5's synthetic experiments, and the run that compares them."""
