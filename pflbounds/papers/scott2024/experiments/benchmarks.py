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

The checks ``scott2024.table1`` (n = 90, 450) and ``scott2024.table1_n900``: PeFLL's risk on
seen and on unseen clients is at most FedAvg's (the headline of Table 1); their report tables
list every method. The claim's form compares with a measured quantity (``er_ref``, FedAvg's
risk on the same clients): it carries no constant of the theory.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, requiring
from pflbounds.extras import lazy_module
from pflbounds.papers.scott2024.checks.common import (
    accuracy_dots,
    local_thetas,
    mean_risk,
    method_keys,
    predict_all,
)
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
    for ev in outcome.evidence:
        prm = ev["params"]
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


def _table1_check(suffix: str, title: str, expected: Verdict, ns: tuple[int, ...],
                  quick_T: int, description: str) -> Check:
    """A check of Table 1's headline (PeFLL's risk at most FedAvg's) at the sizes ``ns``,
    named after the claim (its id, then ``suffix``)."""
    return Check(TABLE1.id + suffix, title, CheckKind.BOUND_HOLDS, expected, simulate_table1,
                 grid=tuple(dict(POINT_C, n=n, T=2000, seeds=3) for n in ns),
                 quick_grid=(dict(POINT_C, n=ns[0], T=quick_T, seeds=1),), engine="exact",
                 plot=plot_table1, result_id=TABLE1.id, form="printed",
                 xlabel="seen (0), unseen (1) clients", ylabel="mean 0-1 risk",
                 description=description)


CHECKS = requiring(("jax",), [
    _table1_check(
        "", "Table 1 (synthetic): PeFLL's seen and unseen risk at most FedAvg's",
        Verdict.HOLDS, (90, 450), 300,
        "Population C (label shift, Dir(0.3)); the measured value is PeFLL's mean "
        "risk, the bound FedAvg's, on seen (0) and unseen (1) clients; the report "
        "table lists Local, FedAvg, FedAvg + fine-tuning, pFedHN and PeFLL. "
        "Expected HOLDS (reproduces): PeFLL 93.6 / 94.4 (seen / unseen) against "
        "FedAvg 90.1 / 90.8 at n = 90, 91.2 / 91.2 against 89.9 / 89.9 at n = 450; "
        "PeFLL is best at n = 90 but FedAvg + FT edges it at n = 450 (91.7 / "
        "91.6). Server step 0.3, not the paper's 1: at n = 90 (T = 2000, beta = "
        "0.1, k = 10, three seeds of SeedSequence(2024)) a server step of 1 leaves "
        "PeFLL at 76.0, 79.2 and 87.5% seen accuracy (every run stays finite, "
        "none trains well) against 93.2, 94.3 and 94.7% with 0.3."),
    _table1_check(
        "_n900", "Table 1 (synthetic) at n = 900: PeFLL's seen and unseen risk "
        "against FedAvg's", Verdict.VIOLATED, (900,), 100,
        "Table 1's third size, as scott2024.table1: 900 seen and 100 unseen "
        "clients with m = 5 training points each (4500 in all), 45 clients per "
        "round, descriptors from all 5 points. Expected VIOLATED: with 5 points "
        "per client FedAvg's single model (and FedAvg + FT) beats PeFLL on seen "
        "and unseen clients (PeFLL 85.8 / 86.1 against FedAvg 89.3 / 89.4 and FedAvg + FT "
        "90.8 / 90.7), where the paper's CIFAR runs keep PeFLL ahead at 1000 clients: the "
        "paper's headline does not reproduce at this size."),
])
