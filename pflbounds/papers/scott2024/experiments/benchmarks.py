"""The paper's Table 1, small and synthetic (population C, label shift): seen- and
unseen-client accuracy of Local, FedAvg, FedAvg + fine-tuning, a pFedHN-style hypernetwork
and PeFLL; its claim (PeFLL at least as accurate as FedAvg) and the runs that check it.

Setting (scaled to 2 cores): C = 5 Gaussian classes in p = 10 dimensions,
pi_i ~ Dir(alpha), n seen clients plus n/9 unseen ones (90% / 10%), m = 4500/n training points
per client (less data per client as n grows, as in CIFAR with 100-1000 clients), 5% of the
seen clients per round, k = 10 local steps, descriptors from a batch of up to 32 points,
softmax client models, a tanh MLP embedding on (x, one-hot y) and a 3-hidden-layer tanh
hypernetwork with l = 1 + n_total/4 (App. A.2). Risks are exact in the label mixture and
estimated on 2000 held-out points per class shared by all clients (standard error recorded).
Every seed draws its own population, initialisation and sampling; seeds run under one vmap.
Step sizes: local beta = 0.1 and a server step of 0.3 on the aggregated Delta eta (chosen on
three independent tuning populations, SeedSequence(99), from beta in {0.03, 0.1, 0.3} and
server steps in {0.3, 1}: with 1, PeFLL was unstable, 46% and 68% accuracy on two of
the three populations against about 90% with 0.3).

The comparison checks ``scott2024.table1`` (n = 90, 450) and ``scott2024.table1_n900``:
PeFLL is more accurate than FedAvg on seen and on unseen clients (the headline of Table 1),
decided on paired differences over the draws their plans declare; their report tables list
every method. The claim compares measured quantities (``er_ref``, FedAvg's risk on the same
clients): it carries no constant of the theory.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Verdict, requiring
from pflbounds.extras import lazy_module
from pflbounds.papers.scott2024.checks.common import (
    SIDE,
    accuracy,
    accuracy_dots,
    comparison_check,
    distinct_runs,
    local_thetas,
    mean_risk,
    method_keys,
    predict_all,
)
from pflbounds.papers.scott2024.experiments.common import pilot_plan
from pflbounds.papers.scott2024.instances import POINT_C, pefll_architecture, setting
from pflbounds.papers.scott2024.paper import (
    ARCHITECTURES,
    FINE_TUNE,
    PEFLL,
    PFEDHN_NEW_CLIENTS,
    form,
    result,
)
from pflbounds.papers.scott2024.symbols import er_ref
from pflbounds.symbolic.result import Kind

jax = lazy_module("jax", "scott2024's networks")
jnp = lazy_module("jax.numpy", "scott2024's networks")
pefll = lazy_module("pflbounds.algorithms.pefll", "scott2024's networks")

_RISK = "mean 0-1 risk over the clients (seen and unseen separately)"

TABLE1 = result(
    "table1", "Table 1: PeFLL against FedAvg", Kind.UPPER_BOUND,
    f"PeFLL's {_RISK}", "1",
    "PeFLL's accuracy on seen and on unseen clients is at least FedAvg's (the headline of "
    "Table 1; the table also lists Local, FedAvg + FT and pFedHN).",
    [form("printed", er_ref, "er_ref: FedAvg's risk on the same clients.")],
    source="Table 1, Sec. 4", quantity_typst="\"er\"",
    methods=(*PEFLL, *ARCHITECTURES, *FINE_TUNE, *PFEDHN_NEW_CLIENTS),
)

METHODS = ("Local", "FedAvg", "FedAvg+FT", "pFedHN", "PeFLL")


def run_table1(p: Mapping[str, Any], seed: np.random.SeedSequence) -> dict[str, np.ndarray]:
    """Risks (seeds, methods, seen/unseen) averaged over clients, and their standard errors."""
    S = int(p["seeds"])
    st = setting(p, seed.spawn(S))
    model, d_seen, d_new, n, l, cfg = st.model, st.seen, st.new, st.n, st.l, st.cfg
    c = cfg.c
    keys = method_keys(seed, S)
    arch_pefll = pefll_architecture(st, p)
    archs = {"FedAvg": pefll.Architecture("fedavg", model),
             "pFedHN": pefll.Architecture("pfedhn", model, arch_pefll.hyper, l=l),
             "PeFLL": arch_pefll}
    th: dict[str, tuple[jax.Array, jax.Array]] = {}
    for name, arch in archs.items():
        run = pefll.train(arch, d_seen, cfg, keys[:, METHODS.index(name)])
        eta = run["eta"]
        if name == "PeFLL":
            th[name] = (predict_all(arch, eta, d_seen), predict_all(arch, eta, d_new))
        elif name == "pFedHN":
            seen_t = predict_all(arch, eta, d_seen)
            new_t = jnp.stack([pefll.pfedhn_new_embeddings(
                arch, jax.tree_util.tree_map(lambda a, j=j: a[j], eta),
                jax.tree_util.tree_map(lambda a, j=j: a[j], d_new), 20, cfg,
                keys[j, 4]) for j in range(S)])
            th[name] = (seen_t, new_t)
        else:
            g = eta["h"]
            th[name] = (jnp.broadcast_to(g[:, None], (S, n, model.d)),
                        jnp.broadcast_to(g[:, None], (S, d_new.x.shape[1], model.d)))
    ft = jax.vmap(lambda t, d: pefll.fine_tune(model, t, int(p["ft_steps"]), float(p["ft_lr"]),
                                               float(p["lam_theta"]), d))
    th["FedAvg+FT"] = (ft(th["FedAvg"][0], d_seen), ft(th["FedAvg"][1], d_new))
    th["Local"] = (local_thetas(st, p, d_seen), local_thetas(st, p, d_new))
    risk = np.zeros((S, len(METHODS), 2))
    se = np.zeros((S, len(METHODS), 2))
    for j, name in enumerate(METHODS):
        for w, (thetas, pis) in enumerate(((th[name][0], st.pi_seen),
                                           (th[name][1], st.pi_new))):
            risk[:, j, w], se[:, j, w] = mean_risk(model, thetas, st.tests, pis)
    floats = np.array([0.0, archs["FedAvg"].floats_per_round(c), archs["FedAvg"]
                       .floats_per_round(c), archs["pFedHN"].floats_per_round(c),
                       archs["PeFLL"].floats_per_round(c)])
    return {"risk": risk, "se": se, "floats_per_round": floats}


def simulate_table1(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """PeFLL's mean risk (seen, unseen) against FedAvg's, over the grid point's seeds."""
    out = run_table1(p, seed)
    mean = out["risk"].mean(axis=0)
    return {"mean": mean[METHODS.index("PeFLL")], "bound": mean[METHODS.index("FedAvg")],
            "ks": np.array([0.0, 1.0]), **out}


