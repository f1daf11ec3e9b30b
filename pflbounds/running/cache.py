"""The task cache: the evidence block of every finished task, stored as soon as it ends.

Layout: ``ROOT/tasks/KK/KEY.npz``, one file per task, ``KEY`` the task's cache key
(:func:`pflbounds.running.fingerprint.cache_key`: its config, seed, block and the fingerprint
of its check's code) and ``KK`` its first two characters. A file holds the evidence arrays
(bitwise as computed) and ``__meta__``: a JSON record of the task (check id, grid point, block,
replicas, seed, config hash), its key and fingerprint, the seconds it took, where and when it
ran. Files are written atomically (temporary file, fsync, rename), so a kill leaves a task
stored whole or not at all, and several runs may share one cache. Only successful tasks are
stored. Files load with ``allow_pickle=False``: a cache never runs code. The folder also
holds the papers' indexes (``ROOT/index/``, :mod:`pflbounds.running.index.store`).

``ROOT`` is ``--cache-dir``, else the environment variable ``PFLBOUNDS_CACHE_DIR``, else
``.pflbounds-cache`` in the current folder.

Ownership: a cache folder carries ``CACHEDIR.TAG`` (the Cache Directory Tagging signature and a
line naming pflbounds), written when pflbounds creates the folder. A folder without that tag is
used only if everything in it is laid out as pflbounds writes a cache (a cache whose tag was
lost: it is tagged then); a folder that holds anything else is refused, so that ``pflbounds
cache clear --cache-dir DIR`` never deletes a user's files. Within a cache, clearing removes
only files of the cache's own formats (:func:`owned_layout`); a file dropped there by hand
stays.
"""

from __future__ import annotations

import contextlib
import fnmatch
import io
import json
import os
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from pflbounds.checking.jsonsafe import to_jsonable
from pflbounds.running.atomic import atomic_write, clean_leftovers
from pflbounds.running.index import names as index_names
from pflbounds.running.tasks import Task, TaskResult
from pflbounds.version import __version__

ENV_VAR = "PFLBOUNDS_CACHE_DIR"
DEFAULT_DIR = ".pflbounds-cache"
FORMAT = "pflbounds.task/1"
META = "__meta__"
TAG = "CACHEDIR.TAG"
_TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
             "# This folder is the pflbounds task cache; `pflbounds cache clear` empties it.\n")
_TAG_MARK = "# This folder is the pflbounds task cache"
TASKS = "tasks"
SHARED = "shared"  # pflbounds.running.shared.FOLDER
INDEX = index_names.FOLDER
_KEY_FILE = re.compile(r"(?P<key>[0-9a-f]{64})\.(?:npz|lock)")
_LEFTOVER = re.compile(r"\.(?:[0-9a-f]{64}\.npz|CACHEDIR\.TAG)\.(?:tmp|old)-\d+-[0-9a-f]{8}")
_PREFIX = re.compile(r"[0-9a-f]{2}")


class CacheError(ValueError):
    """A cache folder that cannot be used (the message names it and the problem)."""


def default_cache_dir() -> Path:
    """``PFLBOUNDS_CACHE_DIR`` if set, else ``.pflbounds-cache`` in the current folder."""
    env = os.environ.get(ENV_VAR, "").strip()
    return Path(env) if env else Path(DEFAULT_DIR)


@dataclass
class Entry:
    """One stored task: its file, size and metadata."""

    path: Path
    size: int
    meta: dict[str, Any]

    @property
    def check_id(self) -> str:
        return str(self.meta.get("check_id", "?"))


@dataclass
class CacheInfo:
    """What a cache holds: entries, bytes and compute seconds, per check."""

    path: Path
    entries: int = 0
    bytes: int = 0
    compute_s: float = 0.0
    unreadable: int = 0
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "entries": self.entries, "bytes": self.bytes,
                "compute_s": self.compute_s, "unreadable": self.unreadable,
                "checks": self.checks}


