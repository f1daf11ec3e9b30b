"""The philippenko2025 calculator: values against an independent computation from the
paper's formulas, the CLI (matrices b and c, clustered description, per-client sigma_k^2)
and its errors, which are those of ``eval``."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from pflbounds.cli import main, matrix_inputs
from pflbounds.papers.philippenko2025.theory.sample_complexity import (
    COROLLARY1,
    COROLLARY1_BINARY,
)
from pflbounds.symbolic import HypothesisError, evaluate, get
from pflbounds.symbolic.complexity import ComplexityRow, ComplexityTable, complexity_table
from pflbounds.symbolic.evaluate import InputError


def _independent(b, c, s2, mu, beta, eps, lam, C, eps0=None):
    """Definition 2 (b^2 reading), Corollary 1 and Even et al.'s Theorem 1 typed from the
    papers, for every client, without the catalog."""
    N = b.shape[0]
    x = np.maximum(1 - b**2 / (2 * mu * eps) - c, 0.0)
    out = {}
    for crit in ("binary", "continuous"):
        psi = np.where(x >= lam, lam * x, 0.0) if crit == "binary" else x**2
        nstar = (psi > 0).sum(1)
        ssuf = 1 / (psi / s2).sum(1)
        CC = C**2 / (C - 1)
        T = CC * beta * ssuf / (2 * mu**2 * eps)
        neps = (b**2 < 36 * mu * eps).sum(1)
        lb = s2.max() / (mu * eps * neps)
        d = {"Nstar": nstar, "sigma_suf2": ssuf, "T": T, "ratio": T / lb}
        if eps0 is not None:
            kappa = np.full(N, lam) if crit == "binary" else 1 / (s2 * np.sum(1 / s2))
            g0 = np.maximum(0, np.ceil(C * beta / (mu * kappa) - 1))
            d["T_corrected"] = np.maximum(CC * beta * ssuf / (2 * mu**2), (g0 + 1) * eps0) \
                / eps - g0 - 1
        out[crit] = d
    return out


def test_the_table_is_typed_with_one_row_per_criterion_form_and_lower_bound():
    v = dict(mu=1.0, beta=1.0, eps=0.05, sigma2=1.0, lam=0.5, eps0=1.0, N=4, clusters=2,
             b_between=3.0)
    t = complexity_table("philippenko2025", v, {})
    assert isinstance(t, ComplexityTable) and t.paper == "philippenko2025"
    assert all(isinstance(r, ComplexityRow) for r in t.rows)
    assert [(r.algorithm, r.result, r.form) for r in t.rows] == [
        ("binary", COROLLARY1.id, "printed"), ("binary", COROLLARY1.id, "corrected"),
        ("continuous", COROLLARY1.id, "printed"), ("continuous", COROLLARY1.id, "corrected"),
        ("lower", "even2022.theorem1", "corrected"), ("lower", "even2022.theorem1", "printed")]
    assert [k for k, _ in t.count_columns] == ["iterations", "Nstar", "sigma_suf2", "floor",
                                               "ratio"]
    assert all(r.relation == ("=" if r.algorithm != "lower" else ">=") for r in t.rows)
    # the fewest iterations among the forms the inputs ask for (corrected: eps0 is given)
    worst = {r.method: float(np.max(r.counts["iterations"])) for r in t.rows
             if r.form == "corrected" and r.algorithm != "lower"}
    assert t.best == {"iterations": min(worst, key=worst.get)}
    assert [r.error for r in t.rows if r.algorithm == "lower"] == [None, None]
    assert t.extra["inputs"]["C"] == 2.0 and len(t.extra["clients"]) == 4
    t = complexity_table("philippenko2025", {**v, "eps": 1.0}, {})  # outside 0 < eps < 1/16
    assert "eps < 1/16" in t.rows[-1].error and t.rows[-1].counts["iterations"] is None


def _rows(t, crit, form):
    return next(r for r in t["rows"] if r["algorithm"] == crit and r["form"] == form)


def test_calculator_matches_an_independent_computation():
    rng = np.random.default_rng(0)
    N = 7
    b = rng.uniform(0, 2, (N, N))
    np.fill_diagonal(b, 0)
    c = rng.uniform(0, 0.3, (N, N))
    np.fill_diagonal(c, 0)
    s2 = rng.uniform(0.5, 2, N)
    v = dict(mu=0.7, beta=1.5, eps=0.8, lam=0.4, C=3.0)
    t = complexity_table("philippenko2025", {**v, "sigma2": s2, "eps0": 5.0},
                         {"b": b, "c": c}).to_dict()
    want = _independent(b, c, s2, v["mu"], v["beta"], v["eps"], v["lam"], v["C"], 5.0)
    for crit in ("binary", "continuous"):
        pr = _rows(t, crit, "printed")
        assert np.array_equal(pr["Nstar"], want[crit]["Nstar"])
        assert np.allclose(pr["sigma_suf2"], want[crit]["sigma_suf2"], rtol=1e-13)
        assert np.allclose(pr["iterations"], want[crit]["T"], rtol=1e-13)
        assert np.allclose(pr["ratio"], want[crit]["ratio"], rtol=1e-13)
        co = _rows(t, crit, "corrected")
        assert np.allclose(co["iterations"], want[crit]["T_corrected"], rtol=1e-13)
    assert np.all(want["continuous"]["sigma_suf2"] <= want["binary"]["sigma_suf2"])


def test_clustered_description_equals_the_matrices_and_a_hand_value():
    v = dict(mu=2.0, beta=2.0, eps=0.05, lam=0.5, sigma2=1.0)
    t1 = complexity_table("philippenko2025", {**v, "N": 6, "clusters": 2, "b_between": 1.0},
                          {}).to_dict()
    b = np.zeros((6, 6))
    lab = np.arange(6) % 2
    b[lab[:, None] != lab[None, :]] = 1.0
    t2 = complexity_table("philippenko2025", v, {"b": b}).to_dict()
    for r1, r2 in zip(t1["rows"], t2["rows"], strict=True):
        assert np.array_equal(np.asarray(r1.get("iterations")), np.asarray(r2.get("iterations")))
    # eps = 0.05 < b^2/(2 mu (1 - lam)) = 0.5: the sufficient cluster is the own cluster (3),
    # binary sigma_suf^2 = sigma^2/(3 lam) and T = 4 beta sigma_suf^2/(2 mu^2 eps)
    pr = _rows(t1, "binary", "printed")
    assert np.all(pr["Nstar"] == 3)
    assert pr["iterations"] == pytest.approx(np.full(6, 4 * 2 * (1 / 1.5) / (2 * 4 * 0.05)))


def test_floor_and_lambda_notes():
    v = dict(mu=1.0, beta=1.0, eps=0.1, sigma2=1.0, N=4, clusters=2, b_between=3.0, eta=0.3)
    t = complexity_table("philippenko2025", v, {}).to_dict()
    assert any("give lam" in n for n in t["notes"])
    assert not any(r["algorithm"] == "binary" for r in t["rows"])
    assert any("no Theorem 2 floor for the continuous" in n for n in t["notes"])  # 1/N < eta
    t = complexity_table("philippenko2025", {**v, "eta": 0.1, "lam": 0.5}, {}).to_dict()
    assert np.allclose(_rows(t, "binary", "printed")["floor"], 0.1 * 1 * (1 / 1.0) / 2)


@pytest.mark.parametrize("values, matrices, match", [
    (dict(mu=1, eps=1, sigma2=1), {}, "needs beta"),
    (dict(mu=1, beta=1, eps=1, sigma2=1), {}, "give the heterogeneity"),
    (dict(mu=1, beta=1, eps=1, sigma2=1, clusters=2), {"b": np.zeros((2, 2))}, "not both"),
    (dict(mu=1, beta=1, eps=1, sigma2=1, L=2), {"b": np.zeros((2, 2))}, "unexpected input"),
    (dict(mu=1, beta=1, eps=1, sigma2=np.ones(3)), {"b": np.zeros((2, 2))}, "one per client"),
])
def test_bad_inputs(values, matrices, match):
    with pytest.raises((InputError, ValueError), match=match):
        complexity_table("philippenko2025", values, matrices)


def test_cli_reads_c_as_a_matrix_and_prints_json(tmp_path, capsys):
    assert {"b", "Lambda", "c"} <= set(matrix_inputs())
    b = np.array([[0, 2, 0], [2, 0, 2], [0, 2, 0.0]])
    c = np.full((3, 3), 0.2) - 0.2 * np.eye(3)
    np.savetxt(tmp_path / "b.csv", b, delimiter=",")
    np.save(tmp_path / "c.npy", c)
    code = main(["complexity", "--paper", "philippenko2025", "mu=1", "beta=1", "sigma2=1",
                 "eps=1", "lam=0.5", f"b={tmp_path / 'b.csv'}", f"c={tmp_path / 'c.npy'}",
                 "--json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    want = _independent(b, c, np.ones(3), 1.0, 1.0, 1.0, 0.5, 2.0)
    assert doc["clients"][1]["sigma_suf2_continuous"] == pytest.approx(
        want["continuous"]["sigma_suf2"][1], rel=1e-13)
    assert doc["clients"][0]["T_binary_printed"] == pytest.approx(want["binary"]["T"][0])
    code = main(["eval", "philippenko2025.definition2_continuous", "--form", "corrected",
                 "mu=1", "eps=1", "sigma2=1", f"b={tmp_path / 'b.csv'}",
                 f"c={tmp_path / 'c.npy'}", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["value"]["sigma_suf2"][1] == pytest.approx(want["continuous"]["sigma_suf2"][1])


def test_cli_error_is_one_line(capsys):
    code = main(["complexity", "--paper", "philippenko2025", "mu=1", "sigma2=1", "eps=1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "needs beta" in err[0]


def test_lower_bound_reuses_even2022():
    v = dict(mu=0.25, beta=0.25, eps=0.01, sigma2=2.0, N=4, clusters=2, b_between=10.0)
    t = complexity_table("philippenko2025", v, {}).to_dict()
    lb = next(r for r in t["rows"] if r["form"] == "corrected" and r["algorithm"] == "lower")
    assert lb["result"] == "even2022.theorem1"
    assert np.allclose(lb["iterations"], 2.0 / (0.25 * 0.01 * 2))
    pr = next(r for r in t["rows"] if r["form"] == "printed" and r["algorithm"] == "lower")
    assert np.allclose(pr["iterations"], (1 / 0.25) * 2.0 / (0.01 * 2))
    assert math.isclose(float(lb["iterations"][0]), float(pr["iterations"][0]))


_CX = dict(mu=1.0, beta=2.0, eps=0.1, sigma2=1.0, lam=0.5, N=4, clusters=2, b_between=1.0)


@pytest.mark.parametrize("bad, result, form, values", [
    ({"mu": 3.0}, COROLLARY1, "printed", dict(C=2, beta=2, eps=0.1, mu=3, sigma_suf2=1)),
    ({"lam": 1.5}, COROLLARY1_BINARY, "printed",
     dict(C=2, Nstar=2, beta=2, eps=0.1, lam=1.5, mu=1, sigma2=1)),
    ({"eps0": 0.01}, COROLLARY1, "general",
     dict(C=2, beta=2, eps=0.1, eps0=0.01, mu=1, sigma_suf2=1)),
    ({"C": 1.0}, COROLLARY1, "printed", dict(C=1, beta=2, eps=0.1, mu=1, sigma_suf2=1)),
])
def test_the_calculator_refuses_what_eval_refuses(bad, result, form, values):
    complexity_table("philippenko2025", _CX, {})  # the base point is accepted
    with pytest.raises((InputError, HypothesisError)) as calc:
        complexity_table("philippenko2025", {**_CX, **bad}, {})
    with pytest.raises((InputError, HypothesisError)) as ev:
        evaluate(get(result.id), form, **values)
    assert type(calc.value) is type(ev.value)
    assert str(calc.value).split(" fails")[0] == str(ev.value).split(" fails")[0]


S2 = np.array([0.5, 1.0, 2.0, 1.0, 1.0, 4.0])


def test_complexity_reads_a_per_client_vector(tmp_path, capsys):
    lab = np.arange(6) % 2
    b = 2.0 * (lab[:, None] != lab[None, :])
    np.savetxt(tmp_path / "b.csv", b, delimiter=",")
    code = main(["complexity", "--paper", "philippenko2025", "mu=1", "beta=1", "eps=0.5",
                 "lam=0.5", "sigma2=" + ",".join(f"{v:g}" for v in S2),
                 f"b={tmp_path / 'b.csv'}", "--json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    got = [c["sigma_suf2_binary"] for c in doc["clients"]]
    x = np.maximum(1 - b**2 / (2 * 1.0 * 0.5), 0.0)  # Definition 2, binary, typed by hand
    psi = np.where(x >= 0.5, 0.5 * x, 0.0)
    assert np.allclose(got, 1 / (psi / S2).sum(1), rtol=1e-13)


def test_complexity_names_a_wrong_length_without_matrices(capsys):
    code = main(["complexity", "--paper", "philippenko2025", "mu=2", "beta=2", "sigma2=1,1,1",
                 "eps=0.05", "lam=0.5", "N=6", "clusters=2", "b_between=1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "sigma2 has 3 values; expected one number or 6 numbers (one per client)" in err[0]
