"""Code fingerprints: what a cached task's numbers depend on besides its config.

A task's evidence is a function of its config (check id, kind, engine, grid point, replicas,
block, base seed: :attr:`pflbounds.running.tasks.Task.key`) and of the code that computes it.
The fingerprint of a check stands for that code:

* the package version and the versions of the numerical dependencies (:data:`DEPENDENCIES`);
* the *engines*: a SHA-256 over the source of every module under :data:`ENGINE_PACKAGES` and of
  the modules in :data:`ENGINE_MODULES` (evidence conventions, seeds, task execution);
* the *paper*: a SHA-256 over every file of the paper package that holds the check (theory,
  methods and checks), when the check comes from a paper;
* the *check*: the source file of the module that defines its ``simulate``, the function's
  qualified name, the values it closes over, and ``check.version`` when a check sets one (a
  manual bump for a change the hashes cannot see).

Any edit to one of these files changes the keys of the checks it concerns, so a cache never
serves numbers from other code. File hashes are memoised by (path, size, mtime).

Tree hashes (engines, papers) walk and stat a few hundred files. Inside :func:`frozen_trees`
they are computed once, and so is the list of paper packages: a sweep fixes them while it
plans its keys (the client), and a worker process fixes them for its lifetime, since the code
it has imported is what it runs whatever happens to the files later (an edit while a worker
lives then shows as a mismatch with the client's hash, and the result is refused, rather than
being passed off as the new code's).

A check read from a paper's index (:mod:`pflbounds.checking.indexed`) has the fingerprint of
the registered check: its code origin is recorded, and the files are hashed as they are now.

A check whose simulate cannot be pinned to source (defined interactively, or closing over
values with no canonical form) has no fingerprint: it always runs, and is never cached.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from pflbounds.checking.check import Check
from pflbounds.checking.indexed import IndexedSimulate
from pflbounds.checking.jsonsafe import canonical_json
from pflbounds.symbolic import loader
from pflbounds.version import __version__

ENGINE_PACKAGES = ("symbolic", "problems", "algorithms", "exact")
ENGINE_MODULES = ("__init__.py", "version.py", "checking/__init__.py", "checking/check.py",
                  "checking/evidence.py", "checking/jsonsafe.py", "checking/kinds.py",
                  "running/tasks.py", "running/seeds.py", "running/config.py")
DEPENDENCIES = ("numpy", "scipy", "sympy", "cvxpy", "clarabel")

_ROOT = Path(__file__).resolve().parents[1]
_FILE_HASHES: dict[str, tuple[int, int, str]] = {}
_TREES: dict[str, str | None] | None = None
"""Memo of the tree hashes while frozen (None: not frozen, every call walks the tree)."""


@contextlib.contextmanager
def frozen_trees() -> Iterator[None]:
    """Compute each engine and paper tree hash once inside the block (see the module
    docstring); nested blocks share the outer memo."""
    global _TREES
    if _TREES is not None:
        yield
        return
    _TREES = {}
    try:
        yield
    finally:
        _TREES = None


def freeze_trees_for_process() -> None:
    """Fix the tree hashes for the rest of this (worker) process's life."""
    global _TREES
    if _TREES is None:
        _TREES = {}


def _memo(name: str, compute: Callable[[], str | None]) -> str | None:
    if _TREES is None:
        return compute()
    if name not in _TREES:
        _TREES[name] = compute()
    return _TREES[name]


