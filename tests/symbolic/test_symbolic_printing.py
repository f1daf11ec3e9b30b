"""LaTeX and Typst rendering of result forms (Result.latex, _repr_latex_, Result.typst)."""

from __future__ import annotations

import re

import pytest
import typst

from pflbounds.symbolic import get, results
from pflbounds.symbolic.printing import latex_expr, typst_expr


def _all_forms():
    return [pytest.param(r.id, f, id=f"{r.id}[{f}]") for r in results() for f in r.forms]


def _balanced(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        if ch == "{" and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif ch == "}" and (i == 0 or text[i - 1] != "\\"):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


@pytest.mark.parametrize(
    "rid, form, pieces",
    [
        ("even2022.theorem2", "printed",
         [r"\le", r"\frac{B_i}{\mu}", r"\Delta_0 e^{- \frac{K \mu}{2 L}}",
          r"\tilde{\mathcal{O}}\left(\frac{L V_i \sigma^2}{K \mu^{2}}\right)"]),
        ("even2022.theorem2", "explicit",
         [r"\left(- \eta \mu + 1\right)^{K}", r"\frac{B_i}{2 \mu}", r"V_i"]),
        ("even2022.theorem3", "corrected",
         [r"F^0 e^{- K \eta \mu}", r"\sum_{ij}\lambda_{ij}^2", r"\sum_{ij}\lambda_{ij}b_{ij}^2",
          r"2 N \mu"]),
        ("even2022.theorem1", "printed",
         [r"\ge", r"\Omega\left(", r"\mathcal{N}_i^\varepsilon", r"r^{2} \sigma^2"]),
        ("even2022.eq6", "printed", [r"\min\left(", r"\frac{1}{2 L}", r"\log{\left("]),
        ("even2022.corollary1", "printed", [r"\max\left(", r"\frac{1}{N}\sum_i"]),
        ("even2022.theorem4", "corrected", [r"b_{\max}^{2}", r"\nu^2", r"\Delta^2", "c_N"]),
        ("even2022.lemma6_eps", "corrected", [r"\left\lceil", r"\right\rceil", r"\varepsilon"]),
    ],
)
def test_latex_contains_expected_pieces(rid, form, pieces):
    tex = get(rid).latex(form)
    for p in pieces:
        assert p in tex, (p, tex)


def test_latex_relation_follows_the_result():
    assert r" \le " in get("even2022.theorem3").latex("printed")
    assert r" \ge " in get("even2022.theorem1").latex("corrected")
    assert r" \ge " not in get("even2022.eq7").latex("printed")
    assert " = " in get("even2022.eq7").latex("printed")


def test_latex_default_form_and_repr():
    r = get("even2022.theorem2")
    assert r.latex() == r.latex("printed")
    rep = r._repr_latex_()
    assert rep == "$" + r.latex("printed") + "$"
    assert rep.count("$") == 2


def test_latex_multipart_form_has_one_line_per_part():
    tex = get("even2022.corollary2").latex("printed")
    lines = tex.split(r" \\ ")
    assert len(lines) == 4
    assert r"\frac{d_{\mathrm{eff}} \nu^2}{\Delta^2}" in lines[0]
    assert r"\frac{d_{\mathrm{eff}} \nu^2}{\varepsilon}" in lines[1]
    assert all(r"\tilde{\Omega}" in line for line in lines)


def test_latex_multipart_lines_name_their_part():
    lines = get("even2022.corollary2").latex("printed").split(r" \\ ")
    for part, line in zip(["S", "C", "KC", "K"], lines, strict=True):
        lhs = line.split(r"\ge")[0]
        assert part in lhs and "sufficient" not in lhs


def test_latex_text_mode_has_no_raw_subscripts():
    for r in results():
        for f in r.forms:
            for body in re.findall(r"\\text\{([^}]*)\}", r.latex(f)):
                assert not re.search(r"(?<!\\)[_^]", body), (r.id, f, body)


@pytest.mark.parametrize("rid, form", _all_forms())
def test_every_form_renders_in_latex_and_typst(rid, form):
    r = get(rid)
    tex = r.latex(form)
    assert tex and _balanced(tex)
    assert "Otilde(" not in tex and "Omegatilde(" not in tex  # markers get their notation
    typ = r.typst(form)
    assert typ
    rel = {"<=": "<=", ">=": ">=", "=": "="}[r.relation]
    n_parts = len(r.form(form).exprs)
    assert typ.count(f" {rel} ") >= n_parts
    if r.form(form).has_hidden:
        assert any(m in typ for m in ("tilde(cal(O))", "Omega", "cal(O)"))


def test_typst_of_every_form_compiles():
    body = []
    for r in results():
        for f in r.forms:
            body.append(f"$ {r.typst(f)} $")
    source = "#set page(width: 40cm, height: auto)\n" + "\n\n".join(body)
    pdf = typst.compile(source.encode())
    assert pdf.startswith(b"%PDF")


def test_typst_uses_the_constants_notation():
    typ = get("even2022.theorem2").typst("printed")
    assert typ.startswith("EE[f_i (x_i^K) - f_i (x_i^*)] <= ")
    assert "Delta_0" in typ and "V_i" in typ and "sigma^2" in typ
    assert "tilde(cal(O))" in typ
    typ = get("even2022.corollary2").typst("printed").split(" \\\n")
    assert [line.split(" >= ")[0] for line in typ] == ["S", "C", "K C", "K"]


def test_expression_printers_use_constant_names():
    r = get("even2022.theorem3")
    e = r.form("corrected").expr
    assert r"\sum_{ij}\lambda_{ij}^2" in latex_expr(e, "even2022")
    assert "sum_(i j) lambda_(i j)^2" in typst_expr(e, "even2022")
    assert "SumLam2" not in latex_expr(e, "even2022")
    # without the paper, its own constants have no notation: the plain name is printed
    assert "SumLam_{2}" in latex_expr(e) and "SumLam2" in typst_expr(e)
