"""The sufficient cluster and variance of philippenko2025 (Definition 2): values from the
matrices b and c against an independent computation, its limits in eps, per-client sigma_k^2
on the command line (a comma list, a .csv row or column, a .npy file; every bad vector one
line and exit 2), and the quick verdicts of its checks and Figure 1's curve."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pflbounds.algorithms.similarity_weights import Criterion
from pflbounds.cli import main
from pflbounds.papers.philippenko2025.checks import sufficient_cluster
from pflbounds.papers.philippenko2025.checks.sufficient_cluster import CHECKS
from pflbounds.papers.philippenko2025.theory.sample_complexity import COROLLARY1_UNIFORM
from pflbounds.papers.philippenko2025.theory.sufficient_cluster import (
    DEFINITION2_BINARY,
    DEFINITION2_CONTINUOUS,
    DEFINITION2_RATIO,
    suf_limit_large_eps,
    suf_limit_small_eps,
)
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import InputError, evaluate

FAST = ["E4", "P8", "E12", "P18"]
BY_KEY = {c.id.split(".", 1)[1]: c for c in CHECKS}


def ev(result, form=None, matrices=None, **v):
    return evaluate(get(result.id), form, matrices=matrices, **v).value


def _two_clusters(N=6, gap=2.0):
    b = np.zeros((N, N))
    odd = np.arange(N) % 2 == 1
    b[np.ix_(odd, ~odd)] = gap
    b[np.ix_(~odd, odd)] = gap
    return b


def test_definition2_from_matrices_against_an_independent_computation():
    b = _two_clusters(6, 2.0)
    c = np.full((6, 6), 0.1) - 0.1 * np.eye(6)
    s2 = np.array([1.0, 2.0, 1.0, 0.5, 1.0, 1.0])
    mu, eps, lam = 1.0, 4.0, 0.3
    out = ev(DEFINITION2_BINARY, "corrected", {"b": b, "c": c}, mu=mu, eps=eps, lam=lam,
             sigma2=s2)
    # by hand: x = 1 - b^2/(2 mu eps) - c = 1 - 4/8 - 0.1 = 0.4 across, 0.9 within, 1 on i
    x = np.where(b > 0, 0.4, 0.9)
    np.fill_diagonal(x, 1.0)
    psi = np.where(x >= lam, lam * x, 0.0)
    assert np.array_equal(out["Nstar"], np.full(6, 6.0))
    assert np.allclose(out["sigma_suf2"], 1 / (psi / s2).sum(1), rtol=1e-14)
    cont = ev(DEFINITION2_CONTINUOUS, "corrected", {"b": b}, mu=mu, eps=eps, sigma2=1.0)
    x0 = np.where(b > 0, 0.5, 1.0)
    assert np.allclose(cont["sigma_suf2"], 1 / (x0**2).sum(1))
    # printed reading b/(2 mu eps) = 2/8: a larger cluster value x = 0.75 across
    pr = ev(DEFINITION2_CONTINUOUS, "printed", {"b": b}, mu=mu, eps=eps, sigma2=1.0)
    x1 = np.where(b > 0, 0.75, 1.0)
    assert np.allclose(pr["sigma_suf2"], 1 / (x1**2).sum(1))
    small = ev(DEFINITION2_BINARY, "corrected", {"b": b}, mu=mu, eps=0.5, lam=lam, sigma2=1.0)
    assert np.array_equal(small["Nstar"], np.full(6, 3.0))
    assert np.allclose(small["sigma_suf2"], 1 / (3 * lam))


def test_definition2_bad_matrices_and_missing_inputs():
    b = _two_clusters(4)
    bad = b.copy()
    bad[0, 0] = 1
    with pytest.raises(ValueError, match="zero diagonal"):
        ev(DEFINITION2_CONTINUOUS, "corrected", {"b": bad}, mu=1, eps=1, sigma2=1.0)
    with pytest.raises(ValueError, match="one per client"):
        ev(DEFINITION2_CONTINUOUS, "corrected", {"b": b}, mu=1, eps=1, sigma2=np.ones(3))
    with pytest.raises(InputError, match="lam"):
        ev(DEFINITION2_BINARY, "corrected", {"b": b}, mu=1, eps=1, sigma2=1.0)


def test_definition2_ratio_per_pair():
    b = _two_clusters(4, 3.0)
    x = ev(DEFINITION2_RATIO, "corrected", {"b": b}, mu=1.0, eps=9.0, c=0.0)
    assert np.allclose(x, np.where(b > 0, 0.5, 1.0))
    x = ev(DEFINITION2_RATIO, "printed", {"b": b}, mu=1.0, eps=9.0, c=0.0)
    assert np.allclose(x, np.where(b > 0, 1 - 3 / 18, 1.0))


def test_limits_of_the_sufficient_variance_printed_and_corrected():
    b = _two_clusters(4, 1.0)
    s2 = np.array([0.5, 1.0, 2.0, 4.0])
    crit = Criterion.continuous()
    tiny = ev(DEFINITION2_CONTINUOUS, "corrected", {"b": b}, mu=1.0, eps=1e-9, sigma2=s2)
    assert np.allclose(tiny["sigma_suf2"], suf_limit_small_eps(b, None, s2, crit), rtol=1e-12)
    assert not np.allclose(tiny["sigma_suf2"], suf_limit_small_eps(b, None, s2, crit, True))
    huge = ev(DEFINITION2_CONTINUOUS, "corrected", {"b": b}, mu=1.0, eps=1e12, sigma2=s2)
    assert np.allclose(huge["sigma_suf2"], suf_limit_large_eps(None, s2, crit, 4), rtol=1e-9)


SIGMA2 = np.array([0.5, 1.0, 2.0, 1.0, 1.0, 4.0])


def _b(tmp_path):
    lab = np.arange(6) % 2
    b = 2.0 * (lab[:, None] != lab[None, :])
    np.savetxt(tmp_path / "b.csv", b, delimiter=",")
    return b, str(tmp_path / "b.csv")


def _want(b, s2, mu=1.0, eps=0.5, lam=0.5):
    """Definition 2 (b^2 reading), binary criterion, typed from the paper."""
    x = np.maximum(1 - b**2 / (2 * mu * eps), 0.0)
    psi = np.where(x >= lam, lam * x, 0.0)
    return 1 / (psi / s2).sum(1)


def _spellings(tmp_path):
    np.savetxt(tmp_path / "row.csv", SIGMA2[None], delimiter=",")
    np.savetxt(tmp_path / "col.csv", SIGMA2[:, None], delimiter=",")
    np.save(tmp_path / "s.npy", SIGMA2)
    return [",".join(f"{v:g}" for v in SIGMA2), str(tmp_path / "row.csv"),
            str(tmp_path / "col.csv"), str(tmp_path / "s.npy")]


def test_eval_reads_a_per_client_vector_in_every_spelling(tmp_path, capsys):
    b, bf = _b(tmp_path)
    want = _want(b, SIGMA2)
    assert want[0] != want[1]  # the clients of the two clusters differ
    for s in _spellings(tmp_path):
        code = main(["eval", DEFINITION2_BINARY.id, "--form", "corrected",
                     "mu=1", "eps=0.5", "lam=0.5", f"sigma2={s}", f"b={bf}", "--json"])
        out = capsys.readouterr().out
        assert code == 0
        assert np.allclose(json.loads(out)["value"]["sigma_suf2"], want, rtol=1e-13)


@pytest.mark.parametrize("value, words", [
    ("1,2,3", ["sigma2 has 3 values", "b is 6 x 6", "one value per client"]),
    ("1,-2,1,1,1,1", ["entry 1 (client 1) is -2", "> 0"]),
    ("1,0,1,1,1,1", ["entry 1 (client 1) is 0", "> 0"]),
    ("1,nan,1,1,1,1", ["entry 1", "nan"]),
    ("1,x,1,1,1,1", ["sigma2=1,x,1,1,1,1", "numbers separated by commas"]),
    ("missing.csv", ["sigma2 file", "does not exist"]),
    ("bad.npy", ["has shape (2, 3)", "one number per client"]),
    ("semi.csv", ["line 1", "separated by commas"]),
])
def test_bad_vectors_are_one_line(tmp_path, capsys, monkeypatch, value, words):
    _, bf = _b(tmp_path)
    np.save(tmp_path / "bad.npy", np.ones((2, 3)))
    (tmp_path / "semi.csv").write_text("1;1;1;1;1;1\n")
    monkeypatch.chdir(tmp_path)
    code = main(["eval", DEFINITION2_BINARY.id, "--form", "corrected", "mu=1",
                 "eps=0.5", "lam=0.5", f"sigma2={value}", f"b={bf}"])
    cap = capsys.readouterr()
    err = cap.err.strip().splitlines()
    assert code == 2 and len(err) == 1 and cap.out == ""
    for w in words:
        assert w in err[0]


def test_a_vector_is_refused_where_sigma2_is_one_number(capsys):
    code = main(["complexity", "--paper", "even2022", "mu=1", "L=2", "sigma2=1,2", "eps=0.1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "even2022 reads sigma2 as one number, not one per client" in err[0]
    code = main(["eval", COROLLARY1_UNIFORM.id, "sigma2=1,2", "lam=0.5",
                 "Nstar=2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "reads sigma2 as one number" in err[0]


def test_solve_names_a_wrong_length(tmp_path, capsys):
    _, bf = _b(tmp_path)
    code = main(["solve", DEFINITION2_BINARY.id, "--form", "corrected", "--for", "eps",
                 "--target", "1", "--part", "sigma_suf2", "mu=1", "lam=0.5",
                 "sigma2=1,1,1,1,1,1,1", f"b={bf}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "sigma2 has 7 values but b is 6 x 6" in err[0]


@pytest.mark.parametrize("key", FAST)
def test_quick_verdict_is_the_expected_one(quick_outcomes, key):
    o = quick_outcomes[key]
    assert o.error is None, o.error
    assert o.verdict == BY_KEY[key].expected, o.detail


def test_figure1_curve(quick_outcomes):
    f8 = sufficient_cluster.plot_p8(quick_outcomes["P8"])
    sizes = [s["y"] for s in f8[0]["series"]]
    assert all(np.all(np.diff(y) >= 0) for y in sizes)
    ev8 = quick_outcomes["P8"].evidence[0]
    # Figure 1's constant (printed Property 1) puts the transition at half the tight one
    for v in (0.001, 0.01, 0.1, 1.0):
        t_pr = float(np.asarray(ev8[f"transition_printed_v{v:g}"]))
        t_ti = float(np.asarray(ev8[f"transition_tight_v{v:g}"]))
        assert t_pr < t_ti
