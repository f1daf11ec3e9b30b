"""Shared computations: an expensive value read by several tasks, computed once per sweep.

Several checks of a paper may read one expensive computation (a whole experiment, a
reference risk from many fresh draws). Their tasks run in different worker processes, so a
per-process memo (``functools.lru_cache``) computes it once per worker. A function decorated
with :func:`shared_computation` is computed once per sweep instead, by whichever worker asks
first; the others wait for it and read it, and a rerun whose inputs did not change reads it
too::

    @shared_computation("scott2024.future_risk", maxsize=64)
    def future_risk(instance: int, m: int, scale: float) -> np.ndarray: ...

* **Key.** SHA-256 of the name, the function (module and qualified name), the canonical JSON
  of its bound arguments (defaults applied; they must be JSON-able) and the fingerprint of
  its source (:func:`source_fingerprint`: the package version, the numerical dependencies,
  the engines and the tree of the paper that defines the function, the rule by which the
  task cache refuses results of changed code; a function outside a paper is fingerprinted by
  its own module's file). An edit of the paper's code gives new keys.
* **Where.** ``ROOT/shared/KK/KEY.npz`` (and ``KEY.lock``), ``ROOT`` the sweep's task cache
  folder, so entries persist for reruns (``pflbounds cache info`` counts them, ``pflbounds
  cache clear`` removes them, with ``--stale`` those whose source changed: :func:`info`,
  :func:`clear`). A sweep without a task cache that runs tasks in several processes shares them
  through a temporary folder removed at its end. The sweep names the folder to its workers
  (:func:`sweep_dir`); a worker that does not see the folder (a Dask worker on another host)
  and a call outside any sweep (a test, the REPL) use the in-process memo alone, as
  ``lru_cache`` did.
* **One computer.** The first request takes an exclusive ``flock`` on ``KEY.lock``, computes
  and writes the entry; concurrent requests block on the lock, then read the entry. The
  kernel releases the lock of a process that dies, so a killed worker never leaves a stale
  lock: the next request computes.
* **Whole entries only.** An entry is written atomically (:mod:`pflbounds.running.atomic`)
  and carries the SHA-256 and size of its payload; an entry that is truncated, altered or
  recorded under another key is recomputed, never returned. Payloads load with
  ``allow_pickle=False``: an entry never runs code.
* **Values.** A numpy array, or a mapping of names to arrays (or scalars, stored as 0-d
  arrays), of numeric or boolean dtype. Every request gets the value as stored: a fresh
  computation is returned in the same form as a read (0-d arrays for scalars), so the caller
  sees the same types and bits whether it computed the value or read it. The arrays are
  read-only: the memo hands the same arrays to every caller in the process.
* **Memo.** An in-process LRU memo of ``maxsize`` values sits in front of the disk, so a
  process reads an entry at most once.
* **Many calls.** :meth:`SharedComputation.each` returns several calls' values in order, but
  passes over a call another process is computing (a non-blocking ``flock``) and reads it
  after the rest, so workers asking for the same calls compute different ones at once.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import inspect
import io
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Generic, ParamSpec, TypeVar

import numpy as np

from pflbounds.checking.jsonsafe import canonical_json
from pflbounds.running.atomic import atomic_write, clean_leftovers
from pflbounds.running.cache import owned_layout, remove_empty_folders, remove_leftovers
from pflbounds.running.fingerprint import (
    dependency_versions,
    engines_hash,
    file_hash,
    paper_hash,
    paper_package,
)
from pflbounds.version import __version__

try:
    import fcntl
except ImportError:  # pragma: no cover - platforms without flock share nothing on disk
    fcntl = None  # type: ignore[assignment]

FORMAT = "pflbounds.shared/1"
FOLDER = "shared"
_ARRAY = "__array__"

P = ParamSpec("P")
R = TypeVar("R")

_DIR: contextvars.ContextVar[Path | None] = contextvars.ContextVar("pflbounds_shared_dir",
                                                                   default=None)
_WARNED: set[str] = set()
_BUSY = object()
"""What a call that does not wait gets while another process computes its entry."""
_PAPER_OF: dict[str, str | None] = {}
"""Memo: the paper package of a module (a scan of the paper packages costs about 1 ms)."""


class SharedValueError(TypeError):
    """A shared computation returned a value that cannot be stored (the message names the
    computation and what was expected)."""


# ---------------------------------------------------------------------- the sweep's folder
@contextlib.contextmanager
def sweep_dir(root: str | Path | None) -> Iterator[Path | None]:
    """Within the block, shared computations (of this thread) are stored under
    ``root/shared``, when that folder exists; ``None``: in-process memo only. Yields the
    folder used (or None)."""
    folder = None
    if root is not None:
        cand = Path(root).absolute() / FOLDER
        folder = cand if cand.is_dir() else None
    token = _DIR.set(folder)
    try:
        yield folder
    finally:
        _DIR.reset(token)


def current_root() -> str | None:
    """The root folder of the current sweep's shared computations (to hand to workers), or
    None."""
    folder = _DIR.get()
    return None if folder is None else str(folder.parent)


@contextlib.contextmanager
def sweep_scope(cache_root: str | Path | None, *, parallel: bool) -> Iterator[Path | None]:
    """The shared folder of a sweep, for its duration: under the task cache folder (created
    if missing; entries are kept for reruns); without a task cache, a temporary folder when
    several processes run the tasks (removed at the end); else none (one process: the memo
    suffices)."""
    tmp = None
    root: Path | None = None
    try:
        if cache_root is not None:
            root = Path(cache_root)
            try:
                (root / FOLDER).mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                _warn_once(f"shared computations are not stored in {root / FOLDER} "
                           f"({exc.strerror or exc}); each worker computes its own")
                root = None
        elif parallel:
            tmp = Path(tempfile.mkdtemp(prefix="pflbounds-shared-"))
            (tmp / FOLDER).mkdir()
            root = tmp
        with sweep_dir(root) as folder:
            yield folder
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def header(path: Path) -> dict[str, Any] | None:
    """The JSON header of an entry file (None when it has none)."""
    try:
        with open(path, "rb") as fh:
            line = fh.readline()
        head = json.loads(line)
    except (OSError, ValueError):
        return None
    return head if isinstance(head, dict) and head.get("format") == FORMAT else None


def is_stale(head: Mapping[str, Any] | None, current: dict[str, str | None]) -> bool:
    """Whether an entry can no longer be asked for: unreadable, or its module is not loaded
    (its paper is gone) or its source changed. ``current``: a memo of module fingerprints."""
    if head is None:
        return True
    module = str(head.get("module", ""))
    if module not in current:
        current[module] = source_fingerprint(module) if module in sys.modules else None
    return current[module] is None or current[module] != head.get("fingerprint")


def info(root: str | Path) -> dict[str, Any]:
    """What the shared folder of a cache holds: entries, bytes, compute seconds, and how many
    are stale (:func:`is_stale`; load the papers first)."""
    out: dict[str, Any] = {"entries": 0, "bytes": 0, "compute_s": 0.0, "stale": 0}
    current: dict[str, str | None] = {}
    for p in _entry_files(Path(root)):
        with contextlib.suppress(OSError):
            head = header(p)
            out["bytes"] += p.stat().st_size
            out["entries"] += 1
            out["compute_s"] += float((head or {}).get("compute_s", 0.0))
            out["stale"] += is_stale(head, current)
    return out


def clear(root: str | Path, *, stale_only: bool = False) -> tuple[int, int]:
    """Remove the shared entries under the cache folder ``root`` (``stale_only``: those of
    :func:`is_stale`); returns (entries removed, bytes freed)."""
    base = Path(root) / FOLDER
    if not base.is_dir():
        return 0, 0
    n = b = 0
    current: dict[str, str | None] = {}
    for p in _entry_files(Path(root)):
        head = header(p)
        if head is None:
            continue  # not an entry of this format: never removed
        if stale_only and not is_stale(head, current):
            continue
        with contextlib.suppress(OSError):
            size = p.stat().st_size
            p.unlink()
            n, b = n + 1, b + size
    if not stale_only:
        for lock in sorted(base.glob("*/*.lock")):
            if _owned(Path(root), lock) and lock.stat().st_size == 0:
                with contextlib.suppress(OSError):
                    lock.unlink()
        remove_leftovers(base)
        remove_empty_folders(base)
        with contextlib.suppress(OSError):
            base.rmdir()  # only when nothing else is left in it
    return n, b


def _owned(root: Path, p: Path) -> bool:
    return not p.is_symlink() and p.is_file() and owned_layout(p.relative_to(root), False)


def _entry_files(root: Path) -> list[Path]:
    """The entry files under ``root/shared`` named as this module names them
    (``KK/KEY.npz``); any other file there is not counted and never removed."""
    return [p for p in sorted((root / FOLDER).glob("*/*.npz")) if _owned(root, p)]


# ---------------------------------------------------------------------- keys
def _module_file(module: str) -> Path | None:
    f = getattr(sys.modules.get(module), "__file__", None)
    return Path(f).resolve() if f and Path(f).is_file() else None


def source_fingerprint(module: str) -> str | None:
    """SHA-256 of what a computation defined in ``module`` depends on besides its arguments:
    package version, numerical dependencies, engines, and the tree of its paper (or, outside
    a paper, its module's file). None when the module has no source file."""
    doc: dict[str, Any] = {"version": __version__,
                           "dependencies": dependency_versions(), "engines": engines_hash()}
    if module not in _PAPER_OF:
        _PAPER_OF[module] = paper_package(module)
    pkg = _PAPER_OF[module]
    tree = None if pkg is None else paper_hash(pkg)
    if tree is not None:
        doc["paper"] = {"package": pkg, "hash": tree}
    else:
        f = _module_file(module)
        if f is None:
            return None
        doc["module"] = {"name": module, "hash": file_hash(f)}
    return hashlib.sha256(canonical_json(doc).encode()).hexdigest()


def entry_key(name: str, function: str, args_json: str, fingerprint: str) -> str:
    """The key of one shared value (module docstring)."""
    text = f"{FORMAT}\0{name}\0{function}\0{args_json}\0{fingerprint}"
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------------- values
def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def normalize(name: str, value: Any) -> np.ndarray | dict[str, np.ndarray]:
    """The stored form of a value: a read-only array, or a dict of read-only arrays (copies,
    so that the caller's own arrays stay writable). Raises :class:`SharedValueError` for
    any other value."""
    def arr(v: Any, where: str) -> np.ndarray:
        a = np.array(v)
        if a.dtype.kind not in "biufc":
            raise SharedValueError(
                f"shared computation {name!r} returned {where} of dtype {a.dtype}; expected "
                "numeric or boolean arrays")
        return _frozen(a)

    if isinstance(value, np.ndarray):
        return arr(value, "an array")
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str) or not k or k == _ARRAY:
                raise SharedValueError(f"shared computation {name!r} returned the key {k!r}; "
                                       f"expected non-empty names other than {_ARRAY!r}")
            out[k] = arr(v, f"{k!r}")
        return out
    raise SharedValueError(f"shared computation {name!r} returned {type(value).__name__}; "
                           "expected a numpy array or a mapping of names to arrays")


