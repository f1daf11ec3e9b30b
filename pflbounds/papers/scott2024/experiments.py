"""The empirical claims of scott2024's experiments (Sec. 4 and App. A.3-A.4), as results the
experiment checks (checks/experiments.py, checks/experiments_ablations.py) name: each states
a comparison between two measured quantities of the same runs, so its one form is the
comparison quantity itself (``er_ref``: the mean 0-1 risk of the method or variant the claim
compares with; ``rho_0``: the Spearman correlation at initialisation). They carry no constant
of the theory: the checks run them small on population C (synthetic), not on CIFAR/FEMNIST.
"""

from __future__ import annotations

from pflbounds.papers.scott2024.paper import form, result
from pflbounds.papers.scott2024.symbols import er_ref, rho_0
from pflbounds.symbolic.result import Kind

_RISK = "mean 0-1 risk over the clients (seen and unseen separately)"


def _claim(key: str, label: str, quantity: str, statement: str, source: str, note: str,
           kind: Kind = Kind.UPPER_BOUND, ref=er_ref, quantity_typst: str = "\"er\""):
    return result(key, label, kind, quantity, "1", statement, [form("printed", ref, note)],
                  source=source, quantity_typst=quantity_typst)


TABLE1 = _claim(
    "table1", "Table 1: PeFLL against FedAvg", f"PeFLL's {_RISK}",
    "PeFLL's accuracy on seen and on unseen clients is at least FedAvg's (the headline of "
    "Table 1; the table also lists Local, FedAvg + FT and pFedHN).", "Table 1, Sec. 4",
    "er_ref: FedAvg's risk on the same clients.")
TABLE2 = _claim(
    "table2", "Table 2: unlabelled descriptors", f"PeFLL's {_RISK}, labels withheld from the "
    "embedding network", "Without labels in the descriptor PeFLL still beats FedAvg on unseen "
    "clients.", "Table 2, Sec. 4", "er_ref: FedAvg's risk on the same clients.")
FIG4 = _claim(
    "fig4", "Fig. 4: client extrapolation", "PeFLL's mean 0-1 risk on new clients from "
    "Dir(alpha)", "Trained on Dir(0.1) clients, PeFLL stays more accurate than Local on new "
    "clients from Dir(alpha) at every alpha in {0.1, ..., 1.0}.", "Fig. 4, Sec. 4",
    "er_ref: Local's risk on the same new clients.")
TABLE6 = _claim(
    "table6", "Table 6: label masking", f"PeFLL's {_RISK} with label masking",
    "Label masking (classes absent from a client's training labels never predicted) does "
    "not lower PeFLL's accuracy.", "Table 6, App. A.3",
    "er_ref: the same PeFLL's risk without masking.")
TABLE7 = _claim(
    "table7", "Table 7: hypernetwork depth", "mean 0-1 risk of PeFLL with 3 (M) and 5 (L) "
    "hidden hypernetwork layers on seen clients", "The deeper hypernetworks M and L are at "
    "least as accurate as S (1 hidden layer).", "Table 7, App. A.4",
    "er_ref: the risk with 1 hidden layer (S).")
TABLE8 = _claim(
    "table8", "Table 8: regularization", "mean 0-1 risk on seen clients at the largest "
    "lambda_theta of the grid", "The largest client-model regularization lambda_theta "
    "underfits: its risk is above the best risk at a smaller lambda_theta (per "
    "lambda_h = lambda_v).", "Table 8, App. A.4",
    "er_ref: the smallest risk at a smaller lambda_theta.", kind=Kind.LOWER_BOUND)
TABLE9 = _claim(
    "table9", "Table 9: embedding network", f"{_RISK} of PeFLL with the richer (MLP) "
    "embedding network", "The richer embedding network is at least as accurate as the "
    "simpler one.", "Table 9, App. A.4", "er_ref: the risk with the simpler (linear) "
    "embedding network.")
FLOATS = _claim(
    "floats", "Figs. 8-14: accuracy during training", "PeFLL's mean 0-1 risk on seen "
    "clients after a given number of rounds", "PeFLL reaches a lower risk than FedAvg after "
    "the same number of rounds (the figures also plot it against the floats sent).",
    "Figs. 8-14, App. A.3", "er_ref: FedAvg's risk after the same rounds.")
FIG3 = _claim(
    "fig3", "Fig. 3: descriptor geometry", "mean Spearman correlation of descriptor "
    "distances with label-distribution distances after training", "Training makes the "
    "descriptor distances track the clients' label-distribution distances more closely: the "
    "Spearman correlation rises from its value at initialisation.", "Fig. 3, Sec. 4",
    "rho_0: the correlation at initialisation.", kind=Kind.LOWER_BOUND, ref=rho_0,
    quantity_typst="rho")
