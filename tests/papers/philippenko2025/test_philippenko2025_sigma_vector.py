"""Per-client sigma_k^2 on the command line: a comma list, a .csv (row or column) or a .npy
file, for eval, solve and complexity; every bad vector is one line and exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pflbounds.cli import main

S2 = np.array([0.5, 1.0, 2.0, 1.0, 1.0, 4.0])


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
    np.savetxt(tmp_path / "row.csv", S2[None], delimiter=",")
    np.savetxt(tmp_path / "col.csv", S2[:, None], delimiter=",")
    np.save(tmp_path / "s.npy", S2)
    return [",".join(f"{v:g}" for v in S2), str(tmp_path / "row.csv"),
            str(tmp_path / "col.csv"), str(tmp_path / "s.npy")]


def test_eval_reads_a_per_client_vector_in_every_spelling(tmp_path, capsys):
    b, bf = _b(tmp_path)
    want = _want(b, S2)
    assert want[0] != want[1]  # the clients of the two clusters differ
    for s in _spellings(tmp_path):
        code = main(["eval", "philippenko2025.definition2_binary", "--form", "corrected",
                     "mu=1", "eps=0.5", "lam=0.5", f"sigma2={s}", f"b={bf}", "--json"])
        out = capsys.readouterr().out
        assert code == 0
        assert np.allclose(json.loads(out)["value"]["sigma_suf2"], want, rtol=1e-13)


def test_complexity_and_solve_read_the_vector(tmp_path, capsys):
    b, bf = _b(tmp_path)
    code = main(["complexity", "--paper", "philippenko2025", "mu=1", "beta=1", "eps=0.5",
                 "lam=0.5", "sigma2=" + ",".join(f"{v:g}" for v in S2), f"b={bf}", "--json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    got = [c["sigma_suf2_binary"] for c in doc["clients"]]
    assert np.allclose(got, _want(b, S2), rtol=1e-13)
    code = main(["solve", "philippenko2025.definition2_binary", "--form", "corrected",
                 "--for", "eps", "--target", "1", "--part", "sigma_suf2", "mu=1", "lam=0.5",
                 "sigma2=1,1,1,1,1,1,1", f"b={bf}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "sigma2 has 7 values but b is 6 x 6" in err[0]
    code = main(["solve", "philippenko2025.theorem2_constant", "--for", "T", "--target", "0.1",
                 "eta=0.1", "mu=1", "beta=2", "eps0=1", "sigma_suf2=0.2", "kappa_w=0.5",
                 "sigma2=1,2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "philippenko2025.theorem2_constant reads sigma2 as one number" in err[0]


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
    code = main(["eval", "philippenko2025.definition2_binary", "--form", "corrected", "mu=1",
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
    code = main(["eval", "philippenko2025.corollary1_uniform", "sigma2=1,2", "lam=0.5",
                 "Nstar=2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "reads sigma2 as one number" in err[0]


def test_complexity_names_a_wrong_length_without_matrices(capsys):
    code = main(["complexity", "--paper", "philippenko2025", "mu=2", "beta=2", "sigma2=1,1,1",
                 "eps=0.05", "lam=0.5", "N=6", "clusters=2", "b_between=1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "sigma2 has 3 values; expected one number or 6 numbers (one per client)" in err[0]