def encode(key: str, value: np.ndarray | dict[str, np.ndarray], meta: Mapping[str, Any]
           ) -> bytes:
    """An entry file: one JSON header line (format, key, payload size and SHA-256, the
    value's shape, provenance) and the payload (npz)."""
    buf = io.BytesIO()
    if isinstance(value, np.ndarray):
        np.savez(buf, **{_ARRAY: value})
        names = None
    else:
        np.savez(buf, **value)
        names = list(value)
    payload = buf.getvalue()
    head = {**meta, "format": FORMAT, "key": key, "names": names, "size": len(payload),
            "sha256": hashlib.sha256(payload).hexdigest()}
    return json.dumps(head, sort_keys=True).encode() + b"\n" + payload


def decode(data: bytes, key: str) -> np.ndarray | dict[str, np.ndarray]:
    """The value of an entry file; ValueError when it is not a whole entry of ``key``."""
    nl = data.find(b"\n")
    if nl < 0:
        raise ValueError("no header")
    head = json.loads(data[:nl])
    payload = data[nl + 1:]
    if not isinstance(head, dict) or head.get("format") != FORMAT or head.get("key") != key:
        raise ValueError("another format or key")
    if head.get("size") != len(payload) or \
            head.get("sha256") != hashlib.sha256(payload).hexdigest():
        raise ValueError("payload truncated or altered")
    with np.load(io.BytesIO(payload), allow_pickle=False) as z:
        names = head.get("names")
        if names is None:
            return _frozen(z[_ARRAY])
        return {k: _frozen(z[k]) for k in names}


