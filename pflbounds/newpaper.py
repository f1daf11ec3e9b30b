"""``pflbounds new-paper NAME``: the skeleton of a paper package that works at once.

It writes ``DIR/NAME/`` (``DIR`` defaults to the current folder) with:

* ``__init__.py``: the paper, one assumption and one result (``NAME.theorem1``, a bound on
  SGD for a strongly convex, smooth function, with a printed form and a side condition);
* ``checks.py``: one check (``NAME.P1``: SGD on a quadratic, Monte Carlo, the bound holds)
  and the method the result is about;
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

INIT = '''"""{name}: the paper package (edit the title, the constants and the result).

Importing it registers the paper and its result ``{name}.theorem1``; its ``checks`` module
registers its check ``{name}.P1``. pflbounds finds it as a paper package: under
``pflbounds/papers/``, through ``PFLBOUNDS_PAPERS=FOLDER`` (the folder that holds this one),
or, once installed with pip, through the entry point ``{name} = "{name}"`` of the group
``pflbounds.papers``.
"""

import sympy as sp

from pflbounds.symbolic.builder import PaperBuilder
from pflbounds.symbolic.constants import Delta0, K, L, eta, mu, sigma2  # the core
from pflbounds.symbolic.result import Kind

P = PaperBuilder("{name}")
P.register("Title of the paper", "Authors. Venue, year.")

P.assumption("A1", "Regularity", "f is mu-strongly convex and L-smooth; the stochastic "
             "gradients are unbiased with variance at most sigma2.", ("mu", "L", "sigma2"))

THEOREM1 = P.result(
    "theorem1", "Theorem 1", Kind.UPPER_BOUND, "E[f(x^K)] - f^*", "f",
    "SGD with a constant step size eta <= 1/L: E[f(x^K)] - f^* <= (1 - eta mu)^K Delta0 "
    "+ eta L sigma2 / (2 mu).",
    [P.form("printed", (1 - eta * mu) ** K * Delta0 + eta * L * sigma2 / (2 * mu))],
    hypotheses=("{name}.A1",), conditions=(P.cond(sp.Le(eta, 1 / L), "eta <= 1/L"),),
    source="Section 3", equations=("1",),
    example={{"eta": 0.1, "mu": 1.0, "L": 2.0, "K": 10, "Delta0": 1.0, "sigma2": 1.0}},
)
P.algorithms({{"theorem1": [__name__ + ".checks.run_sgd"]}})
'''

CHECKS = '''"""{name}'s checks: SGD on a quadratic against Theorem 1 (edit or add checks here)."""

import numpy as np

from pflbounds.algorithms import Costs, iterate
from pflbounds.checking import Check, CheckKind, Verdict, register
from pflbounds.symbolic import catalog, evaluate

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


def simulate(p, R, seed):
    """One evidence block: f(x^K) - f^* per replica and the bound at every recorded K."""
    run = run_sgd(p, R, np.random.default_rng(seed))
    ks = run.ks.astype(float)
    bound = evaluate(catalog.get("{name}.theorem1"), "printed", eta=p["eta"], mu=p["h"],
                     L=p["h"], K=ks, Delta0=0.5 * p["h"] * p["d"] * p["x0"] ** 2,
                     sigma2=p["sigma2"]).value
    return {{"ks": ks, "samples": run.metrics["f"], "bound": np.asarray(bound)}}


register(Check(
    "{name}.P1", "Theorem 1 (printed) on SGD for a quadratic", CheckKind.BOUND_HOLDS,
    Verdict.HOLDS, simulate,
    grid=({{"h": 1.0, "eta": 0.2, "d": 3, "sigma2": 1.0, "x0": 2.0}},),
    engine="mc", replicas=400, block_size=200, result_id="{name}.theorem1", form="printed",
    xlabel="K (iterations)", ylabel="E[f(x^K)] - f^*", cost="cheap",
))
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
        pkg / "__init__.py": INIT.format(name=name),
        pkg / "checks.py": CHECKS.format(name=name),
        pkg / "suites" / f"{name}.toml": SUITE.format(name=name),
        pkg / f"test_{name}.py": TEST.format(name=name, rel=rel),
    }
    try:
        pkg.mkdir()
    except OSError as e:
        raise NewPaperError(f"cannot create {pkg} ({e.strerror or e})") from None
    (pkg / "suites").mkdir()
    written = []
    for path, text in files.items():
        with path.open("x", encoding="utf-8") as fh:  # "x": never replace a file
            fh.write(text)
        written.append(path)
    return written
