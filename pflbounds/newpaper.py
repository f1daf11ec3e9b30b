"""``pflbounds new-paper NAME``: the skeleton of a paper package that works at once.

It writes ``DIR/NAME/`` (``DIR`` defaults to the current folder) in the layout every paper
follows (docs/adding-a-paper.md; the fixture paper ``tests/fixtures/papers/toypaper`` has the
same layout, and ``tests/papers/test_layout.py`` holds them to it):

* ``__init__.py``: the paper and its manifest (topic ``sgd``, a complexity calculator);
* ``paper.py``, ``symbols.py``, ``assumptions.py``, ``errata.py``: the builder and the
  method's dotted name, the constants, one assumption, no erratum yet;
* ``theory/sgd.py``: ``NAME.theorem1`` (a bound on SGD for a strongly convex, smooth function,
  with a printed form and a side condition) and ``NAME.corollary1`` (the count it implies);
* ``checks/sgd.py``: one check (``NAME.P1``: SGD on a quadratic, Monte Carlo, the bound
  holds); ``checks/common.py``: the method the results are about;
* ``complexity.py``: the complexity table (``pflbounds complexity --paper NAME``);
* ``suites/NAME.toml``: the paper's suite (``pflbounds validate NAME`` finds it);
* ``test_NAME.py``: a test that lists, evaluates and validates the paper.

Nothing is overwritten: an existing ``DIR/NAME`` (a folder or a file) is refused, and so is
a name that is not a Python identifier, names a paper already loaded, or names a module that
can already be imported (the package would shadow it, or it would shadow the package).
"""

from __future__ import annotations

import importlib.util
import keyword
import os
from pathlib import Path

INIT = '''"""{name}: the paper package (edit the title, the constants and the results).

Importing it registers the paper and declares its layout (``MANIFEST``): pflbounds' paper
template, described file by file in pflbounds' docs/adding-a-paper.md. pflbounds finds it as
a paper package: under ``pflbounds/papers/``, through ``PFLBOUNDS_PAPERS=FOLDER`` (the folder
that holds this one), or, once installed with pip, through the entry point
``{name} = "{name}"`` of the group ``pflbounds.papers``.
"""

from pflbounds.symbolic.manifest import Manifest

from .paper import P

P.register("Title of the paper", "Authors. Venue, year.")

MANIFEST = Manifest(theory=("sgd",), checks=("sgd",), complexity=True)
'''

PAPER = '''"""The {name} builder (its constants and results are declared through ``P``) and the
dotted names of the code each result is about (``methods=`` of its declaration)."""

from pflbounds.symbolic.builder import PaperBuilder

P = PaperBuilder("{name}")
cond, form, result = P.cond, P.form, P.result

_PACKAGE = __name__.rsplit(".", 1)[0]
SGD = (_PACKAGE + ".checks.common.run_sgd",)
"""SGD with a constant step (the paper's own method here; a method pflbounds implements is
named by its dotted name in pflbounds.algorithms)."""
'''

SYMBOLS = '''"""{name}'s constants: the core ones it uses, re-exported, and its own, declared with
``P.constant(name, meaning, unit, domain)``, e.g.
``B = P.constant("B", "minibatch size", "1", "positive_integer")``."""

from pflbounds.symbolic.constants import Delta0, K, L, eps, eta, mu, sigma2  # noqa: F401
'''

ASSUMPTIONS = '''"""{name}'s assumptions."""

from .paper import P

A1 = P.assumption("A1", "Regularity", "f is mu-strongly convex and L-smooth; the stochastic "
                  "gradients are unbiased with variance at most sigma2.", ("mu", "L", "sigma2"))
'''

ERRATA = '''"""{name}'s errata, ``{{short key: Erratum}}``; ids ``{name}.erratum<N>`` (N: the
item in the paper's digest, a ``_<word>`` suffix when one item gives several), never a check's
id.
An erratum reads

    Erratum("{name}.erratum1", "Theorem 1", "what is wrong", "the fix", "{name}.E1",
            "§8 #1", ("corrected",), severity="substantive")
"""

from pflbounds.symbolic.result import Erratum

ERRATA: dict[str, Erratum] = {{}}
'''

THEORY_INIT = '''"""{name}'s results, one module per topic (listed by the manifest)."""
'''

