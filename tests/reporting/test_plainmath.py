"""Plain-text notation typeset as Typst math and as matplotlib mathtext."""

from __future__ import annotations

import matplotlib.mathtext as mathtext
import pytest
import typst

from pflbounds.checking import registry
from pflbounds.reporting.plainmath import to_mathtext, to_typst
from pflbounds.symbolic import catalog


@pytest.mark.parametrize(
    ("text", "typst_markup"),
    [
        ("E[f_i(x_i^K)] - f_i* (worst agent)", "$EE [f_i (x_i^K)] - f_i^*$ (worst agent)"),
        ("K (oracle calls)", "$K$ (oracle calls)"),
        ("Each f_i is mu-strongly convex and L-smooth; kappa = L/mu.",
         "Each $f_i$ is $mu$\\-strongly convex and $L$\\-smooth; $kappa = L \\/ mu$."),
        ("b_ij^2 <= 4 mu eps", "$b_(i j)^2 <= 4 mu epsilon$"),
        ("x_bar and b_hat_ij and O~(kappa)",
         "$overline(x)$ and $hat(b)_(i j)$ and $tilde(O) (kappa)$"),
        ("E||grad f(x)||^2", "$EE #math.norm($nabla f (x)$)^2$"),
        ("#{j : b_ij^2 <= 4 mu eps}", "$\\# \\{j : b_(i j)^2 <= 4 mu epsilon\\}$"),
        ("1{b_ij^2 < eps}", "$bb(1) \\{b_(i j)^2 < epsilon\\}$"),
        ("sigma2=0.1, n0=2, Delta0_i", "$sigma^2 = 0.1$, $n_0 = 2$, $Delta_(0 i)$"),
        ("tolerance 1e-09", "tolerance $10^(-9)$"),
        ("max measured/bound = 0.8014 at K=1, point 0",
         "max measured\\/bound $= 0.8014$ at $K = 1$, point 0"),
        ("A fixed step, e.g. the 1/(2L) cap, in Lemma 6's proof",
         "A fixed step, e.g. the $1 \\/ (2 L)$ cap, in Lemma 6's proof"),
        ("see P7_identity and bound_printed", "see P7\\_identity and bound\\_printed"),
        ("(1 - eta mu)^(2K) and ||Lambda||_2^2", "$(1 - eta mu)^(2 K)$ and "
         "$#math.norm($Lambda$)_2^2$"),
    ],
)
def test_typst(text, typst_markup):
    assert to_typst(text) == typst_markup


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("E[f_i(x_i^K)] - f_i* (worst agent)",
         r"$\mathbb{E}[f_{i}(x_{i}^{K})] - f_{i}^{*}$ (worst agent)"),
        ("eps", r"$\varepsilon$"),
        ("K_eps (oracle calls)", r"$K_{\varepsilon}$ (oracle calls)"),
        ("P(b_hat^2 <= u), cross-cluster pairs",
         r"$\mathbb{P}(\hat{b}^{2} \leq u)$, cross-cluster pairs"),
        ("already $x^2$ mathtext", "already $x^2$ mathtext"),
    ],
)
def test_mathtext(text, label):
    assert to_mathtext(text) == label


def _catalog_texts() -> list[str]:
    registry.load_papers()
    texts: list[str] = []
    for a in catalog.assumptions():
        texts += [a.name, a.statement]
    for r in catalog.results():
        texts += [r.statement, r.quantity, r.label]
        for f in r.forms.values():
            texts += [f.note, f.normalized]
        for e in r.errata:
            texts += [e.where, e.what, e.fix]
    for c in registry.all_checks():
        texts += [c.title, c.description, c.xlabel, c.ylabel]
    return [t for t in dict.fromkeys(texts) if t]


def test_every_catalog_text_compiles_in_typst(tmp_path):
    texts = _catalog_texts()
    assert len(texts) > 100
    src = tmp_path / "all.typ"
    src.write_text("\n\n".join(to_typst(t) for t in texts), encoding="utf-8")
    typst.compile(str(src))  # raises on the first markup error


def test_every_axis_label_of_a_check_parses_as_mathtext():
    registry.load_papers()
    labels = {lab for c in registry.all_checks() for lab in (c.xlabel, c.ylabel) if lab}
    assert labels
    parser = mathtext.MathTextParser("path")
    for label in labels:
        parser.parse(to_mathtext(label))
