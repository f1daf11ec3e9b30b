"""Where things are defined: ``path:line`` of code, for ``pflbounds show``."""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import Any


def relative(path: str) -> str:
    """``path`` relative to the working directory when it lies below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return path
    return path if rel.startswith("..") else rel


def caller_location(depth: int = 2) -> str:
    """``path:line`` of the code ``depth`` frames above this function's caller's caller
    (``depth=2``: the caller of the function that calls this one)."""
    frame = sys._getframe(depth)
    return f"{relative(frame.f_code.co_filename)}:{frame.f_lineno}"


def object_source(obj: Any) -> tuple[str, int] | None:
    """The source file (as :mod:`inspect` gives it) and first line of a function or class
    (unwrapping decorators), or None."""
    try:
        target = inspect.unwrap(obj)
        path = inspect.getsourcefile(target)
        line = inspect.getsourcelines(target)[1]
    except (TypeError, OSError):
        return None
    return (path, line) if path else None


def source_location(source: tuple[str, int] | None) -> str:
    """``path:line`` of an :func:`object_source` (the path relative to the working
    directory when it lies below it), or ``""``."""
    return "" if source is None else f"{relative(source[0])}:{source[1]}"


def object_location(obj: Any) -> str:
    """``path:line`` of a function or class (unwrapping decorators), or ``""``."""
    return source_location(object_source(obj))


def dotted_source(dotted: str) -> tuple[str, int] | None:
    """:func:`object_source` of ``package.module.name`` (None if it cannot be imported)."""
    module, _, name = dotted.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError):
        return None
    return object_source(obj)


def dotted_location(dotted: str) -> str:
    """``path:line`` of ``package.module.name`` (``""`` if it cannot be imported)."""
    return source_location(dotted_source(dotted))


def missing_method(dotted: str) -> str | None:
    """Why the method ``package.module.name`` does not exist (None when it does, or when its
    module needs an optional dependency that is not installed)."""
    from pflbounds.extras import MissingExtra, load

    module, _, name = dotted.rpartition(".")
    if not module:
        return f"{dotted!r} is not a dotted name (package.module.function)"
    try:
        mod = load(module)
    except MissingExtra:
        return None
    except ImportError as exc:
        missing = getattr(exc, "name", None) or ""
        if missing and (module == missing or module.startswith(missing + ".")):
            return f"no module {missing!r}"
        return f"its module {module!r} fails to import: {exc}"
    except Exception as exc:  # noqa: BLE001 - a module that fails for any other reason
        return f"its module {module!r} fails to import: {type(exc).__name__}: {exc}"
    if not hasattr(mod, name):
        return f"module {module!r} has no {name!r}"
    return None
