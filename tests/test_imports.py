"""The import graph of pflbounds: no module imports another that imports it back, and the
layers import downwards only (docs/architecture.md, "Layers").

Every import counts: at the top of a module, inside a function and under ``TYPE_CHECKING``.
``from package import name`` is an import of the submodule ``package.name`` when there is
one, else of the package. The graph is read from the source with ``ast``: nothing is
imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "pflbounds"

FOUNDATION = ("pflbounds.version", "pflbounds.shown", "pflbounds.lazy", "pflbounds.limits",
              "pflbounds.extras", "pflbounds.threads")
"""Root modules every layer may use; they import only each other."""
ENGINES = ("symbolic", "problems", "algorithms", "exact", "checking", "running", "reporting",
           "audit", "tightness")
"""The engine folders, lowest first: each imports only the folders before it."""
FRONT = ("pflbounds", "pflbounds.api", "pflbounds.cli", "pflbounds.docsgen", "pflbounds.locate",
         "pflbounds.newpaper")
"""The front ends (the package facade, the Python interface, the command line and its
helpers, the guide's generator): above the papers, imported by nothing below them."""

ALLOWED_CYCLES: list[set[str]] = []
"""Import circles left to remove, each with why. Empty: there is none."""


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _imports(module: str, path: Path) -> dict[str, int]:
    """The pflbounds modules ``module`` imports, each with the line of its first import."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        else:
            continue
        for n in names:
            if n in MODULES and n != module:
                out.setdefault(n, node.lineno)
    return out


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def _cycles(graph: dict[str, dict[str, int]] = GRAPH) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[set[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(graph[w])))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(comp)
    return found


def layer(module: str) -> tuple[int, str]:
    """The rank of a module's layer (foundation 0, the engines in order, papers, front
    ends) and the layer's name."""
    if module in FOUNDATION:
        return 0, "foundation"
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ENGINES:
        return 1 + ENGINES.index(parts[1]), parts[1]
    if len(parts) > 1 and parts[1] == "papers":
        return 1 + len(ENGINES), "papers"
    if module in FRONT or ".".join(parts[:2]) in FRONT:
        return 2 + len(ENGINES), "front"
    raise AssertionError(f"{module} belongs to no layer: add it to FOUNDATION, an engine "
                         "folder or FRONT in this test and in docs/architecture.md")


def test_the_graph_is_read():
    """The walk sees imports at the top, inside functions and under TYPE_CHECKING."""
    cli = GRAPH["pflbounds.cli.run"]
    assert "pflbounds.cli.errors" in cli  # at the top
    assert "pflbounds.running.locations" in cli  # inside a function
    assert "pflbounds.checking.outcome" in GRAPH["pflbounds.checking.check"]  # TYPE_CHECKING
    assert "pflbounds.symbolic.catalog" in GRAPH["pflbounds.cli.compute"]  # from pkg import mod
    assert len(MODULES) > 200


def test_the_circle_finder_finds_a_planted_circle():
    planted = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}, "e": {}}
    assert _cycles(planted) == [{"a", "b", "c"}]
    assert _cycles({"a": {"b": 1}, "b": {}}) == []


def test_layers_rank_upward_imports():
    assert layer("pflbounds.symbolic.result")[0] < layer("pflbounds.exact.propagator")[0]
    assert layer("pflbounds.audit.mutants")[0] < layer("pflbounds.papers.even2022.checks")[0]
    assert layer("pflbounds.papers.even2022")[0] < layer("pflbounds.cli.run")[0]
    assert layer("pflbounds.version") == (0, "foundation")


def test_no_import_circle():
    cycles = [c for c in _cycles() if c not in ALLOWED_CYCLES]
    lines = []
    for c in cycles:
        lines.append(" <-> ".join(sorted(c)))
        lines += [f"    {a} imports {b} (line {GRAPH[a][b]})"
                  for a in sorted(c) for b in sorted(GRAPH[a]) if b in c]
    assert not cycles, "import circles:\n" + "\n".join(lines)


def test_allowed_cycles_still_exist():
    """An allowance is removed with its circle."""
    gone = [c for c in ALLOWED_CYCLES if c not in _cycles()]
    assert not gone, f"remove from ALLOWED_CYCLES: {gone}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_run_downwards(module):
    """A module imports its own layer or lower ones: the engines in the order of ENGINES,
    the papers above them, the front ends on top; the foundation imports only itself."""
    rank, name = layer(module)
    up = [f"{b} ({layer(b)[1]}, line {line})" for b, line in GRAPH[module].items()
          if layer(b)[0] > rank]
    assert not up, f"{module} ({name}) imports a higher layer: {', '.join(up)}"
