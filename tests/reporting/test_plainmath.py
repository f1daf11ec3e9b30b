"""Plain-text notation typeset as Typst math and as matplotlib mathtext."""

from __future__ import annotations

import matplotlib.mathtext as mathtext
import pytest
import typst
from code_math import code_math, typst_parts

from pflbounds.checking import registry
from pflbounds.reporting.plainmath import (
    declared_names,
    notation_of,
    to_mathtext,
    to_typst,
    to_typst_math,
)
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
         "$overline(x)$ and $hat(b)_(i j)$ and $tilde(cal(O)) (kappa)$"),
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


# One case per notation: (text, paper, Typst markup, mathtext label).
NOTATIONS = [
    # a paper's declared constant names; ids stay ids where the paper declares no constant
    ("27 L1^2 b2^2 beta^2", "scott2024", "$27 L_1^2 b_2^2 beta^2$",
     r"$27 {L_1}^{2} b_{2}^{2} \beta^{2}$"),
    ("L3 = 2 max(lam_h, lam_v)", "scott2024", "$L_3 = 2 max (lambda_h, lambda_v)$",
     r"$L_3 = 2 \max (\lambda_{h}, \lambda_{v})$"),
    ("grad f_i is L1-Lipschitz", "scott2024", "$nabla f_i$ is $L_1$\\-Lipschitz",
     r"$\nabla f_{i}$ is $L_1$-Lipschitz"),
    ("Lemmas C.3-C.5 under A4, C2", "scott2024", "Lemmas C.3\\-C.5 under A4, C2",
     "Lemmas C.3-C.5 under A4, C2"),
    ("C2 and C1 = 3", "hanzely2023", "$C_2$ and $C_1 = 3$", "$C_2$ and $C_1 = 3$"),
    ("C2 and L1", None, "C2 and L1", "C2 and L1"),
    ("min_{k<K} E||G_eta(theta^k)||^2 <= epsG", "erickson2025",
     "$min_(k < K) EE #math.norm($G_(eta) (theta^k)$)^2 <= epsilon_G$",
     r"$\min_{k<K} \mathbb{E}\Vert G_{\eta}(\theta^{k})\Vert ^{2} \leq \varepsilon_G$"),
    ("Lp=0.2, mup=0.2, lo=0.6", "hanzely2023", "$L' = 0.2$, $mu' = 0.2$, lo\\=0.6",
     r"$L'=0.2$, $\mu'=0.2$, lo=0.6"),
    # sigma2 is sigma squared, sigma2^2 is sigma_2 squared
    ("sigma2 = 1 and sigma2^2 + sigma1^2", None, "$sigma^2 = 1$ and $sigma_2^2 + sigma_1^2$",
     r"$\sigma^{2} = 1$ and $\sigma_{2}^{2} + \sigma_{1}^{2}$"),
    ("constants C and cal(C)", None, "constants $C$ and $cal(C)$",
     r"constants $C$ and $\mathcal{C}$"),
    # placeholders
    ("the (.)_+ and c are dropped", None, "the $(dot.c)_(+)$ and $c$ are dropped",
     r"the $(\cdot)_{+}$ and $c$ are dropped"),
    ("v = 1 (b = sqrt(2)||.||, as in Figure 1)", None,
     "$v = 1$ ($b = #math.sqrt($2$) #math.norm($dot.c$)$, as in Figure 1)",
     r"$v = 1$ ($b = \sqrt{2}\Vert \cdot\Vert$, as in Figure 1)"),
    ("n + sqrt(…) columns", None, "$n + #math.sqrt($dots.h$)$ columns",
     r"$n + \sqrt{\ldots}$ columns"),
    ("max(., (gamma0 + 1) eps0)", None, "$max (dot.c, (gamma_0 + 1) epsilon_0)$",
     r"$\max (\cdot , (\gamma_{0} + 1) \varepsilon_{0})$"),
    ("2/sqrt e", None, "$2 \\/ sqrt(e)$", r"$2/\sqrt{e}$"),
    ("M sqrt((KL(Q || P) + mean b)/n)", None,
     '$M #math.sqrt($(op("KL") (Q || P) + "mean" b) \\/ n$)$',
     r"$M \sqrt{(\mathrm{KL}(Q \Vert P) + \mathrm{mean} b)/n}$"),
    # accents: hidden-constant markers keep theirs
    ("Õ(·): up to constants; Ω̃(·): at least", None,
     "$tilde(cal(O)) (dot.c)$: up to constants; $tilde(Omega) (dot.c)$: at least",
     r"$\tilde{\mathcal{O}}(\cdot)$: up to constants; $\tilde{\Omega}(\cdot)$: at least"),
    ("Omega~(1/eps), O(1/K), hidden in the O~ (every term)", None,
     "$tilde(Omega) (1 \\/ epsilon)$, $cal(O) (1 \\/ K)$, hidden in the $tilde(cal(O))$ "
     "(every term)",
     r"$\tilde{\Omega}(1/\varepsilon)$, $\mathcal{O}(1/K)$, hidden in the $\tilde{\mathcal{O}}$ "
     "(every term)"),
    ("psibar_i, Fbar and hat theta, but that and what", None,
     "$overline(psi)_i$, $overline(F)$ and $hat(theta)$, but that and what",
     r"$\bar{\psi}_{i}$, $\bar{F}$ and $\hat{\theta}$, but that and what"),
    ("x~ - x^ <= 1", None, "$tilde(x) - hat(x) <= 1$", r"$\tilde{x} - \hat{x} \leq 1$"),
    # inner products, absolute values, relations on their own
    ("2<u, v> <= ||u||^2 and E<grad F, eta_{t+1} - eta_t>", None,
     "$2 chevron.l u, v chevron.r <= #math.norm($u$)^2$ and "
     "$EE chevron.l nabla F, eta_(t + 1) - eta_t chevron.r$",
     r"$2\langle u, v\rangle \leq \Vert u\Vert ^{2}$ and "
     r"$\mathbb{E}\langle \nabla F, \eta_{t+1} - \eta_{t}\rangle$"),
    ("every |S_i| = m, |residual| and P(x | y)", None,
     "every $lr(| S_i |) = m$, |residual| and $PP (x | y)$",
     r"every $|S_{i}| = m$, |residual| and $\mathbb{P}(x | y)$"),
    ("The proof mixes >= and <= in one chain", None,
     "The proof mixes $>=$ and $<=$ in one chain",
     r"The proof mixes $\geq$ and $\leq$ in one chain"),
    ("Karula < FedAvg >~ IFCA << Local", None, "Karula $<$ FedAvg $gt.tilde$ IFCA $<<$ Local",
     r"Karula $<$ FedAvg $\gtrsim$ IFCA $\ll$ Local"),
    ("b -> infinity and T = inf, but inf_x f(x) and the infimum", None,
     "$b -> oo$ and $T = oo$, but $inf_x f (x)$ and the infimum",
     r"$b \to \infty$ and $T = \infty$, but $\inf_{x} f(x)$ and the infimum"),
    # quotation marks are not primes
    ("'sigma_suf^2 > N^-1' should be >=", None,
     '‘$sigma_("suf")^2 > N^(- 1)$’ should be $>=$',
     r"‘$\sigma_{\mathrm{suf}}^{2} > N^{-1}$’ should be $\geq$"),
    # word subscripts, index lists
    ("sigma_{i,suf}^2, psi_bin(x), sigma_suf,cont^2, g_w,m^k, b_ij", None,
     '$sigma_(i, "suf")^2$, $psi_("bin") (x)$, $sigma_("suf", "cont")^2$, $g_(w, m)^k$, '
     "$b_(i j)$",
     r"$\sigma_{i,\mathrm{suf}}^{2}$, $\psi_{\mathrm{bin}}(x)$, "
     r"$\sigma_{\mathrm{suf},\mathrm{cont}}^{2}$, $g_{w,m}^{k}$, $b_{ij}$"),
    ("min_{v in K} f", None, "$min_(v in K) f$", r"$\min_{v \in K} f$"),
    # prose stays prose
    ("Lemma C.2, Theorem B.1 (Even et al.'s bound), Hölder", None,
     "Lemma C.2, Theorem B.1 (Even et al.'s bound), Hölder",
     "Lemma C.2, Theorem B.1 (Even et al.'s bound), Hölder"),
    ("Bounded gradients (27)-(28); the noise floor (8L/3) eps", None,
     "Bounded gradients (27)\\-(28); the noise floor $(8 L \\/ 3) epsilon$",
     r"Bounded gradients (27)-(28); the noise floor $(8L/3) \varepsilon$"),
    ("(1 - eta a)^{2T} at a point", None, "$(1 - eta a)^(2 T)$ at a point",
     r"$(1 - \eta a)^{2T}$ at a point"),
]


