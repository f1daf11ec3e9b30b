"""Lazy package exports: ``from pflbounds.problems import X`` imports only X's module.

A package ``__init__`` that re-exports names from many modules would otherwise import all of
them (cvxpy, and through cvxpy's solver probe JAX: seconds) whenever any one submodule is
imported, in every worker process of a sweep. The package lists its exports as
``{name: submodule}`` and sets ``__getattr__ = lazy_exports(__name__, EXPORTS)`` (PEP 562).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``package.<exports[name]>`` on first access of
    ``name`` and caches the value in the package's namespace."""

    def __getattr__(name: str) -> Any:
        sub = exports.get(name)
        if sub is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{sub}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
