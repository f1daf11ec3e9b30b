"""The scott2024 builder (its constants and results are declared through ``P``) and the
dotted names of the code each result is about (``methods=`` of its declaration)."""

from __future__ import annotations

from pflbounds.symbolic.builder import PaperBuilder

P = PaperBuilder("scott2024")
cond, form, result = P.cond, P.form, P.result

_PEFLL = "pflbounds.algorithms.pefll."
PEFLL_ROUND = (_PEFLL + "server_round",)
"""One round of PeFLL-train in the form the proof of Theorem 3.1 analyses ((71), (83): the
regularizer stepped by beta k), the round Lemmas C.3-C.5 bound."""
PEFLL_TRAIN = (_PEFLL + "train",)
"""PeFLL-train (Algorithm 2): T rounds of :data:`PEFLL_ROUND`."""
PEFLL = (_PEFLL + "train", _PEFLL + "predict_thetas")
"""PeFLL: PeFLL-train (Algorithm 2) and PeFLL-predict (Algorithm 1), one forward pass of the
embedding network and the hypernetwork per client."""
ARCHITECTURES = (_PEFLL + "Architecture",)
"""The networks of a round: PeFLL's, pFedHN's (learned client embeddings) and FedAvg's (one
global model), trained by the same round."""
FEDAVG = (_PEFLL + "train", _PEFLL + "Architecture")
"""FedAvg: PeFLL-train's round with the ``"fedavg"`` architecture (one global model)."""
FINE_TUNE = (_PEFLL + "fine_tune",)
"""Local gradient steps on a client's own data: FedAvg + FT, and Local from zero."""
PFEDHN_NEW_CLIENTS = (_PEFLL + "pfedhn_new_embeddings",)
"""pFedHN's embeddings for new clients (the hypernetwork frozen)."""
DESCRIPTOR = ("pflbounds.algorithms.hypernetworks.descriptor",)
"""PeFLL's client descriptor v(S; eta_v), the mean embedding of the client's points."""
