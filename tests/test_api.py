"""The Python interface: the same numbers and the same refusals as the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pflbounds
from pflbounds.cli import main
from pflbounds.symbolic import HypothesisError, InputError

ROOT = Path(__file__).resolve().parents[1]
THM2 = {"eta": 0.25, "mu": 1, "L": 2, "Delta0": 1, "sigma2": 1, "V": 0.5, "B": 0.1}


def _cli_value(args, capsys) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def test_import_is_light():
    code = ("import sys, pflbounds\n"
            "print(sorted(m for m in ('sympy', 'numpy', 'pflbounds.api') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "[]"


def test_eval_matches_the_command_line(capsys):
    r = pflbounds.result("even2022.theorem2")
    v = r.eval(form="explicit", K=10, **THM2)
    out = _cli_value(["eval", "even2022.theorem2", "--form", "explicit", "K=10",
                      *(f"{k}={x}" for k, x in THM2.items())], capsys)
    assert f"{v:.6g}" in out


def test_eval_broadcasts_sequences():
    r = pflbounds.result("even2022.theorem2")
    v = r.eval(form="explicit", K=[10, 100], **THM2)
    assert v.shape == (2,) and v[1] < v[0]
    assert v[0] == pytest.approx(r.eval(form="explicit", K=10, **THM2))


def test_solve_is_the_smallest_K():
    r = pflbounds.result("even2022.theorem2")
    vals = {"mu": 1, "L": 4, "Delta0": 1, "sigma2": 1, "V": 0.25, "B": 0}
    K = r.solve("K", target=0.01, form="corrected", **vals)
    assert K == int(K)
    assert r.eval(form="corrected", K=K, **vals) <= 0.01 < r.eval(form="corrected", K=K - 1,
                                                                      **vals)


def test_matrices_from_files_and_arrays_agree():
    r = pflbounds.result("even2022.theorem2")
    vals = {"mu": 1, "L": 4, "K": 500, "Delta0": 1, "sigma2": 1}
    files = r.eval(form="corrected", b=str(ROOT / "examples/b.csv"),
                   Lambda=str(ROOT / "examples/Lambda.csv"), **vals)
    arrays = r.eval(form="corrected", b=np.loadtxt(ROOT / "examples/b.csv", delimiter=","),
                    Lambda=np.loadtxt(ROOT / "examples/Lambda.csv", delimiter=","), **vals)
    assert files.shape == (4,)
    np.testing.assert_array_equal(files, arrays)


@pytest.mark.parametrize(("values", "error", "words"), [
    ({"mu": 3}, InputError, "mu=3 > L=2"),
    ({"eta": 1}, HypothesisError, "condition"),
    ({"K": 0}, InputError, "K=0 is outside its domain"),
])
def test_refusals_are_the_command_line_ones(values, error, words):
    r = pflbounds.result("even2022.theorem2")
    with pytest.raises(error, match=words):
        r.eval(form="explicit", **{**THM2, "K": 10, **values})


def test_bad_matrix_file_is_an_input_error(tmp_path):
    (tmp_path / "b.csv").write_text("0 1\n1 0\n")
    with pytest.raises(InputError, match="separated by commas"):
        pflbounds.result("even2022.theorem2").eval(
            form="corrected", b=str(tmp_path / "b.csv"), mu=1, L=4, K=5, Delta0=1, sigma2=1,
            Lambda=str(ROOT / "examples/Lambda.csv"))


def test_unknown_result_suggests():
    with pytest.raises(KeyError, match="did you mean"):
        pflbounds.result("even2022.theorem22")


def test_views_describe_the_result():
    r = pflbounds.result("even2022.theorem3")
    assert {"printed", "corrected"} <= set(r.forms)
    assert r.inputs["mu"].meaning == "strong-convexity constant"
    assert any(e.check_id == "even2022.P11" for e in r.errata)
    kinds = {h.kind for h in r.hypotheses("corrected")}
    assert kinds == {"domain", "instance", "condition"}
    latex = r._repr_latex_()
    assert latex.startswith("$$") and r"\frac" in latex and "[corrected]" in latex


def test_part_of_a_multi_part_form():
    r = pflbounds.result("even2022.corollary2")
    form = next(f for f, fm in r.forms.items() if fm.parts)
    parts = [p for p in r.forms[form].exprs]
    with pytest.raises(InputError, match="part 'nope'"):
        r.eval(form=form, part="nope", **{n: 1.0 for n in r.inputs_of(form)})
    assert parts


def test_complexity_table_has_a_row_per_method():
    t = pflbounds.complexity("even2022", mu=1, L=4, sigma2=1, eps=0.01, Delta0=1,
                             b=str(ROOT / "examples/b.csv"))
    rows = t.to_dict("records") if hasattr(t, "to_dict") else list(t)
    methods = [row["method"] for row in rows]
    assert any("AFO" in m for m in methods) and any("lower bound" in m for m in methods)
    html = t._repr_html_()
    assert "<table" in html and "AFO" in html


def test_table_without_pandas_renders_html():
    from pflbounds.api import Table

    t = Table([{"method": "a", "rounds": 3.0}], question="q?")
    assert "<caption>q?</caption>" in t._repr_html_() and "<td>3</td>" in t._repr_html_()


def test_check_and_validate_return_outcomes(tmp_path, monkeypatch):
    monkeypatch.setenv("PFLBOUNDS_CACHE_DIR", str(tmp_path / "cache"))
    o = pflbounds.check("even2022.P10", quick=True, cache=False)
    assert o.check_id == "even2022.P10" and o.as_expected
    suite = tmp_path / "one.toml"
    suite.write_text('name = "one"\nseed = 1\ngrid = "quick"\n[[checks]]\n'
                     'id = "even2022.P10"\n')
    outs = pflbounds.validate(str(suite), cache=False)
    assert [x.check_id for x in outs] == ["even2022.P10"]
    assert outs.skipped == {} and outs.summary.startswith("1 check: ")
    assert outs.summary.endswith(", 0 regressions")
    assert f"<caption>{outs.summary}</caption>" in outs._repr_html_()
