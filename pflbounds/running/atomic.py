"""Atomic writes: single files, and folders whose files must change together.

Files are written to a temporary sibling, flushed to disk (``fsync``) and renamed over the
target, so that a reader (or a run killed at any moment) sees the old content or the new, never
a mix. A results folder is written the same way as a whole: its files go into a temporary
sibling folder, which is swapped with the old folder in one step (``renameat2`` with
``RENAME_EXCHANGE`` on Linux; elsewhere, two renames, where a kill between them leaves the old
folder beside the target as ``.NAME.old-PID-*`` and no mixed set).

New files and folders get the usual permissions: 0666 and 0777 less the process umask (the
``tempfile`` functions would create them 0600 and 0700).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import shutil
import sys
from collections.abc import Callable, Collection
from pathlib import Path

FILE_MODE = 0o666
DIR_MODE = 0o777


class OutputError(ValueError):
    """A place that cannot receive results; the message names the path and the problem."""


def _tmp_name(target: Path, kind: str) -> Path:
    return target.parent / f".{target.name}.{kind}-{os.getpid()}-{secrets.token_hex(4)}"


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (new and renamed names) to disk, where the platform can."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - platforms without directory fsync
        pass
    finally:
        os.close(fd)


def write_new_file(path: Path, data: bytes) -> None:
    """Create ``path`` (it must not exist) with ``data``, mode 0666 less the umask, and fsync."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                 FILE_MODE)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: str | Path, data: str | bytes, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` (text is UTF-8) through a temporary sibling, fsync and
    rename. Creates missing parent folders. ``durable``: also fsync the folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    tmp = _tmp_name(path, "tmp")
    try:
        write_new_file(tmp, raw)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        fsync_dir(path.parent)


def _fsync_tree(root: Path) -> None:
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            fd = os.open(os.path.join(dirpath, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_dir(Path(dirpath))


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False when the
    platform or file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                   ctypes.c_uint]
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_leftovers(target: Path) -> None:
    """Remove temporary siblings of ``target`` left by writers that are no longer running."""
    prefixes = (f".{target.name}.tmp-", f".{target.name}.old-")
    try:
        entries = list(target.parent.iterdir())
    except OSError:
        return
    for p in entries:
        if not p.name.startswith(prefixes):
            continue
        try:
            pid = int(p.name.rsplit("-", 2)[-2])
        except (ValueError, IndexError):
            continue
        if pid != os.getpid() and not _pid_alive(pid):
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    p.unlink()


def check_folder(out: str | Path, owned: Collection[str], *, parents: bool = True,
                 carry: Collection[str] = ()) -> Path:
    """Check that ``out`` can receive a folder of ``owned`` files, and return it resolved.

    ``out`` must be a new folder or one holding only ``owned`` files and the ``carry`` names
    (the folder is replaced as a whole; ``carry`` entries are kept, see
    :func:`replace_folder`). Its parent is created when ``parents`` is True (else it must
    exist) and must be writable. Raises :class:`OutputError` naming the problem.
    """
    raw = Path(out)
    target = raw.resolve() if raw.is_symlink() else raw
    if target.exists() and not target.is_dir():
        raise OutputError(f"{raw} is an existing file, not a folder; expected a new folder or "
                          f"a results folder written before ({', '.join(sorted(owned))})")
    if target.is_dir():
        try:
            foreign = sorted(set(os.listdir(target)) - set(owned) - set(carry))
        except OSError as exc:
            raise OutputError(f"{raw} cannot be read ({exc.strerror})") from None
        if foreign:
            shown = ", ".join(foreign[:5]) + (" …" if len(foreign) > 5 else "")
            raise OutputError(
                f"{raw} holds other files ({shown}); results replace the whole folder, so give "
                f"a new folder or one that holds only {', '.join(sorted(owned))}")
    _check_parent(raw, target, parents)
    return target


def _check_parent(raw: Path, target: Path, parents: bool) -> None:
    """The parent of ``target`` exists (or is created when ``parents``) and can be written."""
    parent = target.parent
    if not parent.exists() and not parents:
        raise OutputError(f"{raw}: folder {parent} does not exist; create it first or choose "
                          "another place")
    for anc in (parent, *parent.parents):
        if anc.exists():
            if not anc.is_dir():
                raise OutputError(f"{raw}: {anc} is a file, not a folder")
            break
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{raw}: cannot create folder {parent} ({exc.strerror})") from None
    _probe(raw, target)


def _probe(raw: Path, target: Path) -> None:
    """Create and remove a temporary sibling of ``target``: its folder can be written."""
    probe = _tmp_name(target, "tmp")
    try:
        os.mkdir(probe, DIR_MODE)
    except OSError as exc:
        raise OutputError(f"{raw}: cannot write in folder {target.parent} ({exc.strerror})"
                          ) from None
    os.rmdir(probe)


def check_files_folder(out: str | Path, *, parents: bool = True) -> Path:
    """Check that the folder ``out`` can receive new files written one by one (an existing
    folder that can be written, or a new one whose parent exists, or is created when
    ``parents``, and can be written); return it. Raises :class:`OutputError` naming the
    problem. Unlike :func:`check_folder`, other files in the folder stay as they are."""
    raw = Path(out)
    target = raw.resolve() if raw.is_symlink() else raw
    if target.exists() and not target.is_dir():
        raise OutputError(f"{raw} is an existing file, not a folder")
    if target.is_dir():
        _probe(raw, target / "probe")
    else:
        _check_parent(raw, target, parents)
    return target


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)


def replace_folder(out: str | Path, write: Callable[[Path], None], owned: Collection[str],
                   *, parents: bool = True, carry: Collection[str] = ()) -> Path:
    """Write a folder as one set: ``write(tmp)`` fills a temporary sibling folder, which is
    flushed to disk and then takes the place of ``out`` (see the module docstring).

    ``owned``: the names the folder may hold (an existing folder with other files is refused,
    see :func:`check_folder`). ``carry``: names that other writers put in the folder (a
    report's source and figures beside its results); they are linked (or copied) into the new
    set unchanged. On any error (a full disk, a kill by a signal that Python sees) ``out``
    keeps its previous content and the temporary folder is removed. Returns ``out``.
    """
    target = check_folder(out, owned, parents=parents, carry=carry)
    clean_leftovers(target)
    tmp = _tmp_name(target, "tmp")
    os.mkdir(tmp, DIR_MODE)
    try:
        write(tmp)
        extra = sorted(set(os.listdir(tmp)) - set(owned))
        if extra:
            raise RuntimeError(f"unexpected files written to a results folder: {extra}")
        for name in carry:
            src = target / name
            if src.is_dir() and not src.is_symlink():
                shutil.copytree(src, Path(tmp) / name, symlinks=True,
                                copy_function=_link_or_copy)
            elif src.exists() or src.is_symlink():
                _link_or_copy(str(src), str(Path(tmp) / name))
        _fsync_tree(tmp)
        if target.is_dir() and _exchange(tmp, target):
            shutil.rmtree(tmp, ignore_errors=True)  # tmp now holds the previous set
        elif target.is_dir():
            old = _tmp_name(target, "old")
            os.rename(target, old)
            os.rename(tmp, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    fsync_dir(target.parent)
    return Path(out)