THEORY = '''"""SGD with a constant step: Theorem 1 and the iterations it needs for a precision
eps."""

import sympy as sp

from pflbounds.symbolic.result import Kind

from ..paper import SGD, cond, form, result
from ..symbols import Delta0, K, L, eps, eta, mu, sigma2

STEP = cond(sp.Le(eta, 1 / L), "eta <= 1/L")

THEOREM1 = result(
    "theorem1", "Theorem 1", Kind.UPPER_BOUND, "E[f(x^K)] - f^*", "f",
    "SGD with a constant step size eta <= 1/L: E[f(x^K)] - f^* <= (1 - eta mu)^K Delta0 "
    "+ eta L sigma2 / (2 mu).",
    [form("printed", (1 - eta * mu) ** K * Delta0 + eta * L * sigma2 / (2 * mu))],
    hypotheses=("{name}.A1",), conditions=(STEP,), methods=SGD,
    source="Section 3", equations=("1",),
    example={{"eta": 0.1, "mu": 1.0, "L": 2.0, "K": 10, "Delta0": 1.0, "sigma2": 1.0}},
)

COROLLARY1 = result(
    "corollary1", "Corollary 1", Kind.COMPLEXITY, "K_eps: iterations to reach eps", "1",
    "Under Theorem 1, ceil(ln(2 Delta0/eps)/(eta mu)) iterations reach E[f(x^K)] - f^* <= "
    "eps when the noise term eta L sigma2/(2 mu) is at most eps/2.",
    [form("printed", sp.ceiling(sp.log(2 * Delta0 / eps) / (eta * mu)))],
    hypotheses=("{name}.A1",), relation="=", methods=SGD,
    conditions=(STEP, cond(sp.Le(eta * L * sigma2 / mu, eps), "noise term <= eps/2"),
                cond(sp.Gt(2 * Delta0, eps), "Delta0 > eps/2")),
)
'''

CHECKS_INIT = '''"""{name}'s checks, one module per theory topic, each exposing ``CHECKS``
(registered when pflbounds loads the paper); ``common.py`` holds the code the topics share."""
'''

COMMON = '''"""Check code the {name} topics share: the method its results are about."""

import numpy as np

from pflbounds.algorithms import Costs, iterate

KS = [1, 5, 10, 20, 40]


def run_sgd(p, R, rng):
    """SGD on f(x) = h/2 ||x||^2 with gradient noise of variance sigma2, R replicas at once
    (no loop over replicas)."""
    h, eta, d = p["h"], p["eta"], p["d"]
    sd = np.sqrt(p["sigma2"] / d)  # E||xi||^2 = sigma2

    def step(state, k, costs: Costs):
        costs.add("gradients", 1)
        xi = sd * rng.standard_normal((R, d))
        return {{"x": state["x"] - eta * (h * state["x"] + xi)}}

    f = {{"f": lambda state: 0.5 * h * (state["x"] ** 2).sum(-1)}}
    return iterate({{"x": np.full((R, d), p["x0"])}}, step, KS[-1], metrics=f, record=KS)
'''

CHECKS = '''"""Checks of the sgd topic: SGD on a quadratic against Theorem 1 (edit or add checks
here; a check refers to its result through the declared object, never by its id typed again)."""

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, bound

from ..theory.sgd import THEOREM1
from .common import run_sgd


def simulate(p, R, seed):
    """One evidence block: f(x^K) - f^* per replica and the bound at every recorded K."""
    run = run_sgd(p, R, np.random.default_rng(seed))
    ks = run.ks.astype(float)
    b = bound(THEOREM1, "printed", eta=p["eta"], mu=p["h"], L=p["h"], K=ks,
              Delta0=0.5 * p["h"] * p["d"] * p["x0"] ** 2, sigma2=p["sigma2"])
    return {{"ks": ks, "samples": run.metrics["f"], "bound": b}}


CHECKS = [
    Check(
        "{name}.P1", "Theorem 1 (printed) on SGD for a quadratic", CheckKind.BOUND_HOLDS,
        Verdict.HOLDS, simulate,
        grid=({{"h": 1.0, "eta": 0.2, "d": 3, "sigma2": 1.0, "x0": 2.0}},),
        engine="mc", replicas=400, block_size=200, result_id=THEOREM1.id, form="printed",
        xlabel="K (iterations)", ylabel="E[f(x^K)] - f^*", cost="cheap",
    ),
]
'''

COMPLEXITY = '''"""{name}'s complexity calculator (``pflbounds complexity --paper {name}``): the
iterations and gradients SGD needs to reach eps (edit: one row per method)."""

from pflbounds.symbolic.complexity import (
    ComplexityRow,
    ComplexityTable,
    accepted_inputs,
    check_inputs,
    evaluate_row,
)

from .theory.sgd import COROLLARY1

COLUMNS = (("iterations", "iterations"), ("gradients", "gradients"))


def table(values, matrices, *, objective=None, algorithm=None) -> ComplexityTable:
    """One row per method, each evaluating a catalog result; inputs checked first (domains,
    relations, unexpected names), missing ones named by the rows that need them."""
    if objective is not None or algorithm is not None or matrices:
        raise KeyError("{name} has one objective and one method: no --objective, "
                       "--algorithm or matrix")
    check_inputs("{name}", values, accepted_inputs([(COROLLARY1.id, "printed")]))
    row = ComplexityRow("SGD (constant step)", "sgd", COROLLARY1.id, "printed")
    k = evaluate_row(row, values)
    row.counts = {{"iterations": k, "gradients": k}}  # one gradient per iteration
    row.guaranteed = True
    out = ComplexityTable("{name}", "iterations and gradients to reach eps", [row],
                          columns=COLUMNS)
    out.best = {{key: out.fewest(key) for key, _ in COLUMNS}}
    return out
'''

SUITE = '''# {name}'s suite: every check of the paper on its full grid (pflbounds validate {name}).
name = "{name}"
description = "Every {name} check on its full grid."
seed = 1

[[checks]]
id = "{name}.*"
'''

