"""Where the paper indexes live, and how they are read and written.

The indexes live in the task cache folder (:mod:`pflbounds.running.cache`), in
``ROOT/index/PACKAGE.PART.KEY.json``: one file per paper package, part (``results`` or
``checks``) and key (:mod:`pflbounds.running.index.keys`). A file is written atomically (a temporary
sibling renamed over it), so that concurrent writers each leave a whole file and a reader
sees a whole file or none; a file that cannot be read, is not JSON or is not the index of its
name is ignored (and written again by the next command that builds that part). The last
:data:`KEEP` keys of each part are kept (two clones sharing a cache keep theirs); older ones
are removed when a new one is written.

``ROOT``, for the commands that run checks, is their task cache. The commands that only read
(``list``, ``show``) use the task cache that ``PFLBOUNDS_CACHE_DIR`` names (created if
needed, as a run would) or, else, ``.pflbounds-cache`` in the current folder when a run made
it: they never create a folder the user did not ask for. ``PFLBOUNDS_NO_INDEX=1`` turns the
index off.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from pflbounds.running.index.keys import FORMAT
from pflbounds.running.index.names import FILE, FOLDER, LEFTOVER

KEEP = 4
"""Keys kept per package and part."""
NO_INDEX_ENV = "PFLBOUNDS_NO_INDEX"


def disabled() -> bool:
    """Whether ``PFLBOUNDS_NO_INDEX`` turns the index off (any value but empty and ``0``)."""
    return os.environ.get(NO_INDEX_ENV, "").strip() not in ("", "0")


def index_root(cache_dir: str | os.PathLike[str] | None = None) -> Path | None:
    """The task cache folder that holds the indexes (module docstring), or None: the index is
    off, no cache folder exists and none was asked for, or the one asked for cannot be used
    (a folder that is not a pflbounds task cache)."""
    if disabled():
        return None
    from pflbounds.running.cache import (
        ENV_VAR,
        CacheError,
        TaskCache,
        default_cache_dir,
        is_tagged,
    )

    root = Path(cache_dir) if cache_dir else default_cache_dir()
    if root.is_dir() and is_tagged(root):
        return root
    if cache_dir is None and not os.environ.get(ENV_VAR, "").strip():
        return None  # the default folder, not made by a run: not created here
    try:
        return TaskCache(root).root
    except CacheError:
        return None


def existing_root(cache_dir: str | os.PathLike[str] | None = None) -> Path | None:
    """The task cache folder ``cache_dir`` (default: :func:`index_root`'s) when a run made it
    already, else None (a run creates it when it opens its cache); None when the index is
    off."""
    if disabled():
        return None
    from pflbounds.running.cache import default_cache_dir, is_tagged

    root = Path(cache_dir) if cache_dir else default_cache_dir()
    return root if root.is_dir() and is_tagged(root) else None


def path_of(root: Path, package: str, part: str, key: str) -> Path:
    """The file of one part of a package's index under one key."""
    return root / FOLDER / f"{package}.{part}.{key}.json"


def read(root: Path, package: str, part: str, key: str) -> dict[str, Any] | None:
    """The stored part, or None when there is none (or it cannot be read, is not JSON, or is
    not the part of this package and key)."""
    try:
        doc = json.loads(path_of(root, package, part, key).read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    ok = (isinstance(doc, dict) and doc.get("format") == FORMAT and doc.get("key") == key
          and doc.get("package") == package and doc.get("part") == part
          and isinstance(doc.get("data"), dict))
    return doc["data"] if ok else None


def write(root: Path, package: str, part: str, key: str, data: dict[str, Any]) -> bool:
    """Store a part atomically, and remove the older keys beyond :data:`KEEP`; False (and
    nothing stored) when the folder cannot be written."""
    from pflbounds.running.atomic import atomic_write

    doc = {"format": FORMAT, "package": package, "part": part, "key": key, "data": data}
    path = path_of(root, package, part, key)
    try:
        atomic_write(path, json.dumps(doc, separators=(",", ":")), durable=False)
    except (OSError, TypeError, ValueError):
        return False
    _prune(root, package, part, keep=path)
    return True


def _prune(root: Path, package: str, part: str, keep: Path) -> None:
    """Remove the files of ``package``'s ``part`` beyond the :data:`KEEP` most recent."""
    try:
        found = [p for p in (root / FOLDER).iterdir()
                 if (m := FILE.fullmatch(p.name)) and m["package"] == package
                 and m["part"] == part and p != keep]
        found.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
    except OSError:
        return
    for p in found[KEEP - 1:]:
        with contextlib.suppress(OSError):
            p.unlink()


def clear(root: Path) -> int:
    """Remove every index file (and the temporary files of writers no longer running) and
    the folder when it is left empty; returns the files removed."""
    from pflbounds.running.atomic import clean_leftovers

    folder = root / FOLDER
    if not folder.is_dir() or folder.is_symlink():
        return 0
    n = 0
    for p in list(folder.iterdir()):
        if FILE.fullmatch(p.name) and p.is_file() and not p.is_symlink():
            with contextlib.suppress(OSError):
                p.unlink()
                n += 1
        elif LEFTOVER.fullmatch(p.name):
            clean_leftovers(folder / p.name[1:].split(".tmp-")[0])
    with contextlib.suppress(OSError):
        folder.rmdir()
    return n