def plot_table1(outcome) -> list[dict]:
    """Table 1 regenerated (synthetic): accuracy (%) mean +- std over seeds, per method, as a
    table and as dots."""
    figs = []
    for ev in distinct_runs(outcome.evidence):
        prm = dict(ev["params"], seeds=np.shape(ev["risk"])[0])
        acc = 100 * (1 - np.asarray(ev["risk"], dtype=float))
        rows = []
        for j, name in enumerate(METHODS):
            cells = [f"{acc[:, j, w].mean():.1f} ± {acc[:, j, w].std():.1f}" for w in (0, 1)]
            rows.append([name, *cells, f"{float(np.asarray(ev['floats_per_round'])[j]):.0f}"])
        figs.append({"kind": "table", "title": f"Table 1 (synthetic, population C): n = "
                     f"{prm['n']} seen clients, T = {prm['T']}, {prm['seeds']} seeds.",
                     "columns": ["method", "seen clients", "unseen clients",
                                 "floats per round"],
                     "rows": rows, "caption": "Accuracy (%) of each client's model under its "
                     "own label mixture, mean ± std over seeds (synthetic rerun, not the "
                     "paper's CIFAR/FEMNIST numbers); held-out standard errors are below "
                     "0.5 points. n = 90 and 450: scott2024.table1; n = 900: "
                     "scott2024.table1_n900."})
        figs.append(accuracy_dots(
            f"{outcome.check_id}: Table 1's accuracies (synthetic, population C), n = "
            f"{prm['n']}", "method", METHODS, ev["risk"],
            f"T = {prm['T']}, {prm['seeds']} seeds; the synthetic rerun, not the paper's "
            "CIFAR/FEMNIST numbers."))
    return figs


