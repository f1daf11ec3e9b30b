"""The paper's ablations (App. A.3-A.4), small and synthetic (population C, label shift; the
setting of :mod:`.benchmarks`): their claims and the runs that check them. Every check records
whether the paper's claim reproduces at this scale; its report table or figure is marked
"synthetic, small".

* ``table6`` (Table 6): label masking (classes absent from a client's training labels are
  never predicted): risk with masking at most without, on seen and unseen clients.
* ``table7`` (Table 7): hypernetwork depth S/M/L (1, 3, 5 hidden layers): M and L at least as
  accurate as S.
* ``table8`` (Table 8): the regularizer grid (lambda_theta x lambda_h = lambda_v) with Theorem
  3.2's bound beside each cell: the largest lambda_theta underfits.
* ``table9`` (Table 9): embedding type, linear against a one-hidden-layer tanh MLP on (x,
  one-hot y): the MLP at least as accurate.
* ``floats`` (Figs. 8-14): accuracy against rounds and against floats communicated: PeFLL's
  risk at most FedAvg's after the same number of rounds.

Each is a comparison check: accuracies paired per draw (one draw: one seed with its own
population, initialisation and sampling, every variant trained on it), claimed in the order
the check names, decided by a t interval over the draws its plan declares (INCONCLUSIVE where
they do not separate). The claims compare measured quantities of the same runs (``er_ref``:
the risk of the variant a claim compares with): they carry no constant of the theory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from pflbounds.checking import Verdict, requiring
from pflbounds.checking.draws import DrawPlan
from pflbounds.extras import lazy_jit, lazy_module
from pflbounds.papers.scott2024.checks.common import (
    SIDE,
    SYNTH,
    accuracy,
    accuracy_tables,
    accuracy_text,
    comparison_check,
    distinct_runs,
    mean_risk,
    method_keys,
    predict_all,
    seen_unseen,
    setting_title,
    theorem32_terms,
    train_pefll,
)
from pflbounds.papers.scott2024.experiments.common import PILOT_SD, pilot_plan
from pflbounds.papers.scott2024.instances import (
    POINT_C90,
    pefll_architecture,
    setting,
    train_config,
)
from pflbounds.papers.scott2024.paper import ARCHITECTURES, PEFLL, form, result
from pflbounds.papers.scott2024.symbols import er_ref
from pflbounds.papers.scott2024.theory.generalization import THEOREM3_2
from pflbounds.symbolic.result import Kind

jax = lazy_module("jax", "scott2024's networks")
jnp = lazy_module("jax.numpy", "scott2024's networks")
pefll = lazy_module("pflbounds.algorithms.pefll", "scott2024's networks")
hn = lazy_module("pflbounds.algorithms.hypernetworks", "scott2024's networks")

_RISK = "mean 0-1 risk over the clients (seen and unseen separately)"

TABLE6 = result(
    "table6", "Table 6: label masking", Kind.UPPER_BOUND,
    f"PeFLL's {_RISK} with label masking", "1",
    "Label masking (classes absent from a client's training labels never predicted) does "
    "not lower PeFLL's accuracy.",
    [form("printed", er_ref, "er_ref: the same PeFLL's risk without masking.")],
    source="Table 6, App. A.3", quantity_typst="\"er\"",
    methods=PEFLL,
)
TABLE7 = result(
    "table7", "Table 7: hypernetwork depth", Kind.UPPER_BOUND,
    "mean 0-1 risk of PeFLL with 3 (M) and 5 (L) "
    "hidden hypernetwork layers on seen clients", "1",
    "The deeper hypernetworks M and L are at "
    "least as accurate as S (1 hidden layer).",
    [form("printed", er_ref, "er_ref: the risk with 1 hidden layer (S).")],
    source="Table 7, App. A.4", quantity_typst="\"er\"",
    methods=PEFLL,
)
TABLE8 = result(
    "table8", "Table 8: regularization", Kind.LOWER_BOUND,
    "mean 0-1 risk on seen clients at the largest "
    "lambda_theta of the grid", "1",
    "The largest client-model regularization lambda_theta "
    "underfits: its risk is above the best risk at a smaller lambda_theta (per "
    "lambda_h = lambda_v).",
    [form("printed", er_ref, "er_ref: the smallest risk at a smaller lambda_theta.")],
    source="Table 8, App. A.4", quantity_typst="\"er\"",
    methods=PEFLL,
)
TABLE9 = result(
    "table9", "Table 9: embedding network", Kind.UPPER_BOUND,
    f"{_RISK} of PeFLL with the richer (MLP) "
    "embedding network", "1",
    "The richer embedding network is at least as accurate as the "
    "simpler one.",
    [form("printed", er_ref, "er_ref: the risk with the simpler (linear) "
    "embedding network.")],
    source="Table 9, App. A.4", quantity_typst="\"er\"",
    methods=PEFLL,
)
FLOATS = result(
    "floats", "Figs. 8-14: accuracy during training", Kind.UPPER_BOUND,
    "PeFLL's mean 0-1 risk on seen "
    "clients after a given number of rounds", "1",
    "PeFLL reaches a lower risk than FedAvg after "
    "the same number of rounds (the figures also plot it against the floats sent).",
    [form("printed", er_ref, "er_ref: FedAvg's risk after the same rounds.")],
    source="Figs. 8-14, App. A.3", quantity_typst="\"er\"",
    methods=(*PEFLL, *ARCHITECTURES),
)


# ------------------------------------------------------------------------------ Table 6
def simulate_table6(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Table 6: one PeFLL run, risks without and with label masking (seeds, [plain, LM],
    [seen, unseen]); the mask of a client is the set of classes in its training labels."""
    S = int(p["seeds"])
    st = setting(p, seed.spawn(S))
    arch, eta = train_pefll(st, p, method_keys(seed, S, 1)[:, 0])
    risk = np.zeros((S, 2, 2))
    for w, (d, pis, mask) in enumerate(((st.seen, st.pi_seen, st.present_seen),
                                        (st.new, st.pi_new, st.present_new))):
        th = predict_all(arch, eta, d)
        risk[:, 0, w] = mean_risk(st.model, th, st.tests, pis)[0]
        risk[:, 1, w] = mean_risk(st.model, th, st.tests, pis, mask)[0]
    mean = risk.mean(axis=0)
    return {"mean": mean[1], "bound": mean[0], "ks": np.array([0.0, 1.0]), "risk": risk}