def is_tagged(root: Path) -> bool:
    """Whether ``root`` carries the tag pflbounds writes into a cache folder."""
    try:
        with open(root / TAG, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return head.startswith(_TAG_TEXT.split("\n", 1)[0]) and _TAG_MARK in head


def owned_layout(rel: Path, is_dir: bool) -> bool:
    """Whether the path ``rel`` (relative to a cache folder) is one that pflbounds writes
    there: ``CACHEDIR.TAG``, ``tasks/KK/KEY.npz``, ``shared/KK/KEY.npz`` and ``KEY.lock``,
    their folders, the temporary siblings of an atomic write (``.KEY.npz.tmp-PID-*``), and
    the papers' indexes (``index/*.json``, :mod:`pflbounds.running.index.names`)."""
    parts = rel.parts
    if parts and parts[0] == INDEX:
        return index_names.owned(rel, is_dir)
    if len(parts) == 1:
        return parts[0] in (TASKS, SHARED) if is_dir else (
            parts[0] == TAG or bool(_LEFTOVER.fullmatch(parts[0])))
    if parts[0] not in (TASKS, SHARED) or not _PREFIX.fullmatch(parts[1]):
        return False
    if len(parts) == 2:
        return is_dir
    if len(parts) != 3 or is_dir:
        return False
    m = _KEY_FILE.fullmatch(parts[2])
    if m:
        return m["key"][:2] == parts[1] and (parts[0] == SHARED or parts[2].endswith(".npz"))
    return bool(_LEFTOVER.fullmatch(parts[2])) and parts[2][1:3] == parts[1]


def foreign_files(root: Path, limit: int = 5) -> list[str]:
    """Up to ``limit`` paths under ``root`` (relative) that pflbounds does not write into a
    cache folder (:func:`owned_layout`); symbolic links are never owned."""
    found: list[str] = []
    for dirpath, dirs, files in os.walk(root):
        here = Path(dirpath)
        for name in sorted(dirs + files):
            p = here / name
            rel = p.relative_to(root)
            theirs = str(rel) == TAG and not is_tagged(root)  # another tool's tag
            if p.is_symlink() or theirs or not owned_layout(rel, p.is_dir()):
                found.append(str(rel) + ("/" if p.is_dir() and not p.is_symlink() else ""))
                if name in dirs:
                    dirs.remove(name)  # do not list a foreign folder's content
                if len(found) >= limit:
                    return found
    return found


class TaskCache:
    """A folder of finished tasks keyed by cache key (see the module docstring)."""

    def __init__(self, root: str | Path | None = None, *, create: bool = True) -> None:
        self.root = Path(root) if root is not None else default_cache_dir()
        if self.root.exists() and not self.root.is_dir():
            raise CacheError(f"cache folder {self.root} is a file, not a folder")
        try:
            if self.root.is_dir():
                self._claim(create)
            if create:
                (self.root / TASKS).mkdir(parents=True, exist_ok=True)
                if not is_tagged(self.root):
                    atomic_write(self.root / TAG, _TAG_TEXT)
        except OSError as exc:
            raise CacheError(f"cache folder {self.root} cannot be used "
                             f"({exc.strerror or exc})") from None

    def _claim(self, create: bool) -> None:
        """Accept an existing folder as this cache: tagged by pflbounds, or holding only what
        pflbounds writes into a cache (then tagged now); else :class:`CacheError`."""
        if is_tagged(self.root):
            return
        foreign = foreign_files(self.root)
        if foreign:
            shown = ", ".join(foreign[:5]) + (" …" if len(foreign) >= 5 else "")
            raise CacheError(f"cache folder {self.root} is not a pflbounds task cache (it has "
                             f"no {TAG} written by pflbounds and holds other files: {shown})")
        if not create and not any(self.root.iterdir()):
            raise CacheError(f"cache folder {self.root} is not a pflbounds task cache (an "
                             f"empty folder without the {TAG} that pflbounds writes)")
        with contextlib.suppress(OSError):  # a cache whose tag was lost: tag it again
            atomic_write(self.root / TAG, _TAG_TEXT)

    def path_of(self, key: str) -> Path:
        """The file of a key."""
        return self.root / "tasks" / key[:2] / f"{key}.npz"

    # ------------------------------------------------------------------ store and load
    def put(self, key: str, result: TaskResult, fingerprint: str) -> bool:
        """Store a successful result; returns False (stores nothing) for a failed one."""
        if not result.ok or result.evidence is None:
            return False
        t = result.task
        meta = {
            "format": FORMAT, "key": key, "fingerprint": fingerprint,
            "check_id": t.check_id, "point_index": t.point_index,
            "block_index": t.block_index, "n_replicas": t.n_replicas,
            "params": to_jsonable(dict(t.params)), "base_seed": t.base_seed,
            "config_hash": t.config_hash, "compute_s": float(result.elapsed),
            "worker": result.meta.get("worker"), "version": __version__,
            "warnings": list(result.meta.get("warnings", [])),
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        arrays = {k: np.asarray(v) for k, v in result.evidence.items()}
        if META in arrays:
            raise ValueError(f"evidence key {META!r} is reserved by the cache")
        buf = io.BytesIO()
        np.savez(buf, **arrays, **{META: np.frombuffer(json.dumps(meta).encode(), np.uint8)})
        path = self.path_of(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, buf.getvalue())
        return True

    def get(self, key: str, task: Task) -> TaskResult | None:
        """The stored result of ``task`` under ``key``, or None (absent, unreadable, or
        recorded for another task: such a file is removed)."""
        path = self.path_of(key)
        try:
            evidence, meta = _read(path, with_arrays=True)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        same = (meta.get("format") == FORMAT and meta.get("key") == key
                and meta.get("check_id") == task.check_id
                and meta.get("point_index") == task.point_index
                and meta.get("block_index") == task.block_index
                and meta.get("n_replicas") == task.n_replicas
                and meta.get("base_seed") == task.base_seed)
        if not same:
            return None
        return TaskResult(task, evidence, elapsed=0.0,
                          meta={"cached": True, "compute_s": float(meta.get("compute_s", 0.0)),
                                "worker": meta.get("worker"), "created": meta.get("created")})

    # ------------------------------------------------------------------ inspect and clear
    def files(self) -> Iterator[Path]:
        """Every task file."""
        base = self.root / TASKS
        if base.is_dir():
            yield from (p for p in sorted(base.glob("*/*.npz"))
                        if owned_layout(p.relative_to(self.root), False) and not p.is_symlink())

    def entries(self) -> Iterator[Entry | Path]:
        """Every stored task as an :class:`Entry` (a bare path when unreadable)."""
        for p in self.files():
            try:
                _, meta = _read(p, with_arrays=False)
                yield Entry(p, p.stat().st_size, meta)
            except FileNotFoundError:
                continue
            except (OSError, ValueError, KeyError, zipfile.BadZipFile):
                yield p

    def info(self) -> CacheInfo:
        """Counts, sizes and compute seconds, in total and per check."""
        out = CacheInfo(self.root)
        for e in self.entries():
            if isinstance(e, Path):
                out.unreadable += 1
                continue
            c = out.checks.setdefault(e.check_id, {"entries": 0, "bytes": 0, "compute_s": 0.0})
            s = float(e.meta.get("compute_s", 0.0))
            c["entries"] += 1
            c["bytes"] += e.size
            c["compute_s"] += s
            out.entries += 1
            out.bytes += e.size
            out.compute_s += s
        out.checks = dict(sorted(out.checks.items()))
        return out

    def clear(self, pattern: str | None = None,
              stale: Callable[[dict[str, Any]], bool] | None = None) -> tuple[int, int]:
        """Remove entries: all of them, those whose check id matches the glob ``pattern``,
        and/or those for which ``stale(meta)`` is true. Damaged entries (a zip file under a
        key's name whose record cannot be read) go too; a file of any other format stays,
        as do the folders that still hold one. Returns (entries removed, bytes freed)."""
        if not (self.root / TASKS).is_dir():
            return 0, 0
        n = b = 0
        for e in list(self.entries()):
            if isinstance(e, Entry):
                if pattern is not None and not fnmatch.fnmatchcase(e.check_id, pattern):
                    continue
                if stale is not None and not stale(e.meta):
                    continue
                path = e.path
            elif not _is_zip(e):
                continue  # not a file of the cache's format: never removed
            else:
                path = e
            with contextlib.suppress(FileNotFoundError):
                size = path.stat().st_size
                path.unlink()
                n, b = n + 1, b + size
        if pattern is None and stale is None:
            remove_leftovers(self.root / TASKS)
        remove_empty_folders(self.root / TASKS)
        return n, b

    def foreign(self) -> list[str]:
        """Up to five files in the cache folder that pflbounds did not write (never removed)."""
        return foreign_files(self.root) if self.root.is_dir() else []


def _is_zip(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == b"PK\x03\x04"
    except OSError:
        return False


def remove_leftovers(base: Path) -> None:
    """Remove the temporary siblings that writers no longer running left in the key-prefix
    folders ``base/KK`` (:func:`pflbounds.running.atomic.clean_leftovers`)."""
    if not base.is_dir():
        return
    for d in base.iterdir():
        if d.is_dir() and not d.is_symlink() and _PREFIX.fullmatch(d.name):
            for f in d.iterdir():
                if _LEFTOVER.fullmatch(f.name):
                    clean_leftovers(d / f.name[1:].split(".tmp-")[0].split(".old-")[0])


def remove_empty_folders(base: Path) -> None:
    """Remove the key-prefix folders ``base/KK`` left empty (a folder with a file stays)."""
    if not base.is_dir():
        return
    for d in base.iterdir():
        if d.is_dir() and not d.is_symlink() and _PREFIX.fullmatch(d.name):
            with contextlib.suppress(OSError):
                d.rmdir()  # only succeeds when empty


def _read(path: Path, *, with_arrays: bool) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(bytes(z[META]).decode("utf-8"))
        arrays = {k: z[k] for k in z.files if k != META} if with_arrays else {}
    if not isinstance(meta, dict):
        raise ValueError("metadata is not a record")
    return arrays, meta
