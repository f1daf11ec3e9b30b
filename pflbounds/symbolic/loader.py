"""The paper loader shared by the result catalog and the check registry.

A paper is a Python package: every subpackage of ``pflbounds.papers``; every package that an
installed distribution registers in the entry-point group ``pflbounds.papers`` (``NAME =
"module"`` under ``[project.entry-points."pflbounds.papers"]`` of its pyproject; the module
is the paper package); every package that the environment variable ``PFLBOUNDS_PAPERS``
names, as a module name or as a folder (entries separated by commas or by the path separator:
a folder's packages are loaded from it, no ``PYTHONPATH`` needed); and any package added with
:func:`add_paper_package`. Importing the package registers its constants and results;
importing its ``checks`` submodule (when it has one) registers its checks. The catalog needs
only the former (a fast start for ``eval`` and ``solve``), the registry both.

A paper package may defer building its results: it then names, in ``MODULES``, the submodules
that a full load imports (those that register its results, complexity table and methods), and
in ``RESULT_MODULES`` ({result key: submodule}) the submodule that declares each result.
``eval`` and ``solve`` then import only the submodule of their result (and what it imports),
not the sympy expressions of every other result; every other command loads the whole paper.

A paper that fails to import is an error that names the paper and the cause
(:class:`PaperLoadError`), raised on every load, never a silent absence.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import sys
import traceback

PAPERS_PACKAGE = "pflbounds.papers"
ENV_VAR = "PFLBOUNDS_PAPERS"
ENTRY_POINTS = "pflbounds.papers"
"""The entry-point group through which an installed paper package registers itself."""

_EXTRA: list[str] = []
_LOADED: set[str] = set()
_FAILED: dict[str, str] = {}


class PaperLoadError(RuntimeError):
    """A paper package (or its checks) failed to import."""

    def __init__(self, module: str, cause: str) -> None:
        self.module = module
        self.cause = cause
        super().__init__(f"paper {_paper_name(module)!r} failed to load ({module}): {cause}")


def _paper_name(module: str) -> str:
    parts = module.split(".")
    if parts[-1] == "checks" and len(parts) > 1:
        parts = parts[:-1]
    return parts[-1]


def add_paper_package(module: str) -> None:
    """Load ``module`` as a paper too (in this process and, through the environment, in
    worker processes started afterwards)."""
    if module not in _EXTRA:
        _EXTRA.append(module)
    names = [n for n in os.environ.get(ENV_VAR, "").split(",") if n]
    if module not in names:
        os.environ[ENV_VAR] = ",".join([*names, module])


def remove_paper_package(module: str) -> None:
    """Undo :func:`add_paper_package` (its results and checks stay registered)."""
    if module in _EXTRA:
        _EXTRA.remove(module)
    names = [n for n in os.environ.get(ENV_VAR, "").split(",") if n and n != module]
    if names:
        os.environ[ENV_VAR] = ",".join(names)
    else:
        os.environ.pop(ENV_VAR, None)
    for name in [m for m in _FAILED if m == module or m.startswith(module + ".")]:
        del _FAILED[name]


def _env_entries() -> list[str]:
    """The entries of ``PFLBOUNDS_PAPERS``: module names and folders."""
    raw = os.environ.get(ENV_VAR, "")
    return [e.strip() for part in raw.split(",") for e in part.split(os.pathsep) if e.strip()]


def _on_path(folder: str) -> None:
    if folder not in sys.path:
        sys.path.append(folder)


def env_packages(entry: str) -> list[str]:
    """The paper packages of one entry of ``PFLBOUNDS_PAPERS``: a folder that holds an
    ``__init__.py`` is one paper package, any other folder holds paper packages (its
    subfolders with an ``__init__.py``), anything else is a module name. The folder that
    holds the packages goes on ``sys.path``, so that they import. :class:`PaperLoadError`
    for a path that is not a folder."""
    looks_like_path = os.sep in entry or entry.startswith((".", "~")) or (
        os.altsep is not None and os.altsep in entry)
    path = os.path.abspath(os.path.expanduser(entry))
    if not os.path.isdir(path):
        if looks_like_path or not all(p.isidentifier() for p in entry.split(".")):
            raise PaperLoadError(entry, f"{ENV_VAR} names {entry!r}, which is not a folder "
                                        "(expected a folder of paper packages, a paper "
                                        "package's folder or a module name)")
        return [entry]
    if os.path.isfile(os.path.join(path, "__init__.py")):
        _on_path(os.path.dirname(path))
        return [os.path.basename(path)]
    _on_path(path)
    return sorted(info.name for info in pkgutil.iter_modules([path])
                  if info.ispkg and info.name.isidentifier())


def entry_point_packages() -> list[str]:
    """Modules registered in the entry-point group ``pflbounds.papers`` by installed
    distributions, in the order of their names."""
    from importlib.metadata import entry_points

    eps = sorted(entry_points(group=ENTRY_POINTS), key=lambda ep: ep.name)
    return list(dict.fromkeys(ep.module for ep in eps))


def paper_packages(*, installed: bool = True) -> list[str]:
    """Module names of every paper package: those under ``pflbounds.papers``, then the ones
    installed distributions register (``installed``), then those of ``PFLBOUNDS_PAPERS`` and
    :func:`add_paper_package`."""
    pkg = importlib.import_module(PAPERS_PACKAGE)
    found = [info.name for info in pkgutil.iter_modules(pkg.__path__, prefix=PAPERS_PACKAGE + ".")
             if info.ispkg]
    extra: list[str] = entry_point_packages() if installed else []
    for entry in [*_EXTRA, *_env_entries()]:
        extra.extend(env_packages(entry))
    for name in extra:
        if name not in found:
            found.append(name)
    return found


def _import(name: str) -> None:
    if name in _LOADED:
        return
    if name in _FAILED:
        raise PaperLoadError(name, _FAILED[name])
    try:
        importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - reported as the paper's load error
        cause = traceback.format_exception_only(type(exc), exc)[-1].strip()
        _FAILED[name] = cause
        raise PaperLoadError(name, cause) from exc
    _LOADED.add(name)


def _import_paper(name: str) -> None:
    """Import the paper package ``name`` and, when it defers its results, every module its
    ``MODULES`` names."""
    _import(name)
    for sub in getattr(sys.modules[name], "MODULES", ()):
        _import(f"{name}.{sub}")


def load_papers(*, checks: bool = False) -> list[str]:
    """Import every paper package (and, with ``checks``, its ``checks`` module), once.

    Returns the module names loaded. Raises :class:`PaperLoadError` for the first paper that
    fails, every time it is called.
    """
    for name in paper_packages():
        _import_paper(name)
        if checks:
            sub = name + ".checks"
            if sub in _LOADED:
                continue
            try:
                spec = importlib.util.find_spec(sub)
            except (ImportError, ValueError):
                spec = None
            if spec is not None:
                _import(sub)
    return sorted(_LOADED)


def load_paper(paper_id: str, *, checks: bool = False) -> bool:
    """Import only the package of ``paper_id`` (the last component of its module name), and
    its ``checks`` module with ``checks``. Returns False when no paper package has that id.
    A fast start for commands about one result (``eval``, ``solve``)."""
    names = [n for n in paper_packages(installed=False) if n.rsplit(".", 1)[-1] == paper_id] \
        or [n for n in paper_packages() if n.rsplit(".", 1)[-1] == paper_id]
    for name in names:
        _import_paper(name)
        if checks and importlib.util.find_spec(name + ".checks") is not None:
            _import(name + ".checks")
    return bool(names)


def load_for_result(result_id: str) -> None:
    """Load what a result id needs: the module that declares it when its paper defers its
    results (``RESULT_MODULES``), else its whole paper, or every paper when the id names none
    (so that an unknown id can be answered with suggestions)."""
    paper_id, _, key = result_id.partition(".")
    names = [n for n in paper_packages(installed=False) if n.rsplit(".", 1)[-1] == paper_id] \
        or [n for n in paper_packages() if n.rsplit(".", 1)[-1] == paper_id]
    for name in names:
        _import(name)
        sub = getattr(sys.modules[name], "RESULT_MODULES", {}).get(key)
        if sub is not None:
            _import(f"{name}.{sub}")
            return
    if not load_paper(paper_id):
        load_papers()


def load_failures() -> dict[str, str]:
    """Modules that failed to import, with the last line of their error."""
    return dict(_FAILED)
