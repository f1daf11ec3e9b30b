"""The paper loader shared by the result catalog and the check registry.

A paper is a Python package: every subpackage of ``pflbounds.papers``; every package that an
installed distribution registers in the entry-point group ``pflbounds.papers`` (``NAME =
"module"`` under ``[project.entry-points."pflbounds.papers"]`` of its pyproject; the module
is the paper package); every package that the environment variable ``PFLBOUNDS_PAPERS``
names, as a module name or as a folder (entries separated by commas or by the path separator:
a folder's packages are loaded from it, no ``PYTHONPATH`` needed); and any package added with
:func:`add_paper_package`. Importing the package and its result modules registers its
constants and results; importing its check modules registers its checks. The catalog needs
only the former (a fast start for ``eval`` and ``solve``), the registry both.

A paper package declares its layout in a :class:`~pflbounds.symbolic.manifest.Manifest`
(``MANIFEST`` in its ``__init__.py``). A full load imports what the manifest's
:meth:`~pflbounds.symbolic.manifest.Manifest.full_load` names (assumptions, errata, every
theory and experiment module, the complexity calculator); a load with checks also imports its
check modules (:meth:`~pflbounds.symbolic.manifest.Manifest.check_modules`), whose ``CHECKS``
the check registry registers. ``eval`` and ``solve`` import only the module that declares
their result, found in the index generated from the manifest
(:func:`~pflbounds.symbolic.manifest.result_index`), not the sympy expressions of every other
result.

A package without a manifest is loaded whole: importing it registers its results, and its
``checks`` module (when it has one) registers its checks. Until every shipped paper declares a
manifest, such a package may also name, in ``MODULES``, the submodules a full load imports and,
in ``RESULT_MODULES`` ({result key: submodule}), the submodule that declares each result (the
layout before manifests; ``tests/papers/test_layout.py`` lists the papers still on it).

A paper that fails to import is an error that names the paper and the cause
(:class:`PaperLoadError`), raised on every load, never a silent absence.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from pflbounds.symbolic.manifest import Manifest, result_index

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
    """The paper id of a paper package or of one of its modules."""
    for name in sorted(_KNOWN_PACKAGES, key=len, reverse=True):
        if module == name or module.startswith(name + "."):
            return name.rsplit(".", 1)[-1]
    parts = module.split(".")
    if parts[-1] == "checks" and len(parts) > 1:
        parts = parts[:-1]
    return parts[-1]


_KNOWN_PACKAGES: set[str] = set()
"""Paper packages found so far (to name the paper of a module that fails)."""


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
    _KNOWN_PACKAGES.update(found)
    return found


def _import(name: str, *, checks: bool = False) -> None:
    """Import ``name`` once; ``checks``: it declares ``CHECKS``, which the listeners of
    :func:`on_check_module` receive (the check registry registers them), also when a full
    load imported it first (an experiment module declares results and runs checks)."""
    if name in _LOADED and not (checks and name not in _CHECK_MODULES):
        return
    if name in _FAILED:
        raise PaperLoadError(name, _FAILED[name])
    try:
        module = importlib.import_module(name)
        if checks:
            _announce_checks(name, module)
    except Exception as exc:  # noqa: BLE001 - reported as the paper's load error
        import traceback  # only here: its import costs a cold eval 1%

        cause = traceback.format_exception_only(type(exc), exc)[-1].strip()
        _FAILED[name] = cause
        raise PaperLoadError(name, cause) from exc
    _LOADED.add(name)


_CHECK_MODULES: list[str] = []
"""The declared check modules imported so far, in import order."""
_CHECK_LISTENERS: list[Callable[[str, ModuleType], None]] = []


def _announce_checks(name: str, module: ModuleType) -> None:
    _CHECK_MODULES.append(name)
    for listener in list(_CHECK_LISTENERS):
        listener(name, module)


def on_check_module(listener: Callable[[str, ModuleType], None]) -> None:
    """Call ``listener(name, module)`` for every declared check module imported from now on
    (and at once for those imported already). The check registry listens, so that the
    engines below it need not import it."""
    if listener not in _CHECK_LISTENERS:
        _CHECK_LISTENERS.append(listener)
    for name in list(_CHECK_MODULES):
        mod = sys.modules.get(name)
        if mod is not None:
            listener(name, mod)


def manifest_of(name: str) -> Manifest | None:
    """The manifest of the paper package ``name`` (imported), or None when it declares none.
    A ``MANIFEST`` that is not a :class:`Manifest` is the paper's load error."""
    found = getattr(sys.modules[name], "MANIFEST", None)
    if found is None or isinstance(found, Manifest):
        return found
    raise PaperLoadError(name, f"MANIFEST is a {type(found).__name__}, expected a "
                               "pflbounds.symbolic.manifest.Manifest")