TEST = '''"""{name}: the paper loads, its result evaluates and refuses a bad step, and its suite
gives the verdicts its checks expect (python -m pytest {rel})."""

import pytest

from pflbounds.cli import main
from pflbounds.symbolic import loader

PACKAGE = __package__  # "{name}" (or "pflbounds.papers.{name}" inside pflbounds)
PAPER = "{name}"
POINT = ["mu=1", "L=2", "K=10", "Delta0=1", "sigma2=1"]


@pytest.fixture(scope="module", autouse=True)
def paper():
    if not PACKAGE.startswith("pflbounds.papers."):
        loader.add_paper_package(PACKAGE)
    yield
    if not PACKAGE.startswith("pflbounds.papers."):
        loader.remove_paper_package(PACKAGE)


def test_the_paper_lists_its_result_and_check(capsys):
    assert main(["list", "--paper", PAPER]) == 0
    assert f"{{PAPER}}.theorem1" in capsys.readouterr().out
    assert main(["list", "--checks", "--paper", PAPER]) == 0
    assert f"{{PAPER}}.P1" in capsys.readouterr().out


def test_the_result_evaluates_and_refuses_a_step_above_1_over_L(capsys):
    assert main(["eval", f"{{PAPER}}.theorem1", "eta=0.1", *POINT]) == 0
    value = float(capsys.readouterr().out.split("=")[-1])
    assert value == pytest.approx(0.9**10 + 0.1 * 2 / 2, rel=1e-5)
    assert main(["eval", f"{{PAPER}}.theorem1", "eta=1", *POINT]) == 2
    assert "eta <= 1/L" in capsys.readouterr().err


def test_the_complexity_table_counts_iterations(capsys):
    assert main(["complexity", "--paper", PAPER, "eta=0.1", "eps=0.5", *POINT[:2],
                 "Delta0=1", "sigma2=1"]) == 0
    assert "SGD (constant step)" in capsys.readouterr().out
    assert main(["complexity", "--paper", PAPER, "eta=0.1", "eps=0.5"]) == 2
    assert "needs more inputs" in capsys.readouterr().err


def test_the_suite_gives_the_expected_verdicts(tmp_path, capsys):
    assert main(["validate", PAPER, "--out", str(tmp_path / "results"), "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert f"ok {{PAPER}}.P1" in out and "0 regressions" in out
'''


class NewPaperError(ValueError):
    """A name or folder that ``new-paper`` refuses (one line)."""


def check_name(name: str, papers: set[str]) -> None:
    """:class:`NewPaperError` unless ``name`` can name a new paper package."""
    if not name.isidentifier() or keyword.iskeyword(name):
        raise NewPaperError(f"NAME {name!r} is not a Python identifier (letters, digits and "
                            "_, not starting with a digit); a paper is a Python package")
    if name in papers:
        raise NewPaperError(f"{name!r} is already a paper; choose another name")
    try:
        found = importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        found = True
    if found:
        raise NewPaperError(f"{name!r} is already an importable module; choose another name "
                            "(a paper package of that name would clash with it)")


def write_skeleton(name: str, folder: str | Path, papers: set[str]) -> list[Path]:
    """Write the skeleton of the paper ``name`` into ``folder/name`` (module docstring);
    returns the files written. Nothing is written when any check fails."""
    check_name(name, papers)
    base = Path(folder)
    if not base.is_dir():
        raise NewPaperError(f"--dir {str(base)!r} is not an existing folder; create it first")
    pkg = base / name
    if pkg.exists() or pkg.is_symlink():
        what = "folder" if pkg.is_dir() else "file"
        raise NewPaperError(f"{pkg} already exists (a {what}); nothing was written: choose "
                            "another NAME or --dir")
    rel = os.path.relpath(pkg) if not os.path.relpath(pkg).startswith("..") else str(pkg)
    files = {
        pkg / "__init__.py": INIT,
        pkg / "paper.py": PAPER,
        pkg / "symbols.py": SYMBOLS,
        pkg / "assumptions.py": ASSUMPTIONS,
        pkg / "errata.py": ERRATA,
        pkg / "complexity.py": COMPLEXITY,
        pkg / "theory" / "__init__.py": THEORY_INIT,
        pkg / "theory" / "sgd.py": THEORY,
        pkg / "checks" / "__init__.py": CHECKS_INIT,
        pkg / "checks" / "common.py": COMMON,
        pkg / "checks" / "sgd.py": CHECKS,
        pkg / "suites" / f"{name}.toml": SUITE,
        pkg / f"test_{name}.py": TEST,
    }
    files = {path: text.format(name=name, rel=rel) for path, text in files.items()}
    try:
        pkg.mkdir()
    except OSError as e:
        raise NewPaperError(f"cannot create {pkg} ({e.strerror or e})") from None
    for sub in ("suites", "theory", "checks"):
        (pkg / sub).mkdir()
    written = []
    for path, text in files.items():
        with path.open("x", encoding="utf-8") as fh:  # "x": never replace a file
            fh.write(text)
        written.append(path)
    return written
