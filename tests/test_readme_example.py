"""The user guide's "Adding a paper" example (docs/adding-a-paper.md) is a working paper.

The page shows the files of an invented paper, ``doe2099``, in the template layout, and its
suite file. They are written here into a temporary package (with the two ``__init__.py`` of
its subpackages, which hold a docstring only), held to the template, loaded as an extra paper
package (so the ``pflbounds.papers.doe2099`` prefix of its dotted names is read as
``doe2099``), listed, shown, evaluated, and its check is run: the verdict and the evidence
must be what the page says.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "papers"))
from layout_rules import layout_problems  # noqa: E402

from pflbounds.checking import registry
from pflbounds.cli import main
from pflbounds.running.suite import parse_suite
from pflbounds.symbolic import catalog, loader

PAGE = Path(__file__).parent.parent / "docs" / "adding-a-paper.md"
PAPER = "doe2099"


def _files() -> dict[str, str]:
    """The page's code blocks by the path in their first line."""
    out = {}
    for body in re.findall(r"```(?:python|toml)\n(.*?)```", PAGE.read_text(), re.S):
        first, _, rest = body.partition("\n")
        if first.startswith("# ") and PAPER in first:
            out[first[2:].strip()] = rest
    return out


MODULES = ("__init__.py", "paper.py", "symbols.py", "assumptions.py", "errata.py",
           "theory/minibatch.py", "checks/common.py", "checks/minibatch.py")


def test_the_page_shows_the_files_of_the_example():
    files = _files()
    assert set(files) == {*(f"pflbounds/papers/{PAPER}/{m}" for m in MODULES),
                          f"validation/{PAPER}.toml"}
    assert sum(len(files[f"pflbounds/papers/{PAPER}/{m}"].splitlines()) for m in MODULES) <= 100


@pytest.fixture
def example_paper(tmp_path):
    files = _files()
    pkg = tmp_path / PAPER
    for sub in ("theory", "checks"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text(f'"""The {sub} of {PAPER}."""\n')
    for name in MODULES:
        code = files[f"pflbounds/papers/{PAPER}/{name}"]
        (pkg / name).write_text(code.replace(f"pflbounds.papers.{PAPER}", PAPER))
    assert layout_problems(pkg) == []
    sys.path.insert(0, str(tmp_path))
    registry.load_papers()  # the real papers' checks belong to the state restored below
    state = registry.snapshot()
    loader.add_paper_package(PAPER)
    try:
        yield files
    finally:
        loader.remove_paper_package(PAPER)
        catalog.forget_paper(PAPER)
        registry.restore(state)
        for name in [m for m in sys.modules if m == PAPER or m.startswith(PAPER + ".")]:
            sys.modules.pop(name)
        loader._LOADED.difference_update(
            {m for m in loader._LOADED if m == PAPER or m.startswith(PAPER + ".")})
        sys.path.remove(str(tmp_path))


def test_the_example_paper_loads_evaluates_and_refuses_a_bad_step(example_paper, capsys):
    assert main(["list", "--paper", PAPER]) == 0
    assert f"{PAPER}.theorem1" in capsys.readouterr().out
    assert main(["eval", f"{PAPER}.theorem1", "--form", "explicit", "eta=0.1", "mu=1",
                 "L=2", "K=10", "Delta0=1", "sigma2=1", "B=4"]) == 0
    out = capsys.readouterr().out
    assert float(out.split("=")[-1]) == pytest.approx(0.9**20 + 0.1 * 2 / 8, rel=1e-5)
    assert main(["eval", f"{PAPER}.theorem1", "eta=1", "mu=1", "L=2", "K=10",
                 "Delta0=1", "sigma2=1", "B=4"]) == 2
    assert "eta <= 1/L" in capsys.readouterr().err
    assert main(["eval", f"{PAPER}.theorem1", "eta=0.1", "mu=3", "L=2", "K=10",
                 "Delta0=1", "sigma2=1", "B=4"]) == 2
    assert "mu <= L" in capsys.readouterr().err


def test_the_example_names_its_method_and_check_where_show_finds_them(example_paper, capsys):
    assert main(["show", f"{PAPER}.theorem1"]) == 0
    out = capsys.readouterr().out
    assert f"method    {PAPER}.checks.common.run_minibatch_sgd  (" in out
    assert f"check     {PAPER}.P1 [bound_holds, expects HOLDS]" in out


def test_the_example_check_runs_and_holds_with_the_evidence_the_page_lists(example_paper):
    from pflbounds.running.executor import run_check

    check = registry.get(f"{PAPER}.P1")
    block = check.simulate(dict(check.grid[0]), 7, np.random.SeedSequence(1))
    assert set(block) == {"ks", "samples", "bound"}
    assert block["samples"].shape == (7, 5) and block["bound"].shape == (5,)
    outcome = run_check(check, base_seed=3, cache=None, progress=False)
    assert outcome.verdict.value == "HOLDS" and outcome.as_expected
    suite = parse_suite(tomllib.loads(example_paper[f"validation/{PAPER}.toml"]))
    assert [c.id for c in suite.checks] == [f"{PAPER}.P1"]