def paper_folder(name: str) -> Path:
    """The folder of the (imported) paper package ``name``."""
    return Path(sys.modules[name].__file__).parent  # type: ignore[arg-type]


def result_modules(name: str) -> dict[str, str]:
    """``{result key: submodule}`` of the (imported) paper package ``name``: generated from
    its manifest, or its own ``RESULT_MODULES`` before it declares one ({} when neither)."""
    man = manifest_of(name)
    if man is not None:
        return result_index(paper_folder(name), man)
    return dict(getattr(sys.modules[name], "RESULT_MODULES", {}))


def _import_paper(name: str) -> None:
    """Import the paper package ``name`` and what its full load needs: the modules of its
    manifest (or, before it declares one, of its ``MODULES``)."""
    _import(name)
    man = manifest_of(name)
    subs = man.full_load(result_modules(name)) if man is not None \
        else getattr(sys.modules[name], "MODULES", ())
    for sub in subs:
        _import(f"{name}.{sub}")


def _import_checks(name: str) -> None:
    """Import the check modules of the (imported) paper package ``name``: those of its
    manifest, or its ``checks`` module when it declares none."""
    man = manifest_of(name)
    if man is not None:
        for sub in man.check_modules():
            _import(f"{name}.{sub}", checks=True)
        return
    sub = name + ".checks"
    if sub in _LOADED:
        return
    try:
        spec = importlib.util.find_spec(sub)
    except (ImportError, ValueError):
        spec = None
    if spec is not None:
        _import(sub)


def load_papers(*, checks: bool = False) -> list[str]:
    """Import every paper package (and, with ``checks``, its check modules), once.

    Returns the module names loaded. Raises :class:`PaperLoadError` for the first paper that
    fails, every time it is called.
    """
    for name in paper_packages():
        _import_paper(name)
        if checks:
            _import_checks(name)
    return sorted(_LOADED)


def load_package(name: str, *, checks: bool = False) -> None:
    """Import the paper package ``name`` (a module name of :func:`paper_packages`) as a full
    load does, and its check modules with ``checks``; :class:`PaperLoadError` when it fails."""
    _KNOWN_PACKAGES.add(name)
    _import_paper(name)
    if checks:
        _import_checks(name)


def packages_of(paper_id: str) -> list[str]:
    """The module names of the paper packages of ``paper_id`` (the last component of the
    name): the ones shipped and named by ``PFLBOUNDS_PAPERS`` first, else installed ones."""
    return _packages_of(paper_id)


def _packages_of(paper_id: str) -> list[str]:
    return [n for n in paper_packages(installed=False) if n.rsplit(".", 1)[-1] == paper_id] \
        or [n for n in paper_packages() if n.rsplit(".", 1)[-1] == paper_id]


def load_paper(paper_id: str, *, checks: bool = False) -> bool:
    """Import only the package of ``paper_id`` (the last component of its module name), and
    its check modules with ``checks``. Returns False when no paper package has that id.
    A fast start for commands about one result (``eval``, ``solve``)."""
    names = _packages_of(paper_id)
    for name in names:
        _import_paper(name)
        if checks:
            _import_checks(name)
    return bool(names)


def paper_module(paper_id: str, part: str) -> ModuleType | None:
    """The module ``part`` (``complexity``, ``audit``, ``instances``) of ``paper_id``'s
    package when its manifest declares it (a package without a manifest: when it exists),
    imported; None otherwise, or when no package has that id."""
    for name in _packages_of(paper_id):
        _import(name)
        man = manifest_of(name)
        if man is not None:
            return importlib.import_module(f"{name}.{part}") if getattr(man, part) else None
        try:
            spec = importlib.util.find_spec(f"{name}.{part}")
        except (ImportError, ValueError):
            spec = None
        return importlib.import_module(f"{name}.{part}") if spec is not None else None
    return None


def load_for_result(result_id: str) -> None:
    """Load what a result id needs: the module that declares it when its paper's index
    (:func:`result_modules`) knows it, else its whole paper, or every paper when the id names
    none (so that an unknown id can be answered with suggestions)."""
    paper_id, _, key = result_id.partition(".")
    for name in _packages_of(paper_id):
        _import(name)
        sub = result_modules(name).get(key)
        if sub is not None:
            _import(f"{name}.{sub}")
            return
    if not load_paper(paper_id):
        load_papers()


def load_failures() -> dict[str, str]:
    """Modules that failed to import, with the last line of their error."""
    return dict(_FAILED)
