"""Every paper folder follows the template (``docs/adding-a-paper.md``): the files the
template requires, a manifest consistent with the folders, theory and checks mirrored by
topic, no stray top-level module, errata ids in one scheme, each result id typed once (in its
declaration), every bound and complexity result naming its method or why none, and the
skeleton of ``pflbounds new-paper`` in the same layout as the fixture paper ``toypaper``,
which is the template a new paper copies.

The papers not converted to the template yet are listed in ``PENDING``, here only: remove a
paper from it when it is converted (the test fails for a pending paper that declares a
manifest), and remove ``PENDING`` with the legacy loading path (``MODULES`` and
``RESULT_MODULES`` in :mod:`pflbounds.symbolic.loader`) once it is empty.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
from layout_rules import BOUND_KINDS, ERRATUM_ID, layout_problems, manifest_in_source

from pflbounds.symbolic.manifest import declared_keys

PENDING: set[str] = set()
"""Papers still on the layout before manifests (see the module docstring)."""

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "pflbounds" / "papers"
TEMPLATE = ROOT / "tests" / "fixtures" / "papers" / "toypaper"
PAPERS = sorted(p.name for p in SHIPPED.iterdir() if (p / "__init__.py").is_file())
CONVERTED = [p for p in PAPERS if p not in PENDING]
FOLDERS = {**{p: SHIPPED / p for p in CONVERTED}, "toypaper": TEMPLATE}
"""Every paper folder the template applies to: the converted papers and the template."""


@pytest.mark.parametrize("paper", sorted(FOLDERS))
def test_the_paper_folder_follows_the_template(paper):
    assert layout_problems(FOLDERS[paper]) == []


def test_pending_papers_are_the_ones_without_a_manifest():
    assert PENDING <= set(PAPERS), "PENDING names a paper that does not exist"
    converted = [p for p in PENDING if "MANIFEST" in (SHIPPED / p / "__init__.py").read_text()]
    assert converted == [], f"{converted} declare a manifest: remove them from PENDING"
    for p in CONVERTED:
        assert "RESULT_MODULES" not in (SHIPPED / p / "__init__.py").read_text()


@pytest.fixture
def loaded(extra_paper):
    """Load the template paper next to the shipped ones; give a paper's package name."""
    extra_paper("toypaper")
    from pflbounds.checking import registry

    registry.load_papers()
    return lambda paper: "toypaper" if paper == "toypaper" else f"pflbounds.papers.{paper}"


@pytest.mark.parametrize("paper", sorted(FOLDERS))
def test_the_manifest_is_what_the_package_declares_and_indexes_every_result(paper, loaded):
    from pflbounds.symbolic import catalog, loader

    pkg = loaded(paper)
    assert importlib.import_module(pkg).MANIFEST == manifest_in_source(FOLDERS[paper])
    index = loader.result_modules(pkg)
    results = catalog.results(paper)
    assert sorted(index) == sorted(r.id.split(".", 1)[1] for r in results)
    for r in results:  # declared in the module the index names, nowhere else
        where = Path(r.extra["defined_at"].rsplit(":", 1)[0]).with_suffix("")
        assert where.parts[-2:] == tuple(index[r.id.split(".", 1)[1]].split(".")), r.id


@pytest.mark.parametrize("paper", sorted(FOLDERS))
def test_checks_are_grouped_by_the_topic_whose_results_they_check(paper, loaded):
    from pflbounds.symbolic import catalog, loader

    pkg = loaded(paper)
    man = manifest_in_source(FOLDERS[paper])
    index = loader.result_modules(pkg)
    for topic in man.checks:
        mod = importlib.import_module(f"{pkg}.checks.{topic}")
        assert isinstance(mod.CHECKS, list) and mod.CHECKS, f"checks/{topic}.py: no CHECKS"
        for c in mod.CHECKS:
            if c.result_id:
                assert index[c.result_id.split(".", 1)[1]] == f"theory.{topic}", \
                    f"{c.id} checks {c.result_id}, which theory/{topic}.py does not declare"
    for topic in set(man.theory) - set(man.checks):  # nothing to check: every result says why
        keys = [k for k, m in index.items() if m == f"theory.{topic}"]
        assert all(catalog.get(f"{paper}.{k}").unchecked for k in keys), topic


