"""Lazy package exports: ``from pflbounds.problems import X`` imports only X's module.

A package ``__init__`` that re-exports names from many modules would otherwise import all of
them (cvxpy, and through cvxpy's solver probe JAX: seconds) whenever any one submodule is
imported, in every worker process of a sweep. The package lists its exports as
``{name: submodule}`` and sets ``__getattr__ = lazy_exports(__name__, EXPORTS)`` (PEP 562).

An exported name that is also the name of a submodule (``pflbounds.symbolic.evaluate``, the
function, defined in the module of that name) stays the exported object when the submodule is
imported, as it did when the package imported its exports eagerly: the import system would
otherwise set the package's attribute to the submodule.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any


class _Package(types.ModuleType):
    """A package with lazy exports (see the module docstring)."""

    def __setattr__(self, name: str, value: Any) -> None:
        exports = self.__dict__.get("_lazy_exports") or {}
        if isinstance(value, types.ModuleType) and name in exports \
                and value.__name__ == f"{self.__name__}.{name}":
            value = getattr(importlib.import_module(f"{self.__name__}.{exports[name]}"), name)
        super().__setattr__(name, value)


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``package.<exports[name]>`` on first access of
    ``name`` and caches the value in the package's namespace."""
    module = sys.modules[package]
    module.__dict__["_lazy_exports"] = dict(exports)
    if type(module) is types.ModuleType:
        module.__class__ = _Package

    def __getattr__(name: str) -> Any:
        sub = exports.get(name)
        if sub is None:
            if _is_submodule(package, name):  # ``package.sub`` as an attribute, as before
                return importlib.import_module(f"{package}.{name}")
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{sub}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


def _is_submodule(package: str, name: str) -> bool:
    """Whether ``package.name`` is a module of the package (found without importing it)."""
    import importlib.util

    if not name.isidentifier() or name.startswith("__"):
        return False
    try:
        return importlib.util.find_spec(f"{package}.{name}") is not None
    except (ImportError, ValueError):
        return False
