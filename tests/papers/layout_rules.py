"""The template's rules about a paper folder, read from its files without importing it (used
by ``test_layout.py`` and by the test of the guide's example paper)."""

from __future__ import annotations

import ast
from pathlib import Path

from pflbounds.symbolic.manifest import (
    OPTIONAL_MODULES,
    REQUIRED_MODULES,
    SHARED_CHECK_MODULE,
    Manifest,
)

OUTSIDE_EXTRAS = ("suites",)
"""What a paper outside pflbounds keeps besides the template: its ``suites/`` folder and its
``test_<paper>.py`` (the skeleton writes both)."""
ERRATUM_ID = r"erratum[0-9]+(_[a-z0-9]+)*"
BOUND_KINDS = ("upper bound", "lower bound", "complexity")


def manifest_in_source(folder: Path) -> Manifest:
    """The manifest of a paper folder, read from its ``__init__.py`` without importing it:
    ``MANIFEST = Manifest(...)`` with literal arguments (the template's rule)."""
    tree = ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets]
                == ["MANIFEST"] and isinstance(node.value, ast.Call)):
            assert not node.value.args, "MANIFEST = Manifest(...) takes keyword arguments"
            return Manifest(**{k.arg: ast.literal_eval(k.value) for k in node.value.keywords})
    raise AssertionError(f"{folder / '__init__.py'} declares no MANIFEST = Manifest(...)")


def _modules(folder: Path) -> set[str]:
    return {p.stem for p in folder.glob("*.py")} - {"__init__"}


def layout_problems(folder: Path, outside: bool = False) -> list[str]:
    """What in ``folder`` departs from the template (empty: none). ``outside``: a paper
    outside pflbounds, which may also keep ``suites/`` and ``test_<paper>.py``."""
    m = manifest_in_source(folder)
    out = []
    top = _modules(folder)
    if outside:
        top -= {f"test_{folder.name}"}
    missing = [f"{n}.py" for n in REQUIRED_MODULES if n not in top]
    out += [f"missing {', '.join(missing)}"] if missing else []
    for opt in ("instances", "complexity", "audit"):
        if (opt in top) != getattr(m, opt):
            out.append(f"{opt}.py {'exists' if opt in top else 'is missing'} but the manifest "
                       f"says {opt}={getattr(m, opt)}")
    stray = sorted(top - set(REQUIRED_MODULES) - set(OPTIONAL_MODULES))
    out += [f"stray top-level module(s) {', '.join(stray)}"] if stray else []
    dirs = {p.name for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"}
    allowed = {"theory", "checks", *(("experiments",) if m.experiments else ()),
               *(OUTSIDE_EXTRAS if outside else ())}
    out += [f"stray folder(s) {', '.join(sorted(dirs - allowed))}"] if dirs - allowed else []
    for pkg, want, extra in (("theory", m.theory, set()),
                             ("checks", m.checks, {SHARED_CHECK_MODULE}),
                             ("experiments", m.experiments, {SHARED_CHECK_MODULE})):
        if pkg not in dirs:
            if want or pkg != "experiments":
                out.append(f"missing {pkg}/")
            continue
        if not (folder / pkg / "__init__.py").is_file():
            out.append(f"{pkg}/ has no __init__.py")
        sub = {p.name for p in (folder / pkg).iterdir() if p.is_dir()} - {"__pycache__"}
        out += [f"{pkg}/ holds folders {', '.join(sorted(sub))}"] if sub else []
        found = _modules(folder / pkg) - extra
        if found != set(want):
            out.append(f"{pkg}/ holds {sorted(found)} but the manifest names {sorted(want)}")
    return out