@pytest.mark.parametrize(("text", "paper", "typst_markup", "label"), NOTATIONS)
def test_notation(text, paper, typst_markup, label):
    registry.load_papers()
    assert to_typst(text, paper) == typst_markup
    assert to_mathtext(text, paper) == label
    mathtext.MathTextParser("path").parse(label)


def test_notation_of_sets_the_default_paper():
    registry.load_papers()
    with notation_of("scott2024"):
        assert to_typst("L1^2") == "$L_1^2$"
        assert to_typst("L1^2", "hanzely2023") == "L1^2"  # an explicit paper wins
    assert to_typst("L1") == "L1"


def test_declared_names_are_symbols_of_the_paper():
    registry.load_papers()
    scott = declared_names("scott2024")
    assert scott["L1"] == ("L_1", "L_1") and scott["lam_h"][0] == "lambda_h"
    assert "Vsum" not in scott  # an expression (a sum of norms), not a symbol
    assert "clusters" not in declared_names("philippenko2025")  # an English word
    assert "C1" in declared_names("hanzely2023") and "C1" not in scott
    parser = mathtext.MathTextParser("path")
    for paper in catalog.papers():
        for name, (typ, _latex) in declared_names(paper).items():
            parser.parse(to_mathtext(f"{name}^2 + 1", paper))
            if "$" not in to_typst(name):  # a word to the generic rules (L1, epsG, lam_h)
                assert to_typst(name, paper) == f"${typ}$", (paper, name)


