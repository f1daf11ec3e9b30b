"""The floats PeFLL-train and FedAvg exchange per round (scott2024, App. A.3)."""

from __future__ import annotations

from pflbounds.papers.scott2024.paper import FEDAVG, PEFLL_TRAIN, form, result
from pflbounds.papers.scott2024.symbols import (
    c,
    deta_v,
    dtheta,
    l_desc,
)
from pflbounds.symbolic.result import Kind

COMMUNICATION = result(
    "communication", "PeFLL-train communication per round (App. A.3)", Kind.COMPLEXITY,
    "floats exchanged per round by PeFLL-train", "1",
    "Each sampled client exchanges theta and Delta theta, eta_v and Delta eta_v, v and "
    "Delta v: 2c (|theta| + |eta_v| + |v|) floats per round (FedAvg: 2c |theta|).",
    [form("printed", 2 * c * (dtheta + deta_v + l_desc))],
    relation="=", source="App. A.3", quantity_typst="\"floats per round\"",
    methods=PEFLL_TRAIN,
)

COMMUNICATION_FEDAVG = result(
    "communication_fedavg", "FedAvg communication per round (App. A.3)", Kind.COMPLEXITY,
    "floats exchanged per round by FedAvg", "1", "2c |theta| floats per round.",
    [form("printed", 2 * c * dtheta)],
    relation="=", source="App. A.3", quantity_typst="\"floats per round\"",
    methods=FEDAVG,
)

