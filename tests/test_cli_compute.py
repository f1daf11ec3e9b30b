"""The compute commands of the command line: list, show, eval, solve, complexity."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pflbounds.cli import main
from pflbounds.symbolic import evaluate, get

EVAL_KEYS = {"id", "form", "value", "hidden_constants", "inputs"}
LOWER_PRINTED = "lower bound (as printed: b^2 <= 4 mu eps)"
LOWER_CONSISTENT = "lower bound (consistent instance: b^2 < 36 mu eps)"
AFO = ["mu=1", "L=2", "sigma2=0.5", "K=20", "Delta0=1", "V=0.4", "B=0.05"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def one_error_line(err: str, command: str) -> str:
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert lines[0].startswith(f"pflbounds {command}: error: ")
    return lines[0]


def thm2_explicit(eta, mu, L, sigma2, K, Delta0, V, B):
    return (1 - eta * mu) ** K * Delta0 + eta * sigma2 * L * V / (2 * mu) + B / (2 * mu)


# ----------------------------------------------------------------------------- list/show
def test_list_json(capsys):
    doc = run_json(capsys, "list")
    assert isinstance(doc, list)
    ids = {row["id"] for row in doc}
    for key in ("lemma1", "lemma2", "lemma3", "lemma4", "lemma5", "lemma6", "theorem1",
                "theorem2", "theorem3", "theorem4", "corollary1", "corollary2", "eq6", "eq7"):
        assert f"even2022.{key}" in ids
    row = next(r for r in doc if r["id"] == "even2022.theorem2")
    assert row["forms"] == ["printed", "explicit", "proof", "corrected"]
    assert row["kind"] == "upper bound" and row["label"] == "Theorem 2"


def test_list_text_and_paper_filter(capsys):
    code, out, err = run(capsys, "list", "--paper", "even2022")
    assert code == 0 and err == ""
    lines = out.strip().split("\n")
    assert all(line.startswith("even2022.") for line in lines)
    assert any("Theorem 3" in line and "forms: printed, explicit, corrected" in line
               for line in lines)


def test_list_unknown_paper(capsys):
    code, out, err = run(capsys, "list", "--paper", "nope")
    assert code == 2 and out == ""
    assert "unknown paper 'nope'" in one_error_line(err, "list")


def test_show_json(capsys):
    doc = run_json(capsys, "show", "even2022.theorem2")
    assert doc["id"] == "even2022.theorem2" and doc["relation"] == "<="
    assert set(doc["forms"]) == {"printed", "explicit", "proof", "corrected"}
    explicit = doc["forms"]["explicit"]
    assert explicit["conditions"] == ["eta <= 1/L"]
    names = {i["name"]: i for i in explicit["inputs"]}
    assert names["eta"]["meaning"] == "step size" and names["eta"]["unit"] == "[f]^-1*[x]^2"
    assert "V <- Lambda" in explicit["matrix_inputs"]
    assert "B <- b+Lambda" in explicit["matrix_inputs"]
    assert doc["forms"]["printed"]["hidden_constants"]
    assert r"\tilde{\mathcal{O}}" in doc["forms"]["printed"]["latex"]
    assert [e["id"] for e in doc["errata"]] == ["even2022.erratum6"]
    assert doc["errata"][0]["check"] == "even2022.E6"


def test_show_one_form_and_text(capsys):
    doc = run_json(capsys, "show", "even2022.theorem3", "--form", "corrected")
    assert list(doc["forms"]) == ["corrected"]
    assert "rho_W <= 1" in doc["forms"]["corrected"]["conditions"]
    code, out, err = run(capsys, "show", "even2022.theorem3")
    assert code == 0
    assert "[corrected]" in out and "erratum even2022.erratum13" in out


def test_show_unknown_form(capsys):
    code, out, err = run(capsys, "show", "even2022.theorem3", "--form", "proof")
    assert code == 2
    assert ("--form 'proof': even2022.theorem3 has no such form; expected one of printed, "
            "explicit, corrected") in one_error_line(err, "show")


def test_eval_without_form_on_a_result_with_no_printed_form(capsys):
    code, out, err = run(capsys, "eval", "scott2024.theorem3_1_T_min", "c=1", "k=1")
    assert code == 2
    assert ("scott2024.theorem3_1_T_min has no printed form (the default); give --form with "
            "one of corrected") in one_error_line(err, "eval")


# ----------------------------------------------------------------------------- eval
def test_eval_json_keys_and_value(capsys):
    doc = run_json(capsys, "eval", "even2022.theorem2", "--form", "explicit", "eta=0.1", *AFO)
    assert set(doc) == EVAL_KEYS
    assert doc["id"] == "even2022.theorem2" and doc["form"] == "explicit"
    want = thm2_explicit(0.1, 1, 2, 0.5, 20, 1, 0.4, 0.05)
    assert doc["value"] == pytest.approx(want, rel=1e-14)
    assert doc["hidden_constants"] == []
    assert doc["inputs"] == {"B": 0.05, "Delta0": 1.0, "K": 20.0, "L": 2.0, "V": 0.4,
                             "eta": 0.1, "mu": 1.0, "sigma2": 0.5}


def test_eval_expression_values_and_hidden(capsys):
    doc = run_json(capsys, "eval", "even2022.theorem2", "mu=1", "L=2*mu", "sigma2=1/2",
                   "K=10^2", "Delta0=exp(0)", "V=1/4", "B=0")
    assert set(doc) == EVAL_KEYS
    assert doc["form"] == "printed"
    want = math.exp(-100 / 4) + 2 * 0.5 * 0.25 / 100
    assert doc["value"] == pytest.approx(want, rel=1e-14)
    assert len(doc["hidden_constants"]) == 1 and "Otilde(" in doc["hidden_constants"][0]
    assert doc["inputs"]["L"] == 2.0 and doc["inputs"]["K"] == 100.0


def test_eval_text_output(capsys):
    code, out, err = run(capsys, "eval", "even2022.theorem2", "eta=0.1", *AFO, "--form",
                         "explicit")
    assert code == 0 and err == ""
    want = thm2_explicit(0.1, 1, 2, 0.5, 20, 1, 0.4, 0.05)
    assert out.startswith("even2022.theorem2 [explicit] = ")
    assert float(out.split("=")[1]) == pytest.approx(want, rel=1e-5)


def test_eval_with_matrix_files(capsys, tmp_path):
    lam = np.array([[0.5, 0.5, 0.0], [0.2, 0.6, 0.2], [0.0, 0.0, 1.0]])
    b = np.abs(np.subtract.outer([0.0, 0.3, 1.0], [0.0, 0.3, 1.0]))
    np.save(tmp_path / "lam.npy", lam)
    np.savetxt(tmp_path / "b.csv", b, delimiter=",")
    doc = run_json(capsys, "eval", "even2022.theorem2", "--form", "explicit", "eta=0.1",
                   "mu=1", "L=2", "sigma2=0.5", "K=20", "Delta0=1",
                   f"Lambda={tmp_path / 'lam.npy'}", f"b={tmp_path / 'b.csv'}")
    assert set(doc) == EVAL_KEYS | {"derived"}
    assert set(doc["derived"]) == {"V", "B"}
    V = (lam**2).sum(axis=1)
    B = (lam * b**2).sum(axis=1)
    assert doc["inputs"]["V"] == pytest.approx(list(V), rel=1e-14)
    assert doc["inputs"]["B"] == pytest.approx(list(B), rel=1e-14)
    want = thm2_explicit(0.1, 1.0, 2.0, 0.5, 20, 1.0, V, B)
    assert isinstance(doc["value"], list) and len(doc["value"]) == 3
    assert doc["value"] == pytest.approx(list(want), rel=1e-14)


@pytest.mark.parametrize("suffix", [".npy", ".csv"])
def test_bias_file_gives_per_agent_counts(capsys, tmp_path, suffix):
    p = np.array([0.0, 0.05, 0.2, 1.0])
    b = np.abs(p[:, None] - p[None, :])
    path = tmp_path / f"b{suffix}"
    if suffix == ".npy":
        np.save(path, b)
    else:
        np.savetxt(path, b, delimiter=",")
    doc = run_json(capsys, "eval", "even2022.theorem2_part2", "--form", "explicit", f"b={path}",
                   "mu=1", "L=2", "sigma2=1", "eps=0.01", "Delta0=1")
    counts = (b**2 <= 0.01 / 2).sum(axis=1)
    assert doc["inputs"]["Neps"] == list(counts.astype(float))
    kappa = 2.0
    want = np.ceil(np.maximum(2 * kappa, 2 * kappa / (0.01 * counts)) * np.log(400))
    assert doc["value"] == list(want)
    assert "Neps" in doc["derived"]


def test_eval_scalar_b(capsys):
    doc = run_json(capsys, "eval", "even2022.lemma4", "b=0.3", "mu=1")
    assert doc["value"] == pytest.approx(0.045)


# ----------------------------------------------------------------------------- solve
def test_solve_for_K(capsys):
    doc = run_json(capsys, "solve", "even2022.theorem2", "--form", "explicit", "--for", "K",
                   "--target", "0.05", "eta=0.1", "mu=1", "L=2", "sigma2=0.1", "Delta0=1",
                   "V=0.3", "B=0.01")
    assert EVAL_KEYS <= set(doc)
    assert doc["solved_for"] == "K" and doc["target"] == 0.05
    k = doc["value"]
    assert k == int(k)
    assert thm2_explicit(0.1, 1, 2, 0.1, k, 1, 0.3, 0.01) <= 0.05
    assert thm2_explicit(0.1, 1, 2, 0.1, k - 1, 1, 0.3, 0.01) > 0.05
    assert "K" not in doc["inputs"]


def test_solve_target_expression_and_text(capsys):
    code, out, err = run(capsys, "solve", "even2022.lemma6", "--for", "T", "--target",
                         "2*eta*L*sigma2/mu", "eta=0.01", "mu=1", "L=3", "sigma2=2",
                         "Delta0=10")
    assert code == 0 and err == ""
    assert out.startswith("even2022.lemma6 [printed]: smallest T with value <= 0.12: ")
    t = int(float(out.rsplit(":", 1)[1]))
    f = lambda T: math.exp(-0.01 * T) * 10 + 0.06  # noqa: E731
    assert f(t) <= 0.12 < f(t - 1)


def test_solve_bad_target(capsys):
    code, out, err = run(capsys, "solve", "even2022.lemma6", "--for", "T", "--target", "x/2",
                         "eta=0.01", "mu=1", "L=3", "sigma2=2", "Delta0=10")
    assert code == 2
    assert "--target: unknown name 'x'" in one_error_line(err, "solve")


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "argv, pieces",
    [
        (["eval", "even2022.theorem3", "--form", "corrected", "eta=1/(2*L)", "mu=1", "L=2",
          "sigma2=1", "K=10", "F0=1", "SumLam2=2", "BiasSum=0", "N=4", "rho_W=1.01"],
         ["condition eta <= 1/(2*L*rho_W)", "eta=0.25", "rho_W=1.01"]),
        (["eval", "even2022.lemma6", "eta=1/L", "mu=1", "L=2", "sigma2=1", "T=10",
          "Delta0=1"], ["condition eta <= 1/(2*L)", "eta=0.5", "L=2"]),
    ],
)
def test_condition_violation_is_one_line_and_status_2(capsys, argv, pieces):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    line = one_error_line(err, argv[0])
    for p in pieces:
        assert p in line, (p, line)


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "even2022.lemma6", "--for", "T", "--target", "1", "eta=0.3", "mu=1", "L=2",
         "sigma2=1", "Delta0=1"],
        ["solve", "even2022.theorem3", "--form", "corrected", "--for", "K", "--target", "0.5",
         "eta=0.3", "mu=1", "L=2", "sigma2=1", "F0=1", "SumLam2=2", "BiasSum=0", "N=4",
         "rho_W=1"],
    ],
)
def test_solve_condition_violation_is_an_error(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    line = one_error_line(err, "solve")
    assert "condition eta <= 1/(2*L" in line and "eta=0.3" in line


@pytest.mark.parametrize(
    "argv, pieces",
    [
        (["eval", "even2022.lemma6", "mu"], ["expected name=value, got 'mu'"]),
        (["eval", "even2022.lemma6", "2mu=1"], ["expected name=value, got '2mu=1'"]),
        (["eval", "even2022.lemma6", "mu=1", "mu=2"], ["mu is given twice"]),
        (["eval", "even2022.lemma6", "mu=1+"], ["mu: expected a value"]),
        (["eval", "even2022.lemma6", "mu=__import__('os')"], ["unexpected character"]),
        (["eval", "even2022.lemma6", "x=y", "y=x"], ["circular definitions among x, y"]),
        (["eval", "even2022.theorm2"], ["unknown result 'even2022.theorm2'",
                                        "did you mean even2022.theorem2"]),
        (["eval", "even2022.lemma6", "eta=0.1", "mu=1", "L=2", "sigma2=1", "T=10"],
         ["needs: Delta0 (initial excess error"]),
        (["eval", "even2022.lemma6", "eta=0.1", "mu=1", "L=2", "sigma2=1", "T=10", "Delta0=1",
          "foo=3"], ["unexpected input(s) foo"]),
        (["eval", "even2022.lemma6", "eta=0.1", "mu=-1", "L=2", "sigma2=1", "T=10",
          "Delta0=1"], ["mu=-1 is outside its domain"]),
        (["eval", "even2022.lemma6", "eta=0.1", "mu=1", "L=2", "sigma2=1", "T=2.5",
          "Delta0=1"], ["T=2.5 is outside its domain: expected an integer >= 1"]),
        (["eval", "even2022.theorem3", "Lambda=/nonexistent/lam.npy"],
         ["Lambda file '/nonexistent/lam.npy' does not exist"]),
        (["solve", "even2022.lemma6", "--for", "K", "--target", "1", "eta=0.1", "mu=1", "L=2",
          "sigma2=1", "Delta0=1"], ["K is not an input of even2022.lemma6"]),
        (["complexity", "--paper", "nope", "mu=1"], ["no complexity comparison for paper "
                                                     "'nope'"]),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv, pieces):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    line = one_error_line(err, argv[0])
    for p in pieces:
        assert p in line, (p, line)


def test_non_stochastic_lambda_names_the_row(capsys, tmp_path):
    lam = np.full((3, 3), 1 / 3)
    lam[2] = [0.5, 0.2, 0.1]
    np.savetxt(tmp_path / "lam.csv", lam, delimiter=",")
    code, out, err = run(capsys, "eval", "even2022.theorem3", f"Lambda={tmp_path / 'lam.csv'}",
                         "mu=1", "L=2", "sigma2=1", "K=10", "F0=1", "BiasSum=0")
    assert code == 2 and out == ""
    assert "Lambda must be row-stochastic: row 2 sums to 0.8" in one_error_line(err, "eval")


def test_unreadable_and_wrong_type_matrix_files(capsys, tmp_path):
    (tmp_path / "bad.csv").write_text("1,2\n3,x\n")
    code, _, err = run(capsys, "eval", "even2022.theorem3", f"Lambda={tmp_path / 'bad.csv'}")
    assert code == 2 and "line 2: expected numbers separated by commas, found '3,x'" in (
        one_error_line(err, "eval"))
    (tmp_path / "m.json").write_text("[[1]]")
    code, _, err = run(capsys, "eval", "even2022.theorem3", f"Lambda={tmp_path / 'm.json'}")
    assert code == 2 and "expected a .npy or .csv file" in one_error_line(err, "eval")


# ----------------------------------------------------------------------------- complexity
def test_complexity_json_rows_match_direct_evaluation(capsys):
    vals = dict(mu=1.0, L=2.0, sigma2=1.0, eps=0.01, Delta0=1.0, N=4, Neps=2, invN_mean=0.5,
                rho_W=1.0)
    doc = run_json(capsys, "complexity", "--paper", "even2022",
                   *[f"{k}={v}" for k, v in vals.items()])
    assert doc["paper"] == "even2022"
    rows = {r["method"]: r for r in doc["rows"]}
    assert set(rows) == {"no collaboration (SGD)", "AFO / WGA", "AFA (printed)",
                         "AFA (corrected)", LOWER_PRINTED, LOWER_CONSISTENT}
    mu, L, s2, eps, d0, n = 1.0, 2.0, 1.0, 0.01, 1.0, 4
    sgd = math.ceil(max(3 * L * s2 / (eps * mu**2), 2 * L / mu) * math.log(3 * d0 / (2 * eps)))
    afo = math.ceil(max(2 * L / mu, 2 * (L / mu) * s2 / (mu * eps * 2)) * math.log(4 * d0 / eps))
    afa_p = 2 * max((L / mu) * s2 / (eps * mu) * 0.5, L / mu) * math.log(d0 / eps)
    afa_c = math.ceil(max(2 * L / mu, 4 * (L / mu) * s2 * 0.5 / (mu * eps))
                      * math.log(4 * d0 / eps))
    lower = s2 / (mu * eps * 2)
    assert rows["no collaboration (SGD)"]["oracle_calls"] == sgd
    assert rows["no collaboration (SGD)"]["gradients"] == sgd * n
    assert rows["AFO / WGA"]["oracle_calls"] == afo
    assert rows["AFO / WGA"]["gradients"] == afo * n * n
    assert rows["AFA (printed)"]["oracle_calls"] == pytest.approx(afa_p, rel=1e-14)
    assert rows["AFA (printed)"]["guaranteed"] is False
    assert rows["AFA (corrected)"]["oracle_calls"] == afa_c
    assert rows["AFA (corrected)"]["gradients"] == afa_c * n
    for name in (LOWER_PRINTED, LOWER_CONSISTENT):  # the same given N_i^eps: the same count
        assert rows[name]["oracle_calls"] == pytest.approx(lower, rel=1e-14)
        assert rows[name]["hidden_constants"]
        assert rows[name]["relation"] == ">="
    assert rows[LOWER_PRINTED]["form"] == "printed"
    assert rows[LOWER_CONSISTENT]["form"] == "corrected"
    # the same numbers as evaluating each result directly
    for row in doc["rows"]:
        r = get(row["result"])
        full = dict(vals, F0=1.0, r=1 / math.sqrt(mu))  # Theorem 1 sets mu = 1/r^2
        given = {k: v for k, v in full.items() if k in r.inputs(row["form"])}
        assert row["oracle_calls"] == pytest.approx(evaluate(r, row["form"], **given).value,
                                                    rel=1e-14)
    assert doc["cheapest"] == min(
        (r for r in doc["rows"] if r["guaranteed"] and r["algorithm"] != "lower"),
        key=lambda r: r["gradients"])["method"]


def test_complexity_with_bias_matrix_gives_per_agent_rows(capsys, tmp_path):
    p = np.array([0.0, 0.05, 0.2, 0.21, 3.0])
    b = np.abs(p[:, None] - p[None, :])
    np.save(tmp_path / "b.npy", b)
    doc = run_json(capsys, "complexity", "--paper", "even2022", f"b={tmp_path / 'b.npy'}",
                   "mu=1", "L=2", "sigma2=1", "eps=0.01", "Delta0=1")
    rows = {r["method"]: r for r in doc["rows"]}
    afo = rows["AFO / WGA"]
    counts = (b**2 <= 0.005).sum(axis=1)
    want = np.ceil(np.maximum(4.0, 4.0 / (0.01 * counts)) * np.log(400))
    assert afo["oracle_calls"] == list(want)
    assert afo["gradients"] == max(want) * 25
    assert afo["note"].startswith("per agent")
    # the lower bound as printed counts b^2 <= 4 mu eps; its proof's instance b^2 < 36 mu eps
    n4 = (b**2 <= 4 * 0.01).sum(axis=1)
    n36 = (b**2 < 36 * 0.01).sum(axis=1)
    assert list(n4) != list(n36)
    assert rows[LOWER_PRINTED]["oracle_calls"] == pytest.approx(list(1 / (0.01 * n4)),
                                                                rel=1e-14)
    assert rows[LOWER_CONSISTENT]["oracle_calls"] == pytest.approx(list(1 / (0.01 * n36)),
                                                                   rel=1e-14)
    afa = rows["AFA (printed)"]
    inv = np.mean(1 / (b**2 <= 0.01).sum(axis=1))
    assert afa["oracle_calls"] == pytest.approx(2 * max(2 / 0.01 * inv, 2) * math.log(100))


def test_complexity_algorithm_filter_and_text(capsys):
    args = ["complexity", "--paper", "even2022", "mu=1", "L=2", "sigma2=1", "eps=0.01",
            "Delta0=1", "N=4", "Neps=2", "invN_mean=0.5", "rho_W=1"]
    doc = run_json(capsys, *args, "--algorithm", "afo")
    assert [r["algorithm"] for r in doc["rows"]] == ["afo"]
    code, out, err = run(capsys, *args)
    assert code == 0 and err == ""
    assert "AFO / WGA" in out and "lower bound" in out and "cheapest in gradients:" in out
    code, out, err = run(capsys, *args, "--algorithm", "zzz")
    assert code == 2 and "unknown algorithm 'zzz'" in one_error_line(err, "complexity")


# ----------------------------------------------------------------------------- subprocess
def _console_script() -> list[str]:
    exe = Path(sys.executable).with_name("pflbounds")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("pflbounds")
    if found:
        return [found]
    return [sys.executable, "-m", "pflbounds.cli"]


def test_console_script_eval_and_error():
    cmd = _console_script()
    ok = subprocess.run(cmd + ["eval", "even2022.theorem2", "--form", "explicit", "eta=0.1",
                               *AFO, "--json"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    doc = json.loads(ok.stdout)
    assert set(doc) == EVAL_KEYS
    assert doc["value"] == pytest.approx(thm2_explicit(0.1, 1, 2, 0.5, 20, 1, 0.4, 0.05),
                                         rel=1e-14)
    bad = subprocess.run(cmd + ["eval", "even2022.lemma6", "eta=1/L", "mu=1", "L=2",
                                "sigma2=1", "T=10", "Delta0=1"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stdout == ""
    lines = bad.stderr.strip().split("\n")
    assert len(lines) == 1 and "condition eta <= 1/(2*L)" in lines[0]


def test_eval_multipart_form(capsys):
    doc = run_json(capsys, "eval", "even2022.corollary2", "nu2=1", "d_eff=2", "Delta2=0.5",
                   "eps=0.1", "L=2", "mu=1", "sigma2=1")
    assert set(doc) == EVAL_KEYS
    assert doc["value"] == {"S": 4.0, "C": 20.0, "KC": 20.0, "K": 2.0}
    assert len(doc["hidden_constants"]) == 4