def file_hash(path: str | Path) -> str:
    """SHA-256 of a file's bytes (memoised by path, size and modification time)."""
    p = os.fspath(path)
    st = os.stat(p)
    memo = _FILE_HASHES.get(p)
    if memo is not None and memo[:2] == (st.st_size, st.st_mtime_ns):
        return memo[2]
    with open(p, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    _FILE_HASHES[p] = (st.st_size, st.st_mtime_ns, digest)
    return digest


def tree_hash(root: Path, files: Iterable[Path] | None = None) -> str:
    """SHA-256 over the relative names and hashes of the files under ``root`` (``__pycache__``
    and compiled files left out), or of the given ``files``."""
    if files is None:
        files = [p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                 and p.suffix not in (".pyc", ".pyo")]
    h = hashlib.sha256()
    for p in sorted(files):
        h.update(f"{p.relative_to(root).as_posix()}\0{file_hash(p)}\n".encode())
    return h.hexdigest()


def engines_hash() -> str:
    """The hash of the engine sources (see the module docstring)."""
    return _memo("engines", _engines_hash)  # type: ignore[return-value]


def _engines_hash() -> str:
    files = [p for pkg in ENGINE_PACKAGES for p in (_ROOT / pkg).rglob("*.py")
             if "__pycache__" not in p.parts]
    files += [_ROOT / m for m in ENGINE_MODULES if (_ROOT / m).is_file()]
    return tree_hash(_ROOT, files)


@functools.cache
def dependency_versions() -> dict[str, str]:
    """Installed versions of the numerical dependencies (``"-"`` when one is absent)."""
    out = {}
    for name in DEPENDENCIES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "-"
    return out


def _module_file(name: str) -> Path | None:
    mod = sys.modules.get(name)
    f = getattr(mod, "__file__", None)
    return Path(f).resolve() if f and Path(f).is_file() else None


def paper_package(module: str) -> str | None:
    """The paper package (module name) that contains ``module``, or None. Inside
    :func:`frozen_trees` the list of paper packages is read once (it reads the installed
    distributions' entry points: some 20 ms a time)."""
    packages = _memo("paper packages", lambda: "\n".join(loader.paper_packages()))
    for pkg in filter(None, (packages or "").split("\n")):
        if module == pkg or module.startswith(pkg + "."):
            return pkg
    return None


def _package_init(package: str) -> Path | None:
    """The ``__init__.py`` of a package: of the imported module, else where an import would
    find it (a check read from an index leaves its paper unimported)."""
    f = _module_file(package)
    if f is not None or package in sys.modules:
        return f
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    origin = getattr(spec, "origin", None)
    return Path(origin).resolve() if origin and Path(origin).is_file() else None


def paper_hash(package: str) -> str | None:
    """The hash of every file of a paper package (None if it has no folder)."""
    def compute() -> str | None:
        f = _package_init(package)
        if f is None or f.name != "__init__.py":
            return None
        return tree_hash(f.parent)

    return _memo(f"paper:{package}", compute)


def _origin(fn: Any) -> dict[str, Any] | None:
    """Where a simulate callable comes from: module, qualified name, closed-over values.
    None when it cannot be pinned to source."""
    if isinstance(fn, functools.partial):
        inner = _origin(fn.func)
        try:
            args = canonical_json([list(fn.args), fn.keywords])
        except (TypeError, ValueError):
            return None
        return None if inner is None else {**inner, "partial": args}
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", None)
    if qualname is None and callable(fn):  # an instance with __call__
        module, qualname = type(fn).__module__, type(fn).__qualname__
        try:
            state = canonical_json(vars(fn))
        except (TypeError, ValueError):
            return None
        return {"module": module, "qualname": qualname, "state": state}
    if not module or not qualname:
        return None
    out: dict[str, Any] = {"module": module, "qualname": qualname}
    cells = getattr(fn, "__closure__", None)
    if cells:
        try:
            out["closure"] = canonical_json([c.cell_contents for c in cells])
        except (TypeError, ValueError):
            return None
    return out


def _simulate_module(check: Check) -> str:
    """The ``__module__`` of a check's simulate (recorded, for a check read from an index)."""
    sim = check.simulate
    if isinstance(sim, IndexedSimulate):
        return sim.sim_module
    return getattr(sim, "__module__", None) or ""


def installation(check: Check) -> dict[str, Any]:
    """The parts of a check's fingerprint that come with the installed code: version,
    dependencies, engines and paper. A worker compares these with its client's."""
    module = _simulate_module(check)
    pkg = paper_package(module)
    return {
        "version": __version__,
        "dependencies": dependency_versions(),
        "engines": engines_hash(),
        "paper": None if pkg is None else {"package": pkg, "hash": paper_hash(pkg)},
    }


def code_record(check: Check) -> dict[str, Any]:
    """What a check's fingerprint needs of its code, recorded by a paper's index:
    ``sim_module`` (the ``__module__`` of ``simulate``), ``origin`` (module, qualified name,
    closed-over values; None when it cannot be pinned) and ``origin_file`` (the source file
    of that module, or None)."""
    origin = _origin(check.simulate)
    f = None if origin is None else _module_file(origin["module"])
    return {"sim_module": _simulate_module(check), "origin": origin,
            "origin_file": None if f is None else str(f)}


def installation_hash(check: Check) -> str:
    """SHA-256 of :func:`installation`."""
    return hashlib.sha256(canonical_json(installation(check)).encode()).hexdigest()


def check_fingerprint(check: Check) -> str | None:
    """The fingerprint of a check's code (module docstring), or None when it has none. A
    check read from an index (:mod:`pflbounds.checking.indexed`) gives the same fingerprint
    as the registered check, from its recorded origin and the files as they are now."""
    sim = check.simulate
    if isinstance(sim, IndexedSimulate):
        origin = dict(sim.origin) if sim.origin is not None else None
        f = Path(sim.origin_file) if sim.origin_file and Path(sim.origin_file).is_file() \
            else None
    else:
        origin = _origin(sim)
        f = None if origin is None else _module_file(origin["module"])
    if origin is None or f is None:
        return None
    doc = {
        **installation(check),
        "simulate": origin,
        "module_hash": file_hash(f),
        "check_version": getattr(check, "version", None),
    }
    try:
        text = canonical_json(doc)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(text.encode()).hexdigest()


def cache_key(task_key: str, fingerprint: str) -> str:
    """The cache key of a task: its config key (:attr:`Task.key`) with its check's
    fingerprint."""
    return hashlib.sha256(f"pflbounds.task/1:{task_key}:{fingerprint}".encode()).hexdigest()
