"""The key of a paper's index: a hash of what its content is computed from.

The content of an index (the fields of every check, its code origin, the listing of the
results, the location and existence of the methods) comes from the paper package's files and
from pflbounds' own (a check's defaults, the families and methods it builds on, the printers).
The key hashes every file of both trees (``__pycache__`` and compiled files left out), their
paths (two clones of one commit have their own locations), the pflbounds and Python versions,
and the installed dependencies and extras (where each is found and when it was written: an
upgrade or an uninstall changes it). File hashes are memoised in the process by path, size
and modification time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

from pflbounds.version import __version__

FORMAT = "pflbounds.running.index/1"
"""The format of the index files; a new format makes new keys."""
ROOT = Path(__file__).resolve().parents[2]
"""The folder of the pflbounds package."""
PAPERS = ROOT / "papers"
STAMPED = ("numpy", "scipy", "sympy", "cvxpy", "clarabel", "jax", "pyarrow", "PEPit", "dask",
           "distributed", "sklearn")
"""The dependencies and extras whose installation enters the key (the numerical
dependencies of a check's fingerprint, and the extras whose absence changes what a paper
declares or which methods exist)."""

_DIGESTS: dict[str, tuple[int, int, str]] = {}


def file_digest(path: str) -> str:
    """SHA-256 of a file's bytes, memoised by path, size and modification time."""
    st = os.stat(path)
    memo = _DIGESTS.get(path)
    if memo is not None and memo[:2] == (st.st_size, st.st_mtime_ns):
        return memo[2]
    with open(path, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    _DIGESTS[path] = (st.st_size, st.st_mtime_ns, digest)
    return digest


def tree_digest(root: Path, *, skip: Path | None = None) -> str:
    """SHA-256 over the relative names and digests of the files under ``root`` (without
    ``__pycache__`` folders, compiled files and the folder ``skip``)."""
    h = hashlib.sha256()
    names: list[str] = []
    base = os.fspath(root)
    skipped = None if skip is None else os.fspath(skip)
    for dirpath, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if d != "__pycache__"
                   and os.path.join(dirpath, d) != skipped]
        names.extend(os.path.join(dirpath, f) for f in files
                     if not f.endswith((".pyc", ".pyo")))
    for path in sorted(names):
        rel = os.path.relpath(path, base).replace(os.sep, "/")
        h.update(f"{rel}\0{file_digest(path)}\n".encode())
    return h.hexdigest()


def core_digest() -> str:
    """The digest of pflbounds' own files (its papers left out: each has its own)."""
    return tree_digest(ROOT, skip=PAPERS)


def _stamp(module: str) -> list[Any] | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    origin = getattr(spec, "origin", None) if spec is not None else None
    if not origin:
        return None if spec is None else ["namespace"]
    try:
        return [origin, os.stat(origin).st_mtime_ns]
    except OSError:
        return [origin, None]


def environment() -> dict[str, Any]:
    """The versions and installed dependencies the key depends on."""
    return {"pflbounds": __version__, "python": list(sys.version_info[:3]),
            "implementation": sys.implementation.name,
            "modules": {m: _stamp(m) for m in STAMPED}}


def package_folder(package: str) -> Path | None:
    """The folder of a paper package, found without importing it (None when there is none)."""
    mod = sys.modules.get(package)
    paths = getattr(mod, "__path__", None) if mod is not None else None
    if not paths:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            return None
        paths = spec.submodule_search_locations if spec is not None else None
    if not paths:
        return None
    return Path(next(iter(paths))).resolve()


def index_key(package: str, folder: Path, env: dict[str, Any] | None = None,
              core: str | None = None) -> str:
    """The key of the index of ``package`` (its folder ``folder``); ``env`` and ``core``:
    :func:`environment` and :func:`core_digest`, when the caller has them already."""
    doc = {"format": FORMAT, "package": package, "folder": str(folder),
           "paper": tree_digest(folder), "root": str(ROOT),
           "core": core if core is not None else core_digest(),
           "environment": env if env is not None else environment()}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()
