"""The task cache: the evidence block of every finished task, stored as soon as it ends.

Layout: ``ROOT/tasks/KK/KEY.npz``, one file per task, ``KEY`` the task's cache key
(:func:`pflbounds.running.fingerprint.cache_key`: its config, seed, block and the fingerprint
of its check's code) and ``KK`` its first two characters. A file holds the evidence arrays
(bitwise as computed) and ``__meta__``: a JSON record of the task (check id, grid point, block,
replicas, seed, config hash), its key and fingerprint, the seconds it took, where and when it
ran. Files are written atomically (temporary file, fsync, rename), so a kill leaves a task
stored whole or not at all, and several runs may share one cache. Only successful tasks are
stored. Files load with ``allow_pickle=False``: a cache never runs code.

``ROOT`` is ``--cache-dir``, else the environment variable ``PFLBOUNDS_CACHE_DIR``, else
``.pflbounds-cache`` in the current folder.
"""

from __future__ import annotations

import contextlib
import fnmatch
import io
import json
import os
import shutil
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

import pflbounds
from pflbounds.checking.jsonsafe import to_jsonable
from pflbounds.running.atomic import atomic_write
from pflbounds.running.tasks import Task, TaskResult

ENV_VAR = "PFLBOUNDS_CACHE_DIR"
DEFAULT_DIR = ".pflbounds-cache"
FORMAT = "pflbounds.task/1"
META = "__meta__"
TAG = "CACHEDIR.TAG"
_TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
             "# This folder is the pflbounds task cache; `pflbounds cache clear` empties it.\n")


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


class TaskCache:
    """A folder of finished tasks keyed by cache key (see the module docstring)."""

    def __init__(self, root: str | Path | None = None, *, create: bool = True) -> None:
        self.root = Path(root) if root is not None else default_cache_dir()
        if self.root.exists() and not self.root.is_dir():
            raise CacheError(f"cache folder {self.root} is a file, not a folder")
        if create:
            try:
                (self.root / "tasks").mkdir(parents=True, exist_ok=True)
                if not (self.root / TAG).exists():
                    atomic_write(self.root / TAG, _TAG_TEXT)
            except OSError as exc:
                raise CacheError(f"cache folder {self.root} cannot be used "
                                 f"({exc.strerror or exc})") from None

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
            "worker": result.meta.get("worker"), "version": pflbounds.__version__,
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
        base = self.root / "tasks"
        if base.is_dir():
            yield from sorted(base.glob("*/*.npz"))

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
        and/or those for which ``stale(meta)`` is true. Unreadable files go too. Returns
        (entries removed, bytes freed)."""
        if not (self.root / "tasks").is_dir():
            return 0, 0
        if pattern is None and stale is None:
            n = b = 0
            for p in self.files():
                n, b = n + 1, b + p.stat().st_size
            shutil.rmtree(self.root / "tasks", ignore_errors=True)
            (self.root / "tasks").mkdir(parents=True, exist_ok=True)
            return n, b
        n = b = 0
        for e in list(self.entries()):
            if isinstance(e, Entry):
                if pattern is not None and not fnmatch.fnmatchcase(e.check_id, pattern):
                    continue
                if stale is not None and not stale(e.meta):
                    continue
                path, size = e.path, e.size
            else:
                path, size = e, e.stat().st_size
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                n, b = n + 1, b + size
        return n, b


def _read(path: Path, *, with_arrays: bool) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(bytes(z[META]).decode("utf-8"))
        arrays = {k: z[k] for k in z.files if k != META} if with_arrays else {}
    if not isinstance(meta, dict):
        raise ValueError("metadata is not a record")
    return arrays, meta
