"""The erickson2025 builder (its constants and results are declared through ``P``) and the
dotted names of the code each result is about (``methods=`` of its declaration)."""

from __future__ import annotations

from pflbounds.symbolic.builder import PaperBuilder

P = PaperBuilder("erickson2025")
cond, form, result = P.cond, P.form, P.result

_ALG = "pflbounds.algorithms."
KARULA = (_ALG + "karula.run_karula",)
"""Karula, Algorithm 1: projected steps with the variance-reduced estimate of a gradient
table, s clients per round (Reading B by default, Reading A the literal recursion)."""
KARULA_ESTIMATE = (_ALG + "karula.karula_estimate",)
"""The estimate nu^k of Algorithm 1 from the fresh gradients and the table (Lemma A.1)."""
KARULA_STEP = (_ALG + "karula.karula_step",)
"""One round of Algorithm 1: the estimate, the (inexact) projected step, the table update
(Lemma A.2)."""
FEDAVG = (_ALG + "ifca.run_fedavg",)
"""FedAvg with local steps and partial participation (§5's baseline)."""
IFCA = (_ALG + "ifca.run_ifca",)
"""IFCA, the clustered baseline of §5."""
LOCAL = (_ALG + "collaborative.run_local_sgd",)
"""Local training: every client on its own loss (§5's Local)."""
SECTION5 = (*KARULA, *FEDAVG, *IFCA, *LOCAL)
"""The four strategies Table 1 and §5.2 compare."""
LOT_SURROGATE = ("pflbounds.problems.transport.lot_map",
                 "pflbounds.problems.transport.embedding_distance")
"""The LOT surrogate D_ij of §3.4: each client's transport map from a reference sample, and
the distance between two maps."""