def test_a_prose_quantity_is_embedded_in_the_equation():
    assert to_typst_math("E[F(x^K)] - F^*") == "EE [F (x^K)] - F^*"
    q = to_typst_math("K such that E||x||^2 <= eps is guaranteed")
    assert q == "#[$K$ such that $EE #math.norm($x$)^2 <= epsilon$ is guaranteed]"


def _catalog_texts() -> list[tuple[str, str]]:
    """(paper, text) of every prose field the report shows: assumptions, results, forms,
    errata and checks."""
    registry.load_papers()
    texts: list[tuple[str, str]] = []
    for a in catalog.assumptions():
        paper = a.id.split(".")[0]
        texts += [(paper, a.name), (paper, a.statement)]
    for r in catalog.results():
        texts += [(r.paper, r.statement), (r.paper, r.quantity), (r.paper, r.label)]
        for f in r.forms.values():
            texts += [(r.paper, f.note), (r.paper, f.normalized)]
        for e in r.errata:
            texts += [(r.paper, e.where), (r.paper, e.what), (r.paper, e.fix)]
    for c in registry.all_checks():
        paper = c.id.split(".")[0]
        texts += [(paper, c.title), (paper, c.description), (paper, c.xlabel),
                  (paper, c.ylabel)]
    return [(p, t) for p, t in dict.fromkeys(texts) if t]


def test_every_catalog_text_compiles_in_typst(tmp_path):
    texts = _catalog_texts()
    assert len(texts) > 100
    src = tmp_path / "all.typ"
    src.write_text("\n\n".join(to_typst(t, p) for p, t in texts), encoding="utf-8")
    typst.compile(str(src))  # raises on the first markup error


def test_no_catalog_text_sets_math_as_code():
    """Every statement, note, erratum, check title and description: no ASCII notation left
    in its prose, nor in the upright text inside its equations."""
    found = []
    for paper, text in _catalog_texts():
        prose, strings = typst_parts(to_typst(text, paper))
        found += [(paper, hit) for hit in code_math(prose)]
        found += [(paper, s) for s in strings if code_math(s)]
    assert not found, found[:10]


def test_every_printed_form_typesets_its_quantity():
    """A result without a declared Typst quantity has it read as notation, never quoted."""
    registry.load_papers()
    read = 0
    for r in catalog.results():
        if "quantity_typst" in r.extra or r.extra.get("part_typst"):
            continue
        q = to_typst_math(r.quantity, r.paper)
        for name in r.forms:
            assert r.typst(name).startswith(q + " "), (r.id, name)
        read += 1
        if q.startswith("#["):  # prose with math: its markup has no code-math
            prose, strings = typst_parts(q[2:-1])
            assert not code_math(prose) and not any(map(code_math, strings)), (r.id, q)
        else:  # notation throughout: Typst math, no quoted text
            assert '"' not in q, (r.id, q)
    assert read >= 3


def test_every_axis_label_of_a_check_parses_as_mathtext():
    registry.load_papers()
    labels = {(c.id.split(".")[0], lab) for c in registry.all_checks()
              for lab in (c.xlabel, c.ylabel) if lab}
    assert labels
    parser = mathtext.MathTextParser("path")
    for paper, label in labels:
        parser.parse(to_mathtext(label, paper))
