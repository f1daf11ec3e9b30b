"""Bad inputs through the command line: each one exits 2 with exactly one line on stderr that
names what was wrong, never a traceback, a warning or a number on stdout.

The cases run through :func:`pflbounds.cli.main` in this process (the same argument parsing
and error handling as the console script, a hundred times faster); a few also run through the
console script to show that the real entry point behaves the same.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_fuzz_helpers import assert_one_line_errors

LEMMA6 = ["eta=0.1", "mu=1", "L=2", "sigma2=1", "T=10", "Delta0=1"]
THM2 = ["eta=0.1", "mu=1", "L=2", "sigma2=0.5", "K=20", "Delta0=1", "V=0.4", "B=0.05"]
THM3C = ["eta=0.1", "mu=1", "L=2", "sigma2=1", "K=10", "F0=1", "SumLam2=2", "BiasSum=0", "N=4",
         "rho_W=1"]
CPLX = ["mu=1", "L=2", "sigma2=1", "eps=0.01", "Delta0=1", "N=4", "Neps=2", "invN_mean=0.5",
        "rho_W=1"]


def _without(items: list[str], name: str) -> list[str]:
    return [i for i in items if not i.startswith(name + "=")]


def _with(items: list[str], name: str, value: str) -> list[str]:
    return [*_without(items, name), f"{name}={value}"]


# ----------------------------------------------------------------------------- files
@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    """Bad matrix, suite and results files, one of each kind."""
    d = tmp_path_factory.mktemp("bad")
    np.save(d / "complex.npy", np.eye(3) * (1 + 1j))
    np.save(d / "vector.npy", np.ones(3))
    np.save(d / "strings.npy", np.array([["a", "b"], ["c", "d"]]))
    np.save(d / "empty.npy", np.zeros((0, 0)))
    np.save(d / "nan.npy", np.array([[0.0, np.nan], [1.0, 0.0]]))
    np.save(d / "rect.npy", np.ones((2, 3)) / 3)
    np.save(d / "object.npy", np.array([{}, {}]), allow_pickle=True)
    np.save(d / "b4.npy", np.abs(np.subtract.outer(np.arange(4.0), np.arange(4.0))))
    np.save(d / "lam3.npy", np.full((3, 3), 1 / 3))
    (d / "garbage.npy").write_bytes(b"not a numpy file at all")
    (d / "truncated.npy").write_bytes(b"\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran")
    texts = {
        "empty.csv": "",
        "blank.csv": "\n\n  \n",
        "spaces.csv": "0 1\n1 0\n",
        "tabs.csv": "0\t1\n1\t0\n",
        "semicolons.csv": "0;1\n1;0\n",
        "header.csv": "a,b\n0,1\n1,0\n",
        "ragged.csv": "0,1\n1\n",
        "word.csv": "0,1\n1,x\n",
        "nan.csv": "0,nan\n1,0\n",
        "inf.csv": "0,inf\n1,0\n",
        "rect.csv": "0,1,2\n1,0,2\n",
        "negative_b.csv": "0,-1\n-1,0\n",
        "diagonal_b.csv": "1,1\n1,0\n",
        "rows_lambda.csv": "0.5,0.5\n0.3,0.6\n",
        "negative_lambda.csv": "1.2,-0.2\n0,1\n",
        "ok_b.csv": "0,1\n1,0\n",
        "ok_lambda.csv": "0.5,0.5\n0.5,0.5\n",
        "lam.json": "[[1]]",
        "suite_bad.toml": "name = \n",
        "suite_unknown.toml": 'name = "u"\n[[checks]]\nid = "even2022.P99"\n',
        "suite_key.toml": 'name = "k"\ncolour = "red"\n[[checks]]\nid = "even2022.P1"\n',
        "suite_grid.toml": 'name = "g"\ngrid = "huge"\n[[checks]]\nid = "even2022.P1"\n',
        "suite_nochecks.toml": 'name = "n"\n',
    }
    for name, text in texts.items():
        (d / name).write_text(text)
    (d / "binary.csv").write_bytes(b"\xff\xfe\x00\x01\x02")
    (d / "binary.toml").write_bytes(b"\xff\xfe\x00\x01binary")
    (d / "somedir").mkdir()
    (d / "results").mkdir()
    (d / "results" / "outcomes.json").write_text('{"outcomes": [{"check_id": "even2')
    return d


def _cases(d: Path) -> list[tuple[list[str], str]]:
    """(argv, a piece the error line must contain)."""
    c: list[tuple[list[str], str]] = []
    add = c.append

    # usage: commands, options, required arguments
    add(([], "required: COMMAND"))
    add((["nosuch"], "invalid choice: 'nosuch'"))
    add((["--bogus"], "pflbounds: error"))
    add((["eval"], "required: result_id"))
    add((["show"], "required: result_id"))
    add((["solve", "even2022.lemma6", "--target", "1", *LEMMA6], "required: --for"))
    add((["solve", "even2022.lemma6", "--for", "T", *LEMMA6], "required: --target"))
    add((["eval", "even2022.lemma6", "--bogus", *LEMMA6], "unrecognized arguments: --bogus"))
    add((["show", "even2022.lemma6", "extra"], "unrecognized arguments: extra"))
    add((["list", "--paper"], "argument --paper: expected one argument"))
    add((["list", "extra"], "unrecognized arguments: extra"))
    add((["complexity", "mu=1"], "required: --paper"))
    add((["check"], "required: check_id"))
    add((["check", "even2022.P11", "--replicas", "0"], "--replicas: expected an integer >= 1"))
    add((["check", "even2022.P11", "--replicas", "-5"], "expected an integer >= 1, got '-5'"))
    add((["check", "even2022.P11", "--replicas", "many"], "got 'many'"))
    add((["check", "even2022.P11", "--seed", "-1"], "--seed: expected an integer >= 0"))
    add((["check", "even2022.P11", "--seed", "1.5"], "got '1.5'"))
    add((["check", "even2022.P11", "--jobs", "0"], "--jobs: expected an integer >= 1"))

    # unknown ids and papers, with suggestions
    add((["show", "theorem2"], "did you mean even2022.theorem2"))
    add((["eval", "LEMMA6", *LEMMA6], "did you mean even2022.lemma6"))
    add((["eval", "even2022.theorm2", *THM2], "did you mean even2022.theorem2"))
    add((["solve", "even2022.lemma66", "--for", "T", "--target", "1"], "unknown result"))
    add((["show", "even2022"], "'even2022' is a paper"))
    add((["show", "nope.theorem1"], "unknown result 'nope.theorem1'"))
    add((["show", ""], "unknown result ''"))
    add((["list", "--paper", "nope"], "unknown paper 'nope'"))
    add((["list", "--paper", "Even2022"], "unknown paper 'Even2022'"))
    add((["check", "P11"], "unknown check id 'P11'; did you mean"))
    add((["check", "p7"], "unknown check id 'p7'; did you mean"))
    add((["check", "even2022.P111"], "unknown check id 'even2022.P111'"))
    add((["check", "even2021.P11"], "unknown check id"))
    add((["complexity", "--paper", "nope", *CPLX], "no complexity comparison for paper 'nope'"))

    # forms and parts
    for form in ("explict", "", "PRINTED", "printed ", "proof2", "correct"):
        add((["eval", "even2022.theorem2", "--form", form, *THM2], f"--form {form!r}"))
    add((["solve", "even2022.lemma6", "--form", "explict", "--for", "T", "--target", "1",
          *_without(LEMMA6, "T")], "expected one of printed"))
    add((["show", "even2022.theorem3", "--form", "proof"], "expected one of printed"))
    add((["show", "even2022.theorem2", "--form", ""], "--form ''"))
    add((["eval", "even2022.theorem2", "--part", "7", *THM2], "has a single part"))
    add((["eval", "even2022.corollary2", "--form", "corrected", "--part", "7", "mu=1"],
         "has parts S, KC, K"))
    add((["eval", "even2022.corollary2", "--form", "corrected", "--part", "C", "mu=1"],
         "--part 'C'"))
    add((["solve", "even2022.corollary2", "--form", "corrected", "--for", "C", "--target", "1",
          "mu=1"], "name the one to solve with --part"))
    add((["solve", "even2022.theorem2", "--part", "x", "--for", "K", "--target", "1",
          *_without(THM2, "K")], "has a single part"))

    # name=value words
    for word, piece in [
        ("mu", "expected name=value, got 'mu'"), ("=1", "expected name=value, got '=1'"),
        ("mu=", "expected name=value, got 'mu='"), ("2mu=1", "got '2mu=1'"),
        ("mu-1=1", "got 'mu-1=1'"), ("mu.x=1", "got 'mu.x=1'"), ("mu =", "got 'mu ='"),
        ("mu=1+", "mu: expected a value"), ("mu=(1", "expected ')'"),
        ("mu=1)", "unexpected ')'"), ("mu=abc", "unknown name 'abc'"),
        ("mu=1e-400", "underflows to 0"), ("mu=0.1e-330", "underflows to 0"),
        ("mu=__import__('os')", "unexpected character"), ("mu=1;2", "unexpected character ';'"),
        ("mu=1..2", "unexpected"), ("mu=log(-1)", "undefined"), ("mu=sqrt(-1)", "undefined"),
        ("mu=1/0", "division by zero"), ("mu=(-8)^(1/3)", "not a real number"),
        ("mu=exp(1000)", "exp"), ("mu=foo(1)", "unknown function 'foo'"),
        ("mu=max()", "unexpected ')'"), ("mu=1 2", "unexpected '2'"),
        ("mu=mu", "mu"), ("mu=nan", "unknown name 'nan'"), ("mu=1,2", "unexpected ','"),
        ("mu=0x10", "unexpected"), ("mu=1_000", "unexpected"), ("mu=[1]", "unexpected"),
        ("mu=\u00b5", "unexpected character"), ("mu=1e", "unexpected"),
    ]:
        add((["eval", "even2022.lemma6", *_without(LEMMA6, "mu"), word], piece))
    add((["eval", "even2022.lemma6", *LEMMA6, "mu=2"], "mu is given twice"))
    add((["eval", "even2022.lemma6", "x=y", "y=x"], "circular definitions among x, y"))

    # domains
    for name, value in [("mu", "-1"), ("mu", "0"), ("mu", "inf"), ("L", "0"), ("L", "-2"),
                        ("sigma2", "-1"), ("Delta0", "-0.5"), ("eta", "0"), ("eta", "-0.1"),
                        ("T", "0"), ("T", "2.5"), ("T", "-3"), ("T", "inf")]:
        add((["eval", "even2022.lemma6", *_with(LEMMA6, name, value)],
             f"{name}={float(value):g} is outside its domain"))
    for name, value in [("K", "0"), ("K", "1.5"), ("V", "-0.1"), ("B", "-1")]:
        add((["eval", "even2022.theorem2", "--form", "explicit", *_with(THM2, name, value)],
             f"{name}={float(value):g} is outside its domain"))
    add((["eval", "even2022.theorem3", "--form", "corrected", *_with(THM3C, "N", "2.5")],
         "N=2.5 is outside its domain"))

    # rho(Lambda Lambda^T) >= 1 for every row-stochastic Lambda: rho_W < 1 is no instance
    add((["eval", "even2022.theorem3", "--form", "corrected",
          *_with(_with(THM3C, "rho_W", "0.5"), "eta", "0.9")], "rho_W=0.5 is outside its domain"))
    add((["eval", "even2022.eq7", "--form", "corrected", "rho_W=0.8", "mu=1", "L=2", "K=10",
          "DeltaLam0=1", "sigma2=1", "N=4", "SumLam2=2"], "expected a number >= 1"))
    add((["solve", "even2022.theorem3", "--form", "corrected", "--for", "K", "--target", "1",
          *_with(_without(THM3C, "K"), "rho_W", "0")], "rho_W=0 is outside its domain"))

    # mu > L: no mu-strongly convex, L-smooth function has it
    add((["eval", "even2022.lemma6", *_with(LEMMA6, "mu", "3")], "mu=3 > L=2"))
    add((["eval", "even2022.theorem2", "--form", "explicit", *_with(THM2, "L", "0.5")],
         "mu=1 > L=0.5"))
    add((["solve", "even2022.lemma6", "--for", "T", "--target", "1",
          *_with(_without(LEMMA6, "T"), "mu", "5")], "mu=5 > L=2"))

    # missing and unexpected inputs
    add((["eval", "even2022.lemma6", *_without(LEMMA6, "Delta0")], "needs: Delta0"))
    add((["eval", "even2022.lemma6"], "even2022.lemma6 [printed] needs:"))
    add((["eval", "even2022.theorem2", "--form", "explicit", *_without(THM2, "V")],
         "V (sum_j lambda_ij^2"))
    add((["eval", "even2022.lemma6", *LEMMA6, "foo=3"], "unexpected input(s) foo"))
    add((["eval", "even2022.lemma6", *LEMMA6, "K=3"], "unexpected input(s) K"))

    # side conditions
    add((["eval", "even2022.lemma6", *_with(LEMMA6, "eta", "1/L")], "condition eta <= 1/(2*L)"))
    add((["eval", "even2022.theorem2", "--form", "explicit", *_with(THM2, "eta", "1")],
         "condition eta <= 1/L"))
    add((["eval", "even2022.theorem3", "--form", "corrected", *_with(THM3C, "rho_W", "1.01")],
         "rho_W=1.01"))
    add((["eval", "even2022.theorem3", "--form", "corrected", *_with(THM3C, "eta", "0.3")],
         "condition eta <= 1/(2*L*rho_W)"))

    # solve: the unknown, the target, unreachable targets
    add((["solve", "even2022.lemma6", "--for", "K", "--target", "1", *_without(LEMMA6, "T")],
         "K is not an input of even2022.lemma6"))
    add((["solve", "even2022.lemma6", "--for", "T", "--target", "1", *LEMMA6],
         "T is the unknown"))
    add((["solve", "even2022.lemma6", "--for", "T", "--target", "x/2",
          *_without(LEMMA6, "T")], "--target: unknown name 'x'"))
    add((["solve", "even2022.lemma6", "--for", "T", "--target", "", *_without(LEMMA6, "T")],
         "--target"))
    add((["solve", "even2022.lemma6", "--for", "T", "--target", "1/0",
          *_without(LEMMA6, "T")], "division by zero"))
    add((["solve", "even2022.lemma6", "--for", "T", "--target", "0.001",
          *_without(LEMMA6, "T")], "target 0.001 is below the floor of even2022.lemma6"))
    add((["solve", "even2022.theorem2", "--form", "explicit", "--for", "K", "--target", "0.01",
          *_without(THM2, "K")], "is below the floor"))
    add((["solve", "even2022.lemma6", "--for", "eta", "--target", "0.001",
          *_without(LEMMA6, "eta")], "smallest value over eta"))

    # matrix files
    for name, piece in [
        ("complex.npy", "holds complex numbers"), ("vector.npy", "has shape (3,)"),
        ("strings.npy", "expected a real matrix"), ("empty.npy", "has shape (0, 0)"),
        ("nan.npy", "entry (0, 1) is nan"), ("rect.npy", "has shape (2, 3)"),
        ("object.npy", "could not be read"), ("garbage.npy", "is not a .npy file"),
        ("truncated.npy", "could not be read"), ("empty.csv", "is empty"),
        ("blank.csv", "is empty"), ("spaces.csv", "separated by commas"),
        ("tabs.csv", "separated by commas"), ("semicolons.csv", "separated by commas"),
        ("header.csv", "no header line"), ("ragged.csv", "rows have different lengths"),
        ("word.csv", "line 2"), ("nan.csv", "entry (0, 1) is nan"),
        ("inf.csv", "entry (0, 1) is inf"), ("rect.csv", "has shape (2, 3)"),
        ("binary.csv", "is not a text file"), ("lam.json", "expected a .npy or .csv file"),
        ("somedir", "is a directory"), ("missing.csv", "does not exist"),
    ]:
        add((["eval", "even2022.theorem3", "--form", "corrected", f"Lambda={d / name}",
              *_without(_without(_without(THM3C, "SumLam2"), "rho_W"), "N")], piece))
    base = ["eval", "even2022.theorem2", "--form", "explicit",
            *_without(_without(THM2, "V"), "B")]
    add(([*base, f"b={d / 'negative_b.csv'}", f"Lambda={d / 'ok_b.csv'}"], "non-negative"))
    add(([*base, f"b={d / 'diagonal_b.csv'}", f"Lambda={d / 'ok_lambda.csv'}"],
         "zero diagonal"))
    add(([*base, f"Lambda={d / 'rows_lambda.csv'}", f"b={d / 'ok_b.csv'}"],
         "row 1 sums to 0.9"))
    add(([*base, f"Lambda={d / 'negative_lambda.csv'}", f"b={d / 'ok_b.csv'}"],
         "non-negative"))
    add(([*base, f"b={d / 'b4.npy'}", f"Lambda={d / 'lam3.npy'}"],
         "b is 4 x 4, Lambda is 3 x 3"))
    # a value that its matrix implies otherwise: a conflict, never a silent choice
    add((["eval", "even2022.theorem2", "--form", "explicit", *_without(THM2, "B"),
          f"Lambda={d / 'lam3.npy'}", f"b={d / 'b4.npy'}"], "differ in size"))
    add((["eval", "even2022.theorem2", "--form", "explicit",
          *_without(_without(THM2, "B"), "V"), f"Lambda={d / 'lam3.npy'}"], "needs: B"))
    add((["eval", "even2022.theorem2", "--form", "explicit", *_with(THM2, "V", "0.9"),
          f"Lambda={d / 'lam3.npy'}"], "V=0.9 conflicts with Lambda"))
    add((["eval", "even2022.theorem3", "--form", "corrected",
          *_with(_without(_without(THM3C, "SumLam2"), "rho_W"), "N", "5"),
          f"Lambda={d / 'lam3.npy'}"], "N=5 conflicts with Lambda"))
    add((["eval", "even2022.theorem3", "--form", "corrected", *_with(THM3C, "SumLam2", "2"),
          f"Lambda={d / 'lam3.npy'}"], "SumLam2=2 conflicts with Lambda, which give SumLam2=1"))

    # complexity
    add((["complexity", "--paper", "even2022", "mu=1"], "needs more inputs"))
    add((["complexity", "--paper", "even2022"], "needs more inputs"))
    add((["complexity", "--paper", "even2022", *_without(CPLX, "eps")], "eps (target"))
    add((["complexity", "--paper", "even2022", *CPLX, "--algorithm", "zzz"],
         "unknown algorithm 'zzz'"))
    add((["complexity", "--paper", "even2022", *CPLX, "--objective", "mt2"],
         "single objective"))
    add((["complexity", "--paper", "even2022", *CPLX, "T=10"], "give eps, not T"))
    add((["complexity", "--paper", "even2022", *_with(CPLX, "mu", "3")], "mu=3 > L=2"))
    add((["complexity", "--paper", "even2022", *_with(CPLX, "eps", "1e-500")],
         "underflows to 0"))

    # validate: suites that are not there, not suites, or not valid
    add((["validate", "validation/even2021.toml"], "available suites"))
    add((["validate", "even2021"], "suite 'even2021' not found"))
    add((["validate", "/"], "is a directory"))
    add((["validate", str(d / "somedir")], "is a directory"))
    add((["validate", str(d / "results")], "outcomes.json is truncated or not valid JSON"))
    add((["validate", str(d / "results" / "outcomes.json")], "outcomes.json is truncated"))
    add((["validate", str(d / "binary.toml")], "is not text"))
    add((["validate", str(d / "suite_bad.toml")], "invalid TOML"))
    add((["validate", str(d / "suite_unknown.toml")], "even2022.P99"))
    add((["validate", str(d / "suite_key.toml")], "colour"))
    add((["validate", str(d / "suite_grid.toml")], "huge"))
    add((["validate", str(d / "suite_nochecks.toml")], "suite_nochecks.toml"))
    add((["validate", str(d / "ok_b.csv")], "invalid TOML"))
    return c


def test_at_least_150_bad_inputs(files):
    assert len(_cases(files)) >= 150


def test_every_bad_input_is_one_line_exit_2(files, capsys):
    assert_one_line_errors(_cases(files), capsys)


@pytest.mark.parametrize("argv, piece", [
    (["eval", "even2022.theorem2", "--form", "explict", "mu=1"], "--form 'explict'"),
    (["check", "P11"], "unknown check id 'P11'; did you mean"),
    (["validate", "/"], "is a directory"),
])
def test_console_script_bad_input(argv, piece):
    exe = Path(sys.executable).with_name("pflbounds")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "pflbounds.cli"]
    r = subprocess.run(cmd + argv, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and piece in lines[0], r.stderr