def _pick_table1(out: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> np.ndarray:
    """PeFLL's and FedAvg's accuracy (points) on the point's clients, per draw."""
    acc = accuracy(out["risk"])[:, :, SIDE[p["clients"]]]
    return acc[:, [METHODS.index("PeFLL"), METHODS.index("FedAvg")]]


def _points(ns: tuple[int, ...], T: int) -> tuple[dict, ...]:
    return tuple(dict(POINT_C, n=n, T=T, clients=w) for n in ns for w in SIDE)


_REPLANNED = ("Re-planned after the stability test (reruns at three other seeds): {} The "
              "draws now come from a 16-draw pilot on other streams (see the plan), declared "
              "before the reruns.")


CHECKS = requiring(("jax",), [
    comparison_check(
        TABLE1, "Table 1 (synthetic): PeFLL more accurate than FedAvg on seen and unseen "
        "clients", Verdict.HOLDS, simulate_table1, _pick_table1, plot_table1,
        _points((90, 450), 2000), ("PeFLL", "FedAvg"),
        pilot_plan(38, "PeFLL - FedAvg on unseen clients at n = 450", 1.73, 1.375, 1.41, 6.1,
                   49),
        "Population C (label shift, Dir(0.3)), n = 90 and 450 seen clients (and n/9 unseen), "
        "T = 2000: PeFLL's accuracy against FedAvg's, paired per draw, on seen and on unseen "
        "clients (four comparisons). The report table lists Local, FedAvg, FedAvg + "
        "fine-tuning, pFedHN and PeFLL. Server step 0.3, not the paper's 1 (chosen on three "
        "tuning populations of SeedSequence(99); with 1 PeFLL trained badly on two of them). "
        "Expected HOLDS: in the pilot PeFLL leads in all four comparisons, least on unseen "
        "clients at n = 450, which sets the draws. " + _REPLANNED.format(
            "at 10 draws, planned for the paper's CIFAR/FEMNIST difference, the verdict was "
            "HOLDS at one seed and INCONCLUSIVE at another (expected INCONCLUSIVE then)."),
        "seen / unseen clients at n = 90, 450"),
    comparison_check(
        TABLE1, "Table 1 (synthetic) at n = 900: PeFLL more accurate than FedAvg",
        Verdict.VIOLATED, simulate_table1, _pick_table1, plot_table1, _points((900,), 2000),
        ("PeFLL", "FedAvg"),
        pilot_plan(15, "PeFLL - FedAvg on seen clients (FedAvg ahead)", -3.17, 2.77, 1.60,
                   8.7, 34),
        "Table 1's third size, as scott2024.table1: 900 seen and 100 unseen clients with m = "
        "5 training points each (4500 in all), 45 clients per round, descriptors from all 5 "
        "points; PeFLL's accuracy against FedAvg's, paired per draw, seen and unseen. "
        "Expected VIOLATED: with 5 points per client FedAvg's single model beats PeFLL in "
        "both pilots, on seen clients by more than the draws' spread, where the paper's CIFAR "
        "runs keep PeFLL ahead at 1000 clients. Draws planned, as every comparison of the "
        "paper's experiments, for power 0.99 from the 16-draw pilot (9 before).",
        "seen / unseen clients at n = 900", suffix="_n900"),
])