@pytest.mark.parametrize("paper", sorted(FOLDERS))
def test_errata_ids_follow_one_scheme_and_never_collide_with_a_check(paper, loaded):
    from pflbounds.checking import registry

    errata = importlib.import_module(f"{loaded(paper)}.errata").ERRATA
    checks = {c.id for c in registry.all_checks(paper)}
    for key, e in errata.items():
        assert re.fullmatch(ERRATUM_ID, key), f"{e.id}: expected {paper}.erratum<N>[_<word>]"
        assert e.id == f"{paper}.{key}" and e.id not in checks


def _strings(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


@pytest.mark.parametrize("paper", sorted(FOLDERS))
def test_each_result_id_is_typed_once_in_its_declaration(paper, loaded):
    """Checks, audits, complexity tables and instances refer to a result through the object
    its declaration returns (``THEOREM2.id``), never through its id typed again."""
    from pflbounds.symbolic import catalog

    keys = {r.id.split(".", 1)[1] for r in catalog.results(paper)}
    typed: dict[str, list[str]] = {k: [] for k in keys}
    for f in sorted(FOLDERS[paper].rglob("*.py")):
        src = f.read_text(encoding="utf-8")
        for s in _strings(ast.parse(src)):
            key = s.split(":", 1)[0].removeprefix(f"{paper}.")
            if key in typed and (s == key or s.startswith(f"{paper}.")):
                typed[key].append(str(f.relative_to(FOLDERS[paper])))
    declared = {k: 0 for k in keys}
    for f in sorted([*(FOLDERS[paper] / "theory").glob("*.py"),
                     *(FOLDERS[paper] / "experiments").glob("*.py")]):  # claims are results
        for k in declared_keys(f.read_text(encoding="utf-8")):
            declared[k] = declared.get(k, 0) + 1
    assert {k: v for k, v in typed.items() if len(v) != 1} == {}
    assert {k: n for k, n in declared.items() if n != 1 and k in keys} == {}


@pytest.mark.parametrize("paper", sorted(FOLDERS))
def test_checks_evaluate_results_through_the_catalog(paper):
    """A check reads a form through ``bound(THEOREM1, ...)`` or ``get(THEOREM1.id)``: the
    mutation audit replaces the catalog's entry, which the declared object never sees."""
    folder = FOLDERS[paper]
    pattern = re.compile(r"\b[A-Z][A-Z0-9_]*\.(form\(|forms\b|conditions\b|derivations\b)")
    hits = [f"{f.relative_to(folder)}:{i}"
            for d in ("checks", "experiments") for f in sorted((folder / d).glob("*.py"))
            for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
            if pattern.search(line)]
    assert hits == []


@pytest.mark.parametrize("paper", sorted(FOLDERS))
def test_every_bound_and_complexity_result_names_its_method_or_why_none(paper, loaded):
    from pflbounds.symbolic import catalog

    loaded(paper)
    silent = [r.id for r in catalog.results(paper) if r.kind.value in BOUND_KINDS
              and not catalog.algorithms_of(r.id) and not r.no_method]
    assert silent == []


def test_new_paper_writes_the_layout_of_the_template(tmp_path):
    from pflbounds.newpaper import write_skeleton

    write_skeleton("doe2100", tmp_path, set())
    pkg = tmp_path / "doe2100"
    assert layout_problems(pkg, outside=True) == []
    assert manifest_in_source(pkg) == manifest_in_source(TEMPLATE)

    def files(folder: Path) -> list[str]:
        return sorted(str(p.relative_to(folder)) for p in folder.rglob("*.py")
                      if "__pycache__" not in p.parts and p.name != f"test_{folder.name}.py")

    assert files(pkg) == files(TEMPLATE)
