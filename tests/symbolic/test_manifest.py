"""The manifest of a paper package: what it accepts, the per-result index generated from the
declaring modules' source, and how the loader and the check registry read it (on the fixture
paper ``toypaper`` and on throwaway packages)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from pflbounds.checking import registry
from pflbounds.symbolic import catalog, loader
from pflbounds.symbolic.manifest import Manifest, declared_keys, result_index


@pytest.mark.parametrize("kw, message", [
    ({"theory": "afa"}, "a tuple of module names"),
    ({"theory": ()}, "at least one topic"),
    ({"theory": ("a", "a")}, "names a module twice"),
    ({"theory": ("a-b",)}, "is not a topic name"),
    ({"theory": ("a",), "checks": ("common",)}, "is not a topic name"),
    ({"theory": ("a",), "checks": ("b",)}, "every checks topic mirrors a theory topic"),
    ({"theory": ("a",), "audit": "yes"}, "audit must be True or False"),
])
def test_a_manifest_refuses_what_the_template_does_not_allow(kw, message):
    with pytest.raises(ValueError, match=message):
        Manifest(**kw)


def test_the_modules_a_manifest_names():
    m = Manifest(theory=("a", "b"), checks=("b",), experiments=("fig1",), complexity=True)
    assert m.result_modules() == ("theory.a", "theory.b", "experiments.fig1")
    assert m.check_modules() == ("checks.b", "experiments.fig1")
    # an experiment that declares no result is imported with the checks, not by a full load
    assert m.full_load({}) == ("assumptions", "errata", "theory.a", "theory.b", "complexity")
    assert "experiments.fig1" in m.full_load({"claim1": "experiments.fig1"})


def test_declarations_are_found_in_source_order():
    src = textwrap.dedent('''
        A = result("lemma1", "Lemma 1", ...)
        B = P.result(
            "theorem2", ...)
        C = other_result("not_me", ...)
        D = result(key, ...)  # not a literal: not a template declaration
    ''')
    assert declared_keys(src) == ["lemma1", "theorem2"]


def test_the_index_follows_an_edit_of_a_theory_module(tmp_path):
    (tmp_path / "theory").mkdir()
    mod = tmp_path / "theory" / "a.py"
    mod.write_text('X = result("lemma1", ...)\n')
    m = Manifest(theory=("a",))
    assert result_index(tmp_path, m) == {"lemma1": "theory.a"}
    mod.write_text('X = result("lemma1", ...)\nY = result("lemma2", ...)\n')
    assert result_index(tmp_path, m) == {"lemma1": "theory.a", "lemma2": "theory.a"}


@pytest.fixture
def packages(tmp_path):
    """Write throwaway paper packages under ``tmp_path`` and load them as papers."""
    added: list[str] = []
    registry.load_papers()
    state = registry.snapshot()
    sys.path.insert(0, str(tmp_path))

    def make(name: str, files: dict[str, str]) -> str:
        for rel, text in files.items():
            p = Path(tmp_path, name, rel)
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(textwrap.dedent(text))
        loader.add_paper_package(name)
        added.append(name)
        return name

    try:
        yield make
    finally:
        for name in added:
            loader.remove_paper_package(name)
            catalog.forget_paper(name)
            for mod in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[mod]
                loader._LOADED.discard(mod)
        registry.restore(state)
        sys.path.remove(str(tmp_path))


def test_a_manifest_of_the_wrong_type_is_the_paper_s_load_error(packages):
    packages("badmanifest", {"__init__.py": "MANIFEST = {'theory': ('a',)}\n"})
    with pytest.raises(loader.PaperLoadError, match="paper 'badmanifest' failed to load.*"
                                                    "MANIFEST is a dict"):
        loader.load_papers()


def test_a_check_module_without_checks_names_its_paper(packages):
    packages("nochecks", {
        "__init__.py": """
            from pflbounds.symbolic.builder import PaperBuilder
            from pflbounds.symbolic.manifest import Manifest
            PaperBuilder("nochecks").register("t", "c")
            MANIFEST = Manifest(theory=("a",), checks=("a",))
            """,
        "assumptions.py": "", "errata.py": "ERRATA = {}\n", "theory/__init__.py": "",
        "theory/a.py": "", "checks/__init__.py": "", "checks/a.py": "X = 1\n"})
    with pytest.raises(loader.PaperLoadError, match=r"paper 'nochecks' failed to load "
                                                    r"\(nochecks\.checks\.a\).*no CHECKS"):
        registry.load_papers()


def test_the_registry_registers_the_checks_of_the_manifest_s_modules(extra_paper):
    extra_paper("toypaper")
    registry.load_papers()
    assert registry.module_of("toypaper.P1") == "toypaper.checks.sgd"
    # a worker that knows only the id and the module finds the check again
    check = registry.get("toypaper.P1")
    registry.unregister("toypaper.P1")
    assert registry.find("toypaper.P1") is None
    assert registry.get("toypaper.P1", module="toypaper.checks.sgd") is check


def test_eval_of_a_manifest_paper_builds_only_the_module_of_its_result(extra_paper):
    extra_paper("toypaper")
    loader.load_for_result("toypaper.corollary1")
    assert "toypaper.theory.sgd" in sys.modules
    assert "toypaper.complexity" not in sys.modules and "toypaper.checks.sgd" not in sys.modules
    loader.load_paper("toypaper")
    assert "toypaper.complexity" in sys.modules and "toypaper.checks.sgd" not in sys.modules
    assert [r.id for r in catalog.results("toypaper")] == [
        "toypaper.theorem1", "toypaper.remark1", "toypaper.corollary1"]


def test_an_experiment_that_declares_claims_registers_its_checks_too(packages):
    """A full load imports an experiment that declares results before the checks are loaded;
    the registry still receives its CHECKS (once)."""
    packages("claimexp", {
        "__init__.py": """
            from claimexp.paper import P
            from pflbounds.symbolic.manifest import Manifest
            P.register("t", "c")
            MANIFEST = Manifest(theory=("a",), experiments=("run1",))
            """,
        "paper.py": """
            from pflbounds.symbolic.builder import PaperBuilder
            P = PaperBuilder("claimexp")
            """,
        "assumptions.py": "", "errata.py": "ERRATA = {}\n", "theory/__init__.py": "",
        "theory/a.py": "", "experiments/__init__.py": "",
        "experiments/run1.py": """
            import numpy as np
            import sympy as sp
            from claimexp.paper import P
            from pflbounds.checking import Check, CheckKind, Verdict
            from pflbounds.symbolic.result import Kind

            CLAIM = P.result("claim1", "Claim 1", Kind.UPPER_BOUND, "q", "1", "q <= 1",
                             [P.form("printed", sp.Integer(1))], unchecked=None,
                             no_method="a test claim")

            def simulate(p, R, seed):
                return {"mean": np.array([0.5]), "bound": np.array([1.0])}

            CHECKS = [Check("claimexp.R1", "run", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
                            simulate, grid=({},), result_id=CLAIM.id, form="printed")]
            """})
    loader.load_papers()  # the full load imports experiments.run1 for its claim
    assert "claimexp.experiments.run1" in sys.modules
    assert [r.id for r in catalog.results("claimexp")] == ["claimexp.claim1"]
    registry.load_papers()
    assert registry.module_of("claimexp.R1") == "claimexp.experiments.run1"
    assert [c.id for c in registry.all_checks("claimexp")] == ["claimexp.R1"]
