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


def object_location(obj: Any) -> str:
    """``path:line`` of a function or class (unwrapping decorators), or ``""``."""
    try:
        target = inspect.unwrap(obj)
        path = inspect.getsourcefile(target)
        line = inspect.getsourcelines(target)[1]
    except (TypeError, OSError):
        return ""
    return f"{relative(path)}:{line}" if path else ""


def dotted_location(dotted: str) -> str:
    """``path:line`` of ``package.module.name`` (``""`` if it cannot be imported)."""
    module, _, name = dotted.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError):
        return ""
    return object_location(obj)