def plot_table6(outcome) -> list[dict]:
    return accuracy_tables(outcome, "Table 6: label masking", "method", ("PeFLL", "PeFLL + LM"),
                  "The same trained PeFLL without and with label masking (LM: classes absent "
                  "from a client's training labels are never predicted).")


# ------------------------------------------------------------------------------ Table 7
DEPTHS = (("S", 1), ("M", 3), ("L", 5))


def simulate_table7(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Table 7: PeFLL with 1, 3, 5 hidden hypernetwork layers (S, M, L); risks (seeds, depth,
    [seen, unseen]); measured: M's and L's seen risk, bound: S's."""
    S = int(p["seeds"])
    st = setting(p, seed.spawn(S))
    keys = method_keys(seed, S, len(DEPTHS))
    risk = np.zeros((S, len(DEPTHS), 2))
    for j, (_, h) in enumerate(DEPTHS):
        risk[:, j] = seen_unseen(st, *train_pefll(st, p, keys[:, j], hidden=h))
    mean = risk.mean(axis=0)
    return {"mean": mean[1:, 0], "bound": np.full(2, mean[0, 0]), "ks": np.array([3.0, 5.0]),
            "risk": risk}


def plot_table7(outcome) -> list[dict]:
    return accuracy_tables(outcome, "Table 7: hypernetwork depth", "hypernetwork",
                  tuple(f"{nm} ({h} hidden)" for nm, h in DEPTHS),
                  "PeFLL with a tanh MLP hypernetwork of 1, 3 or 5 hidden layers.")


# ------------------------------------------------------------------------------ Table 8
BOUND_COLUMN = THEOREM3_2.id.split(".", 1)[1]
"""The evidence column of Table 8's Theorem 3.2 bounds: the result's key (``theorem3_2``)."""


@lazy_jit(static_argnums=(0, 4))
def _stochastic_emp(arch: pefll.Architecture, eta: dict, data: pefll.ClientData,
                    alphas: jax.Array, draws: int, key: jax.Array):
    """Theorem 3.2's stochastic predictor on the observed clients (one seed): for each
    (alpha_net, alpha_theta) row of ``alphas``, ``draws`` draws of eta~ ~ N(eta, alpha_net Id)
    and theta~_i ~ N(h(v(S_i; eta~_v); eta~_h), alpha_theta Id): the mean training 0-1
    error (emp) and the mean ||h(v(S_i; eta~_v); eta~_h)||^2 over clients and draws."""
    leaves, tree = jax.tree_util.tree_flatten(eta)

    def one(a, kk):
        ks = jax.random.split(kk, len(leaves) + 1)
        noisy = [x + jnp.sqrt(a[0]) * jax.random.normal(k, x.shape)
                 for x, k in zip(leaves, ks[:-1], strict=True)]
        et = jax.tree_util.tree_unflatten(tree, noisy)
        th = jax.vmap(lambda i: arch.theta(et, data.z[i], i))(jnp.arange(data.n))
        tt = th + jnp.sqrt(a[1]) * jax.random.normal(ks[-1], th.shape)
        err = pefll.errors(arch.model, tt, data.x, data.y).mean()
        return err, jnp.mean(jnp.sum(th * th, axis=1))

    def per_alpha(a, kk):
        e, t2 = jax.vmap(lambda k: one(a, k))(jax.random.split(kk, draws))
        return e.mean(), t2.mean()

    return jax.vmap(per_alpha)(alphas, jax.random.split(key, alphas.shape[0]))


def theorem32_bound(arch: pefll.Architecture, eta: dict, data: pefll.ClientData,
                    p: Mapping[str, Any], key: jax.Array) -> tuple[float, float, float]:
    """Theorem 3.2 (corrected form: losses at theta~, KL = ||mu||^2/(2 alpha), a
    data-independent alpha-grid with delta/|grid|) for one trained PeFLL (one seed): the
    smallest bound over the grid alpha_h = alpha_v in ``alpha_net`` x ``alpha_theta``, with
    its emp (Monte Carlo over ``draws`` network draws) and the empirical risk at eta. The
    terms come from :func:`population_b.theorem32_terms` with the mean ||theta||^2 over the
    draws (Jensen: a value at least the theorem's E sqrt(.))."""
    grid = np.array([(a, b) for a in p["alpha_net"] for b in p["alpha_theta"]], dtype=float)
    emp, th2 = map(np.asarray, _stochastic_emp(arch, eta, pefll.as_jax(data), jnp.asarray(grid),
                                               int(p["draws"]), key))
    eh2, ev2 = float(hn.sqnorm(eta["h"])), float(hn.sqnorm(eta["v"]))
    conf = float(p["delta"]) / len(grid)
    vals = np.empty(len(grid))
    for g, (a_net, a_theta) in enumerate(grid):
        meta, sample = theorem32_terms(eh2, ev2, a_net,
                                       np.array([data.n * float(th2[g]) / (2 * a_theta)]),
                                       data.n, data.m, conf)
        vals[g] = float(emp[g]) + meta + sample
    g = int(np.argmin(vals))
    th = pefll.predict_thetas(arch, eta, data)
    det = float(pefll.errors(arch.model, th, jnp.asarray(data.x), jnp.asarray(data.y)).mean())
    return float(vals[g]), float(emp[g]), det


def finite_runs(eta: dict) -> np.ndarray:
    """Per seed (leading axis): whether every parameter of the run stayed finite."""
    leaves = [np.asarray(x) for x in jax.tree_util.tree_leaves(eta)]
    return np.all([np.isfinite(x.reshape(x.shape[0], -1)).all(axis=1) for x in leaves], axis=0)


def simulate_table8(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Table 8: PeFLL for every (lambda_theta, lambda_h = lambda_v) of the grid: seen and
    unseen risk (seeds, rows, cols, 2; NaN for a seed whose run diverged) and Theorem 3.2's
    bound on the first finite seed's run (rows, cols). Measured: the seen risk at the largest
    lambda_theta at which some run stayed finite (per column); lower bound: the smallest seen
    risk over the smaller lambda_theta of that column (:func:`largest_trained`)."""
    S = int(p["seeds"])
    rows, cols = [float(v) for v in p["lam_thetas"]], [float(v) for v in p["lams"]]
    st0 = setting(p, seed.spawn(S))
    keys = method_keys(seed, S, len(rows) * len(cols) + 1)
    risk = np.zeros((S, len(rows), len(cols), 2))
    bound = np.full((len(rows), len(cols)), np.nan)
    emp = np.full_like(bound, np.nan)
    diverged = np.zeros((len(rows), len(cols)), dtype=int)
    for a, lt in enumerate(rows):
        for b, lh in enumerate(cols):
            cfg = train_config(p, st0.n, st0.seen.m, lam_theta=lt, lam_h=lh, lam_v=lh)
            st = replace(st0, cfg=cfg)
            arch, eta = train_pefll(st, p, keys[:, a * len(cols) + b])
            ok = finite_runs(eta)
            diverged[a, b] = int((~ok).sum())
            risk[:, a, b] = np.where(ok[:, None], seen_unseen(st, arch, eta), np.nan)
            j = int(np.argmax(ok))  # the first seed whose run stayed finite
            if ok[j]:
                one = jax.tree_util.tree_map(lambda x, j=j: x[j], eta)
                d0 = jax.tree_util.tree_map(lambda x, j=j: x[j], st.seen)
                bound[a, b], emp[a, b], _ = theorem32_bound(arch, one, d0, p, keys[j, -1])
    measured, lower = largest_trained(risk[..., 0])
    return {"mean": measured, "bound": lower, "ks": np.array(cols), "risk": risk,
            BOUND_COLUMN: bound, "emp_stochastic": emp, "diverged": diverged}


def largest_trained(risk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From risks (seeds, rows, cols), NaN where a run diverged: per column, the mean risk
    over the finite seeds at the largest row (lambda_theta) with any finite seed, and the
    smallest such mean over the rows above it (NaN when there is none)."""
    S, n_rows, n_cols = risk.shape
    ok = np.isfinite(risk)
    counts = ok.sum(axis=0)
    mean = np.where(counts > 0, np.where(ok, risk, 0.0).sum(axis=0) / np.maximum(counts, 1),
                    np.nan)
    measured, lower = np.full(n_cols, np.nan), np.full(n_cols, np.nan)
    for b in range(n_cols):
        rows = np.flatnonzero(counts[:, b] > 0)
        if rows.size >= 2:
            measured[b], lower[b] = mean[rows[-1], b], mean[rows[:-1], b].min()
    return measured, lower


def _cell8(r: np.ndarray, bound: float, diverged: int) -> str:
    """'seen / unseen; er <= bound' over the seeds whose run stayed finite."""
    if diverged == r.shape[0]:
        return "diverged (every seed)"
    ok = np.isfinite(r[:, 0])
    txt = f"{accuracy_text(r[ok, 0])} / {accuracy_text(r[ok, 1])}; er ≤ {bound:.2f}"
    return txt + (f" ({diverged} of {r.shape[0]} seeds diverged)" if diverged else "")


def plot_table8(outcome) -> list[dict]:
    figs = []
    for ev in distinct_runs(outcome.evidence):
        r = np.asarray(ev["risk"], dtype=float)
        prm = dict(ev["params"], seeds=r.shape[0])
        b = np.asarray(ev[BOUND_COLUMN], dtype=float)
        dv = np.asarray(ev["diverged"])
        cols = [float(v) for v in prm["lams"]]
        rows = []
        for a, lt in enumerate(prm["lam_thetas"]):
            cells = [_cell8(r[:, a, j], b[a, j], int(dv[a, j])) for j in range(len(cols))]
            rows.append([f"{float(lt):g}", *cells])
        figs.append({"kind": "table", "title": f"Table 8 ({SYNTH}): regularization, "
                     f"{setting_title(prm)}",
                     "columns": ["lambda_theta", *[f"lambda_h = lambda_v = {c:g}"
                                                   for c in cols]],
                     "rows": rows, "caption": "Each cell: accuracy (%) on seen / unseen "
                     "clients (mean ± std over seeds), then Theorem 3.2's bound on the "
                     "future-client risk er (corrected form, the first seed whose run "
                     "stayed finite, smallest over "
                     f"the alpha-grid {list(prm['alpha_net'])} x {list(prm['alpha_theta'])} "
                     f"with delta = {prm['delta']} split over the grid; emp by Monte Carlo "
                     f"over {prm['draws']} network draws). A bound above 1 is vacuous."})
    return figs


_B8 = {"lam_thetas": [5e-3, 5e-2], "lams": [0.0, 1e-3], "alpha_net": [1e-3, 1e-2, 1e-1],
       "alpha_theta": [1e-2, 1e-1, 1.0], "draws": 8, "delta": 0.05}


# ------------------------------------------------------------------------------ Table 9
EMBEDDINGS = ("linear", "mlp")


def simulate_table9(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Table 9: PeFLL with a linear embedding and with a one-hidden-layer tanh MLP, both on
    (x, one-hot y); risks (seeds, embedding, [seen, unseen]); measured: the MLP's, bound:
    the linear embedding's."""
    S = int(p["seeds"])
    st = setting(p, seed.spawn(S))
    keys = method_keys(seed, S, len(EMBEDDINGS))
    risk = np.zeros((S, len(EMBEDDINGS), 2))
    for j, kind in enumerate(EMBEDDINGS):
        risk[:, j] = seen_unseen(st, *train_pefll(st, p, keys[:, j], embedding=kind))
    mean = risk.mean(axis=0)
    return {"mean": mean[1], "bound": mean[0], "ks": np.array([0.0, 1.0]), "risk": risk}


def plot_table9(outcome) -> list[dict]:
    return accuracy_tables(outcome, "Table 9: embedding network", "embedding",
                  ("linear (A (x, one-hot y))", "MLP (1 hidden tanh layer)"),
                  "The paper compares a one-hidden-layer MLP with a LeNet-style CNN; here the "
                  "simpler network is linear and the richer one the MLP.")


# ------------------------------------------------------------------------------ Figs. 8-14
def simulate_floats(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Figs. 8-14: PeFLL and FedAvg risk on seen and unseen clients at ``checkpoints`` + 1
    points of one run each (continued from the last parameters), with the floats each has
    exchanged; measured: PeFLL's seen risk after the checkpoints' rounds, bound: FedAvg's."""
    S = int(p["seeds"])
    st = setting(p, seed.spawn(S))
    cps = int(p["checkpoints"])
    cfg = replace(st.cfg, T=st.cfg.T // cps)
    keys = method_keys(seed, S, 2)
    archs = (pefll_architecture(st, p), pefll.Architecture("fedavg", st.model))
    risk = np.zeros((S, 2, cps + 1, 2))
    for j, arch in enumerate(archs):
        eta = jax.vmap(lambda k, a=arch: a.init(k, st.n))(keys[:, j])
        for t in range(cps + 1):
            for w, (d, pis) in enumerate(((st.seen, st.pi_seen), (st.new, st.pi_new))):
                th = predict_all(arch, eta, d)
                risk[:, j, t, w] = mean_risk(st.model, th, st.tests, pis)[0]
            if t < cps:
                kk = jax.vmap(lambda k, t=t: jax.random.fold_in(k, t + 1))(keys[:, j])
                eta = pefll.train(arch, st.seen, cfg, kk, eta0=eta)["eta"]
    rounds = np.arange(cps + 1) * cfg.T
    per_round = np.array([a.floats_per_round(cfg.c) for a in archs], dtype=float)
    mean = risk.mean(axis=0)
    return {"mean": mean[0, 1:, 0], "bound": mean[1, 1:, 0], "ks": rounds[1:].astype(float),
            "risk": risk, "rounds": rounds.astype(float), "floats_per_round": per_round}


def plot_floats(outcome) -> list[dict]:
    from pflbounds.reporting.figure_specs import figure, series

    figs = []
    for ev in distinct_runs(outcome.evidence):
        r = np.asarray(ev["risk"], dtype=float)
        rounds = np.asarray(ev["rounds"], dtype=float)
        fpr = np.asarray(ev["floats_per_round"], dtype=float)
        acc = 100 * (1 - r.mean(axis=0))
        for x_name, xs in (("rounds", (rounds, rounds)),
                           ("floats exchanged", (rounds * fpr[0], rounds * fpr[1]))):
            items = []
            for j, name in enumerate(("PeFLL", "FedAvg")):
                keep = xs[j] > 0 if x_name != "rounds" else np.ones_like(rounds, bool)
                for w, who in enumerate(("seen", "unseen")):
                    items.append(series(f"{name}, {who} clients", xs[j][keep],
                                        acc[j, keep, w], "measured" if w == 0 else
                                        "reference", group=name))
            f = figure("curves", f"Figs. 8-14 ({SYNTH}): accuracy against {x_name}, "
                       f"n = {ev['params']['n']}.", x_name, "accuracy (%)", items,
                       logx=x_name != "rounds", logy=False)
            f["caption"] = (f"Mean accuracy over {r.shape[0]} draws of PeFLL and "
                            "FedAvg during training (solid: seen clients, dashed: unseen). "
                            f"Floats per round: PeFLL {fpr[0]:.0f}, FedAvg {fpr[1]:.0f} "
                            "(2c(d + |eta_v| + l) against 2cd).")
            figs.append(f)
    return figs


def _pick_table6(out: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> np.ndarray:
    """Accuracy with and without masking on the point's clients: (draws, [LM, plain])."""
    return accuracy(out["risk"])[:, ::-1, SIDE[p["clients"]]]


def _pick_table7(out: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> np.ndarray:
    """Seen-client accuracy of the point's deeper hypernetwork and of S: (draws, 2)."""
    j = [nm for nm, _ in DEPTHS].index(p["variant"])
    return accuracy(out["risk"])[:, [j, 0], 0]


def _pick_table8(out: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> np.ndarray:
    """Seen-client accuracy at the smaller and at the larger lambda_theta of the grid, in
    the point's column (lambda_h = lambda_v): (draws, 2)."""
    acc = accuracy(out["risk"])[:, :, int(p["column"]), 0]
    return acc[:, [0, -1]]


def _pick_table9(out: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> np.ndarray:
    """Accuracy of the MLP and of the linear embedding on the point's clients."""
    return accuracy(out["risk"])[:, ::-1, SIDE[p["clients"]]]


def _pick_floats(out: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> np.ndarray:
    """PeFLL's and FedAvg's seen-client accuracy at the point's checkpoint."""
    return accuracy(out["risk"])[:, :, int(p["checkpoint"]), 0]


_SEEN_UNSEEN = tuple(dict(POINT_C90, clients=w) for w in SIDE)
_PER_DRAW = ("about {} s per draw on the shared 2 cores (the draws run under one vmap); {} "
             "draws fit in about a quarter of an hour")

CHECKS = requiring(("jax",), [
    comparison_check(
        TABLE6, "Table 6 (synthetic): label masking at least as accurate as no masking",
        Verdict.VIOLATED, simulate_table6, _pick_table6, plot_table6, _SEEN_UNSEEN,
        ("PeFLL + LM", "PeFLL"),
        pilot_plan(73, "PeFLL + LM - PeFLL on seen clients (masking behind)", -0.274, 0.197,
                   0.305, 0.38, 200),
        "One PeFLL run per draw: its accuracy with label masking against without, paired "
        "per draw, seen and unseen clients. With five classes a masked class is rarely "
        "the right one and masking can only remove a correct answer when the training "
        "labels miss a class the test mixture has: the paper's CIFAR100 gain needs many "
        "classes. Expected VIOLATED: masking costs a few tenths of a point on seen clients in "
        "the pilot. History: predicted VIOLATED from a three-draw pilot; the first run (12 "
        "draws, base seed 0) found INCONCLUSIVE and the expected verdict was set to it; the "
        "stability test then found VIOLATED at another seed. The draws now come from a "
        "16-draw pilot on other streams (see the plan), declared before the reruns. The "
        "paper's gain of masking is excluded by the interval "
        "either way.", "clients"),
    comparison_check(
        TABLE7, "Table 7 (synthetic): hypernetworks M and L more accurate than S",
        Verdict.INCONCLUSIVE, simulate_table7, _pick_table7, plot_table7,
        tuple(dict(POINT_C90, variant=v) for v in ("M", "L")), ("deeper", "S"),
        DrawPlan(draws=8, effect=0.2, sd=0.29, sd_source="effect: Table 7's M - S on "
                 "CIFAR10 with 100 clients (88.9 against 88.7; L - S is 0 there); " +
                 PILOT_SD.format(0.094), budget_draws=8, budget_note=_PER_DRAW.format(25, 8)),
        "PeFLL with 3 (M) and 5 (L) hidden hypernetwork layers against 1 (S), seen-client "
        "accuracy paired per draw (two comparisons). The paper's differences are a few "
        "tenths of a point, within its own spreads; the budget cannot separate such a "
        "difference, so the expected verdict is INCONCLUSIVE.", "hypernetwork (M, L) against S"),
    comparison_check(
        TABLE8, "Table 8 (synthetic): the largest lambda_theta less accurate than a smaller "
        "one", Verdict.HOLDS, simulate_table8, _pick_table8, plot_table8,
        tuple(dict(POINT_C90, **_B8, column=j) for j in range(len(_B8["lams"]))),
        ("lambda_theta = 5e-3", "lambda_theta = 5e-2"),
        pilot_plan(38, "lambda_theta = 5e-3 - 5e-2 at lambda_h = 1e-3", 0.938, 0.738, 0.791,
                   3.5, 86),
        "PeFLL per draw at lambda_theta = 5e-3 and 5e-2 in each column lambda_h = lambda_v "
        "in {0, 1e-3}, seen-client accuracy paired per draw; the table shows Theorem 3.2's "
        "bound (corrected form, the first draw) beside each cell. The largest row is 5e-2, "
        "not the paper's 0.5: at 0.5 every run of the earlier version of this check and of "
        "its pilot diverged (the pull of 2 lambda_theta theta on the hypernetwork through "
        "J^T is too strong for the server step 0.3). Draws planned, as every comparison of the "
        "paper's experiments, for power 0.99 from the 16-draw pilot (16 before, for Table 8's "
        "smallest difference, 1.3 points).", "lambda_h = lambda_v"),
    comparison_check(
        TABLE9, "Table 9 (synthetic): the MLP embedding more accurate than the linear one",
        Verdict.INCONCLUSIVE, simulate_table9, _pick_table9, plot_table9, _SEEN_UNSEEN,
        ("MLP", "linear"),
        DrawPlan(draws=8, effect=0.4, sd=1.3, sd_source="effect: Table 9's CNN - MLP on "
                 "CIFAR10 with 100 clients (88.9 against 88.5); " + PILOT_SD.format(0.422),
                 budget_draws=8, budget_note=_PER_DRAW.format(20, 8)),
        "PeFLL with a one-hidden-layer tanh MLP embedding against a linear embedding, "
        "accuracy paired per draw on seen and unseen clients. The mean of a linear "
        "embedding of (x, one-hot y) already holds the label proportions, and the paper's "
        "difference is a few tenths of a point: the draws are not expected to separate "
        "them (INCONCLUSIVE).", "clients"),
    comparison_check(
        FLOATS, "Figs. 8-14 (synthetic): PeFLL more accurate than FedAvg after equal rounds",
        Verdict.HOLDS, simulate_floats, _pick_floats, plot_floats,
        tuple(dict(POINT_C90, checkpoints=5, checkpoint=t) for t in range(1, 6)),
        ("PeFLL", "FedAvg"),
        pilot_plan(18, "PeFLL - FedAvg after 400 rounds", 3.17, 2.74, 1.70, 1.3, 200),
        "PeFLL's and FedAvg's seen-client accuracy after the same number of rounds, at 5 "
        "checkpoints (every 400 rounds), paired per draw; the figures also put the floats "
        "exchanged on the x-axis. Equal communication is not compared: PeFLL's round costs "
        "far more than FedAvg's here (the embedding network is much larger than a "
        "55-parameter softmax model; the paper's 2x assumes them of comparable size). "
        "Re-planned after the stability test (reruns at three other seeds): at 8 draws, "
        "planned for Table 1's FEMNIST difference, the verdict was HOLDS at one seed and "
        "INCONCLUSIVE at another; the draws now come from a 16-draw pilot on other streams "
        "(see the plan), declared before the reruns.",
        "checkpoint"),
])
