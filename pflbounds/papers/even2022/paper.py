"""The even2022 builder (its constants and results are declared through ``P``) and the
dotted names of the code each result is about (``methods=`` of its declaration)."""

from __future__ import annotations

from pflbounds.symbolic.builder import PaperBuilder

P = PaperBuilder("even2022")
cond, form, result = P.cond, P.form, P.result

_ALG = "pflbounds.algorithms.collaborative."
AFO = (_ALG + "run_afo",)
"""All-for-one: N parallel weighted gradient averagings (Eq. (2))."""
AFA = (_ALG + "run_afa", _ALG + "run_afa_lifted")
"""All-for-all (Algorithm 1), and its lifted form y^{k+1} = y^k - eta Lambda^T G^k."""
SGD = (_ALG + "run_local_sgd",)
"""SGD on each agent alone (Lemma 6; the no-collaboration baseline)."""
ESTIMATED = (_ALG + "run_afa_estimated", "pflbounds.problems.gaussian_means.GaussianMeans")
"""AFA with weights from estimated distances (Section 6), on clustered Gaussian means."""
HARD_INSTANCE = ("pflbounds.problems.hard_instance.HardInstanceA",)
"""The hard instance of the lower bound (a bound over all methods names its instance)."""
GLOBAL_MODEL = (_ALG + "run_global_model",)
INTERPOLATED = (_ALG + "run_interpolated",)
GAUSSIAN_MEANS = ("pflbounds.problems.gaussian_means.GaussianMeans",)
ESTIMATED_WEIGHTS = ("pflbounds.problems.gaussian_means.estimated_weights",)
