"""scott2024 checks: every module of this package that defines ``CHECKS`` (a list of
:class:`~pflbounds.checking.check.Check`) is imported and its checks registered, in the
order of the module names, so a new module of checks needs no edit here."""

from __future__ import annotations

import importlib
import pkgutil

from pflbounds.checking.registry import register

ALL = []
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
    _mod = importlib.import_module(f"{__name__}.{_info.name}")
    ALL.extend(getattr(_mod, "CHECKS", ()))
for _c in ALL:
    register(_c)