def _read(path: Path, key: str) -> np.ndarray | dict[str, np.ndarray] | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return decode(data, key)
    except Exception:  # noqa: BLE001 - any damage: recompute (the caller overwrites it)
        return None


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        print(f"pflbounds: warning: {message}", file=sys.stderr)


# ---------------------------------------------------------------------- the computation
class SharedComputation(Generic[P, R]):
    """A function computed once per sweep (module docstring); call it like the function."""

    def __init__(self, fn: Callable[P, R], name: str, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize must be >= 1, got {maxsize}")
        self.fn = fn
        self.name = name
        self.maxsize = maxsize
        self.function = f"{fn.__module__}.{fn.__qualname__}"
        self._signature = inspect.signature(fn)
        self._memo: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.stats = {"computed": 0, "read": 0, "memo": 0}
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]

    def arguments_json(self, *args: Any, **kwargs: Any) -> str:
        """The canonical JSON of the bound arguments (defaults applied)."""
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        try:
            return canonical_json(dict(bound.arguments))
        except (TypeError, ValueError) as exc:
            raise SharedValueError(f"shared computation {self.name!r}: the arguments must be "
                                   f"JSON-able ({exc})") from None

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._value(args, kwargs, blocking=True)  # type: ignore[return-value]

    def each(self, calls: Sequence[tuple[tuple, Mapping[str, Any]]]) -> list[R]:
        """The values of several calls ``(args, kwargs)``, in order, as calling each in turn
        gives them, but computed side by side with other workers: a call whose entry another
        worker is computing is passed over and read after the rest, so workers that ask for
        the same calls in the same order compute different ones at once instead of waiting
        for each other."""
        values: list[Any] = [_BUSY] * len(calls)
        for i, (args, kwargs) in enumerate(calls):
            values[i] = self._value(tuple(args), dict(kwargs), blocking=False)
        for i, (args, kwargs) in enumerate(calls):
            if values[i] is _BUSY:  # computed by another worker: wait for it and read it
                values[i] = self._value(tuple(args), dict(kwargs), blocking=True)
        return values

    def _value(self, args: Any, kwargs: Any, *, blocking: bool) -> Any:
        """The value of one call, from the memo, the entry or a computation; ``_BUSY`` when
        not ``blocking`` and another process holds the entry's lock."""
        args_json = self.arguments_json(*args, **kwargs)
        folder = _DIR.get() if fcntl is not None else None
        fp = None if folder is None else source_fingerprint(self.fn.__module__)
        if folder is None or fp is None:
            memo_key = f"local\0{args_json}"
        else:
            memo_key = entry_key(self.name, self.function, args_json, fp)
        with self._lock:
            if memo_key in self._memo:
                self._memo.move_to_end(memo_key)
                self.stats["memo"] += 1
                return self._memo[memo_key]
        if folder is None or fp is None:
            value = self._compute(args, kwargs)
        else:
            value = self._through(folder, memo_key, args_json, fp, args, kwargs,
                                  blocking=blocking)
            if value is _BUSY:
                return value
        with self._lock:
            self._memo[memo_key] = value
            self._memo.move_to_end(memo_key)
            while len(self._memo) > self.maxsize:
                self._memo.popitem(last=False)
        return value

    def _compute(self, args: Any, kwargs: Any) -> Any:
        value = normalize(self.name, self.fn(*args, **kwargs))
        self.stats["computed"] += 1
        return value

    def _through(self, folder: Path, key: str, args_json: str, fingerprint: str, args: Any,
                 kwargs: Any, *, blocking: bool = True) -> Any:
        """Read the entry, or compute and write it under the key's lock (not ``blocking``:
        ``_BUSY`` when another process holds the lock)."""
        path = folder / key[:2] / f"{key}.npz"
        value = _read(path, key)
        if value is not None:
            self.stats["read"] += 1
            return value
        try:
            path.parent.mkdir(exist_ok=True)
            fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            _warn_once(f"cannot lock shared computations in {folder} "
                       f"({exc.strerror or exc}); computing in this process")
            return self._compute(args, kwargs)
        try:
            try:  # released by the kernel if this process dies
                fcntl.flock(fd, fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return _BUSY
            value = _read(path, key)  # written by the holder we waited for
            if value is not None:
                self.stats["read"] += 1
                return value
            t0 = time.perf_counter()
            value = self._compute(args, kwargs)
            meta = {"name": self.name, "function": self.function, "args": args_json,
                    "module": self.fn.__module__, "fingerprint": fingerprint,
                    "compute_s": time.perf_counter() - t0, "pid": os.getpid(),
                    "version": __version__,
                    "created": datetime.now(UTC).isoformat(timespec="seconds")}
            try:
                clean_leftovers(path)
                atomic_write(path, encode(key, value, meta))
            except OSError as exc:
                _warn_once(f"cannot store shared computations in {folder} "
                           f"({exc.strerror or exc}); other workers compute their own")
            return value
        finally:
            os.close(fd)  # closing the descriptor releases the lock

    def cache_clear(self) -> None:
        """Empty this process's memo (entries on disk stay)."""
        with self._lock:
            self._memo.clear()


def shared_computation(name: str, *, maxsize: int = 16
                       ) -> Callable[[Callable[P, R]], SharedComputation[P, R]]:
    """Decorate a function of JSON-able arguments returning an array or a mapping of arrays,
    so that a sweep computes it once (module docstring). ``name`` names it in entries and
    errors (e.g. ``"erickson2025.synthetic_draw"``); ``maxsize``: values kept in the in-process
    memo."""
    def wrap(fn: Callable[P, R]) -> SharedComputation[P, R]:
        return SharedComputation(fn, name, maxsize)

    return wrap
