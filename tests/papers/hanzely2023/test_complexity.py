"""The hanzely2023 calculator (``pflbounds complexity --paper hanzely2023``): a
ComplexityTable whose JSON and text give every method's counts, parameters and ratio to
Theorem 6, with one-line errors for bad inputs.

Every expected number is recomputed here from the paper's formulas with numpy (Lemma 1's
constants, Theorems 1, 6, 7, 8, 9), independently of the catalog.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from pflbounds.cli import main
from pflbounds.papers.hanzely2023.complexity import COLUMNS, table
from pflbounds.symbolic import InputError, evaluate, get
from pflbounds.symbolic.complexity import ComplexityTable, complexity_table
from pflbounds.symbolic.evaluate import HypothesisError
from pflbounds.symbolic.loader import load_papers

load_papers()
H = "hanzely2023."


def _table(*args: Any, **kw: Any) -> dict[str, Any]:
    """The calculator's answer as the JSON output gives it."""
    return table(*args, **kw).to_dict()

EXAMPLE = ["Lp=10", "lam=0.1", "Lam=20", "M=20", "n=1000", "eps=1e-6"]
LOG = np.log(1e6)


def _mt2(Lp=10.0, Lcp=40.0, lam=0.1, Lam=20.0, M=20):
    """Lemma 1: the MT2 constants in Assumption-1 normalisation."""
    return {"mu": lam / (2 * M), "Lw": (Lam * Lp + lam) / M, "Lb": (Lp + lam) / M,
            "Lcw": (Lam * Lcp + lam) / M, "Lcb": (Lcp + lam) / M}


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["complexity", "--paper", "hanzely2023", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_issue_example_acd_pfl_json(capsys):
    code, out, _ = _run(capsys, "--objective", "mt2", "--algorithm", "acd-pfl", *EXAMPLE,
                        "--json")
    assert code == 0
    doc = json.loads(out)
    c = _mt2()
    assert doc["constants"]["mu"] == pytest.approx(c["mu"])
    assert doc["constants"]["Lw"] == pytest.approx(c["Lw"])
    assert doc["objective"]["constants_printed"]["Lw"] == pytest.approx(c["Lw"] / 2)
    assert doc["objective"]["conditions"][0]["status"] == "not checked: give mup"
    acd = next(r for r in doc["rows"] if r["algorithm"] == "acd-pfl")
    sw, sb = np.sqrt(c["Lw"]), np.sqrt(c["Lb"])
    assert acd["iterations"] == pytest.approx(np.sqrt((c["Lw"] + c["Lb"]) / c["mu"]) * LOG)
    assert acd["communication"] == pytest.approx(np.sqrt(c["Lw"] / c["mu"]) * LOG)
    assert acd["grad_w"] == acd["communication"]
    assert acd["grad_beta"] == pytest.approx(np.sqrt(c["Lb"] / c["mu"]) * LOG)
    assert acd["grad_w_stochastic"] == pytest.approx(1000 * acd["grad_w"])
    nu = c["mu"] / (sw + sb) ** 2
    theta = (np.sqrt(nu**2 + 4 * nu) - nu) / 2
    assert acd["parameters"] == pytest.approx({"nu": nu, "theta": theta, "eta": 1 / theta,
                                               "p_w": sw / (sw + sb)})
    lb = next(r for r in doc["rows"] if r["algorithm"] == "lower-bound")
    assert lb["communication"] == pytest.approx(np.sqrt(c["Lw"] / c["mu"]) * LOG)
    assert acd["ratio_to_lower_bound"]["communication"] == pytest.approx(1.0)
    assert acd["ratio_to_lower_bound"]["grad_w"] == pytest.approx(1.0)  # the n = 1 remark
    assert lb["grad_beta"] == pytest.approx(np.sqrt(c["Lb"] / c["mu"]) * LOG)
    assert [r["algorithm"] for r in doc["rows"]] == ["acd-pfl", "lower-bound"]


def test_asvrcd_rows_follow_theorems_8_and_9():
    t = _table({"Lp": 10, "Lcp": 40, "lam": 0.1, "Lam": 20, "M": 20, "n": 1000, "eps": 1e-6},
              {}, objective="mt2", algorithm="asvrcd-pfl")
    c, n = _mt2(), 1000
    pw = c["Lcw"] / (c["Lcw"] + c["Lcb"])
    w_row, b_row = t["rows"][:2]
    for row, rho in ((w_row, pw / n), (b_row, (1 - pw) / n)):
        it = (1 / rho + np.sqrt(max(c["Lcw"] / pw, c["Lcb"] / (1 - pw)) / (rho * c["mu"]))) * LOG
        assert row["iterations"] == pytest.approx(it)
        assert row["communication"] == pytest.approx(it * (rho * n + pw))
        assert row["communication_expected"] == pytest.approx(it * (pw + rho))
        assert row["grad_w_stochastic"] == pytest.approx(it * (2 * pw + rho * n))
        assert row["grad_beta_stochastic"] == pytest.approx(it * (2 * (1 - pw) + rho * n))
        assert row["grad_w"] == pytest.approx(row["grad_w_stochastic"] / n)
        Lcal = 2 * (c["Lcw"] + c["Lcb"])
        theta1 = min(0.5, np.sqrt(c["mu"] / (4 * Lcal) * max(0.5, 0.5 / rho)))
        assert row["parameters"]["eta"] == pytest.approx(1 / (4 * Lcal))
        assert row["parameters"]["theta1"] == pytest.approx(theta1)
        assert row["parameters"]["gamma"] == pytest.approx(
            1 / max(2 * c["mu"], 16 * Lcal * theta1))
    t8 = (n + np.sqrt(n * c["Lcw"] / c["mu"])) * LOG
    assert w_row["theorem8"]["communication"] == pytest.approx(t8)
    assert w_row["communication"] == pytest.approx(2 * t8)  # Theorem 9's accounting
    lb = (n + np.sqrt(n * c["Lcw"] / c["mu"])) * LOG  # App. B.8 form
    assert w_row["ratio_to_lower_bound"]["grad_w_stochastic"] == pytest.approx(
        w_row["grad_w_stochastic"] / lb)
    assert t["best"]["grad_w_stochastic"] == w_row["method"]
    # here the n term dominates: rho = p_w/n also spends fewer beta-gradients
    fewer = min((w_row, b_row), key=lambda r: r["grad_beta_stochastic"])
    assert t["best"]["grad_beta_stochastic"] == fewer["method"] == w_row["method"]


def test_lsgd_rows_theorem1_and_theorem5():
    vals = {"mu": 0.1, "Lw": 1.0, "Lb": 2.0, "tau": 5, "B": 2, "M": 10, "sigma2": 1.0,
            "zeta2": 0.5, "eps": 1e-3, "Dw0": 1.0, "Db0": 2.0}
    t = _table(vals, {}, algorithm="lsgd-pfl")
    thm1, thm5 = t["rows"][:2]
    K1 = (max(2.0, 5.0) / 0.1 + 1 / (10 * 2 * 0.1 * 1e-3)
          + 5 / 0.1 * np.sqrt(1.0 * (0.5 + 0.5) / 1e-3))
    assert thm1["iterations"] == pytest.approx(K1)
    assert thm1["communication"] == pytest.approx(K1 / 5)
    assert thm1["grad_w_stochastic"] == pytest.approx(2 * K1)
    eta = min(1 / 8, 1 / 4, 1 / (8 * np.sqrt(3 * np.e) * 4), 1e-3 * 2 * 10 / 8,
              np.sqrt(1e-3 / (32 * np.e * 5 * 4 * (1.5 + 0.5))))
    assert thm5["parameters"]["eta"] == pytest.approx(eta)
    K5 = np.ceil(np.log(2 * 2 * 3 / eta / 1e-3) / (eta * 0.1))
    assert thm5["iterations"] == K5 and thm5["communication"] == np.ceil(K5 / 5)
    assert thm5["hidden_constants"] == [] and thm1["hidden_constants"]


def test_without_objective_and_absent_blocks(capsys):
    t = _table({"mu": 0.01, "Lw": 1.0, "Lb": 0.0, "Lcw": 4.0, "Lcb": 0.0, "n": 100,
               "eps": 1e-3}, {})
    acd = next(r for r in t["rows"] if r["algorithm"] == "acd-pfl")
    assert acd["grad_beta"] == 0 and acd["parameters"]["p_w"] == 1.0
    beta_row = next(r for r in t["rows"] if r["method"].endswith("p_beta/n)"))
    assert "no beta-block" in beta_row["error"]
    code, out, _ = _run(capsys, "--objective", "full", "mup=0.1", "Lp=1", "Lcp=2", "M=5",
                        "n=10", "eps=0.01")
    assert code == 0
    acd_line = next(line for line in out.splitlines() if line.strip().startswith("ACD-PFL"))
    assert acd_line.split()[2] == "0"  # no communication without a w-block
    assert "fewest rounds" in out and "objective full:" in out


def test_text_table_names_its_columns(capsys):
    code, out, _ = _run(capsys, "--objective", "mt2", *EXAMPLE, "Lcp=40", "mup=0.01")
    assert code == 0
    lines = out.splitlines()
    assert "condition Lambda >= 3 lambda/(2 mu') (Lemma 1): holds" in out
    assert "Table 2 as printed" in out
    header = next(line for line in lines if line.strip().startswith("method"))
    for h in ("iterations", "rounds", "grad_w F", "grad_beta F_i"):
        assert h in header
    assert sum(line.strip().startswith("ASVRCD-PFL") for line in lines) == 2
    assert any("LSGD-PFL omitted" in line for line in lines)


@pytest.mark.parametrize("argv, piece", [
    (["--objective", "mt3", "Lp=1"], "unknown objective 'mt3'; choose from fl, full, mt2"),
    (["--objective", "maml", "Lp=1"], "maml has no constants"),
    (["--objective", "mt2", "mu=1", *EXAMPLE], "mu: --objective mt2 computes the constants"),
    (["Lp=1", "eps=0.1"], "Lp are base constants of an objective"),
    (["--objective", "mx2", "mup=1", "lam=1", "Lp=1", "M=2", "eps=0.1"],
     "mu' <= lambda/2 (Lemma 2)"),
    (["--algorithm", "asvrcd-pfl", "mu=1", "Lw=1", "Lb=1", "eps=0.1"],
     "needs more inputs: Lcb"),
    (["--objective", "apfl2", "alpha=0.1", "amax=0.2", "Lp=1", "Lam=1", "mup=1", "M=2"],
     "give alpha (every alpha_m equal) or amax and amin"),
    (["--algorithm", "scd-pfl", "mu=1"], "unknown algorithm 'scd-pfl'"),
    (["--objective", "mt2", "Lp=1", "lam=-1", "Lam=1", "M=2", "eps=0.1"], "lam=-1"),
    (["--algorithm", "lsgd-pfl", "mu=1", "Lw=1", "Lb=1", "eps=0.1", "tau=2"], "sigma2"),
])
def test_bad_inputs_are_one_line_errors(capsys, argv, piece):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and piece in err, err


def test_calculator_raises_typed_errors():
    with pytest.raises(HypothesisError):
        table({"mup": 1.0, "lam": 1.0, "Lp": 1.0, "M": 2, "eps": 0.1}, {}, objective="mx2")
    with pytest.raises(InputError, match="unexpected input"):
        table({"mup": 1.0, "Lp": 1.0, "M": 2, "eps": 0.1, "Lam": 2.0}, {}, objective="ws2")

def test_the_calculator_returns_a_typed_table_with_the_fewest_per_column():
    t = table({"mu": 0.01, "Lw": 1.0, "Lb": 4.0, "Lcw": 3.0, "Lcb": 10.0, "n": 100,
               "eps": 1e-3}, {})
    assert isinstance(t, ComplexityTable) and t.columns == COLUMNS and t.cheapest is None
    assert t.best == {k: t.fewest(k) for k, _ in COLUMNS[1:]}
    assert t.best["communication"] == "ACD-PFL"
    lb = t.rows[-1]
    assert lb.lower_bound and lb.guaranteed is False and lb.counts["iterations"] is None

@pytest.mark.parametrize("bad", [
    {"mu": 2.0}, {"Lw": 0.0, "Lb": 0.0}, {"Lcw": 0.5}, {"Lcb": 0.5}, {"n": 1},
    {"eps": 2.0, "Delta0": 1.5},
])
def test_the_calculator_refuses_what_eval_refuses_with_the_same_reason(bad):
    good = {"mu": 0.1, "Lw": 1.0, "Lb": 1.0, "Lcw": 2.0, "Lcb": 3.0, "n": 10, "eps": 0.01,
            "Delta0": 1.0}
    point = {**good, **bad}
    complexity_table("hanzely2023", good, {})  # the good point is accepted
    with pytest.raises(InputError) as calc:
        complexity_table("hanzely2023", point, {})
    with pytest.raises(InputError) as ev:
        for rid, form in (("theorem7", None), ("theorem6", "appendix"), ("theorem8", None),
                          ("unrescaled", None)):
            r = get(H + rid)
            evaluate(r, form, strict=False, rho=0.1, M=2,
                     **{k: v for k, v in point.items() if k in r.inputs(form) or k == "M"})
    assert str(calc.value).split(": ", 1)[1] == str(ev.value).split(": ", 1)[1]
