"""The registry of checks, keyed by id.

A paper's check modules (``checks/<topic>.py`` and ``experiments/<name>.py``, as its
manifest names them) each expose ``CHECKS``, a list of :class:`Check`: the registry registers
them when the paper loader (:mod:`pflbounds.symbolic.loader`, shared with the result catalog)
imports the module, so no paper is named here. A paper package without a manifest registers
its checks itself when its ``checks`` module is imported. :func:`load_papers` imports every
paper and its check modules; lookups load the papers lazily, which also lets worker processes
find a check by id. Each registration remembers the module that made it (:func:`module_of`):
a worker imports that module to recreate its checks, and checks that do not come from a paper
package, such as checks defined by tests.
"""

from __future__ import annotations

import difflib
import fnmatch
import importlib
import sys
import traceback
from typing import Any

from pflbounds.checking.check import Check
from pflbounds.symbolic import loader

_CHECKS: dict[str, Check] = {}
_MODULES: dict[str, str | None] = {}
_LOAD_ERRORS: dict[str, str] = {}


class UnknownCheckError(KeyError):
    """No check with this id (the message lists close ids)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown check"


def _origin(check: Check) -> tuple[str, str]:
    fn = check.simulate
    return (getattr(fn, "__module__", "") or "", getattr(fn, "__qualname__", "") or "")


def _caller_module() -> str | None:
    """Name of the first module on the stack outside ``pflbounds.checking``."""
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not name.startswith("pflbounds.checking"):
            return None if name == "__main__" else name
        frame = frame.f_back
    return None  # pragma: no cover


def register(check: Check, *, replace: bool = False, module: str | None = None) -> Check:
    """Add ``check`` to the registry and return it.

    A second check with the same id is refused unless ``replace`` is True or it comes from the
    same simulate function (a module imported again). ``module``: the module whose import
    registers this check (default: the calling module); worker processes import it.
    """
    if not isinstance(check, Check):
        raise TypeError(f"register expects a Check, got {type(check).__name__}")
    old = _CHECKS.get(check.id)
    if old is not None and old is not check and not replace and _origin(old) != _origin(check):
        raise ValueError(
            f"check id {check.id!r} is already registered (by {_MODULES.get(check.id)}); "
            "use another id or register(..., replace=True)"
        )
    _CHECKS[check.id] = check
    _MODULES[check.id] = module if module is not None else _caller_module()
    return check


def register_module(name: str, module: Any) -> None:
    """Register the ``CHECKS`` of a declared check module (called by the paper loader when it
    imports one); a module without ``CHECKS`` is a load error of its paper."""
    checks = getattr(module, "CHECKS", None)
    if not isinstance(checks, (list, tuple)):
        raise TypeError(f"{name} is a check module of its paper's manifest but defines no "
                        "CHECKS list")
    for c in checks:
        if _CHECKS.get(getattr(c, "id", None)) is not c:
            register(c, module=name)


loader.on_check_module(register_module)


def unregister(check_id: str) -> None:
    """Remove a check (no error when it is absent)."""
    _CHECKS.pop(check_id, None)
    _MODULES.pop(check_id, None)


def module_of(check_id: str) -> str | None:
    """The module whose import registers ``check_id`` (None if unknown or ``__main__``)."""
    return _MODULES.get(check_id)


def load_papers() -> list[str]:
    """Import every paper package and its ``checks`` module, once (see
    :mod:`pflbounds.symbolic.loader`). Returns the modules loaded; raises
    :class:`~pflbounds.symbolic.loader.PaperLoadError` naming a paper that fails."""
    return loader.load_papers(checks=True)


def load_errors() -> dict[str, str]:
    """Modules that failed to import (papers, and modules named by tasks), with the error."""
    return {**loader.load_failures(), **_LOAD_ERRORS}


def _last_line(exc: BaseException) -> str:
    return traceback.format_exception_only(type(exc), exc)[-1].strip()


def find(check_id: str) -> Check | None:
    """The registered check with this id, or None (no paper loading)."""
    return _CHECKS.get(check_id)


def get(check_id: str, *, module: str | None = None) -> Check:
    """The check with this id.

    Looks in the registry, then imports ``module`` if given, then loads the papers. Raises
    :class:`UnknownCheckError` (a ``KeyError``) naming close ids otherwise.
    """
    if check_id in _CHECKS:
        return _CHECKS[check_id]
    if module:
        try:
            mod = importlib.import_module(module)
            if isinstance(getattr(mod, "CHECKS", None), (list, tuple)):
                register_module(module, mod)  # a paper's check module: nothing registers it
        except Exception as exc:  # noqa: BLE001 - reported in the lookup error
            _LOAD_ERRORS[module] = _last_line(exc)
        if check_id in _CHECKS:
            return _CHECKS[check_id]
    load_papers()
    if check_id in _CHECKS:
        return _CHECKS[check_id]
    raise UnknownCheckError(_unknown_message(check_id))


def _unknown_message(check_id: str) -> str:
    close = difflib.get_close_matches(check_id, list(_CHECKS), n=5, cutoff=0.6)
    msg = f"unknown check id {check_id!r}"
    if close:
        msg += "; did you mean " + ", ".join(repr(c) for c in close) + "?"
    else:
        paper = check_id.split(".", 1)[0]
        same = sorted(c for c in _CHECKS if c.startswith(paper + "."))
        if same:
            msg += f"; checks of {paper}: " + ", ".join(same[:10])
            msg += " …" if len(same) > 10 else ""
        else:
            msg += f"; {len(_CHECKS)} checks are registered"
    if _LOAD_ERRORS:
        failed = "; ".join(f"{k}: {v}" for k, v in sorted(_LOAD_ERRORS.items()))
        msg += f" (modules that failed to import: {failed})"
    return msg


def loaded_checks(paper: str | None = None) -> list[Check]:
    """The checks registered so far, sorted by id, optionally of one paper; unlike
    :func:`all_checks`, loads no paper."""
    out = sorted(_CHECKS.values(), key=lambda c: c.id)
    return [c for c in out if paper is None or c.paper == paper]


def all_checks(paper: str | None = None) -> list[Check]:
    """All registered checks (papers loaded), sorted by id, optionally of one paper."""
    load_papers()
    out = sorted(_CHECKS.values(), key=lambda c: c.id)
    if paper is not None:
        out = [c for c in out if c.paper == paper]
    return out


def match(pattern: str) -> list[Check]:
    """Checks whose id matches a glob pattern (``even2022.*``, ``*.P1``), sorted by id.
    A pattern that names its paper (``even2022.*``) loads only that paper."""
    paper = pattern.split(".", 1)[0]
    if "." not in pattern or any(ch in paper for ch in "*?[") or not loader.load_paper(
            paper, checks=True):
        load_papers()
    return [_CHECKS[c] for c in sorted(_CHECKS) if fnmatch.fnmatchcase(c, pattern)]


def snapshot() -> dict[str, Any]:
    """Copy of the registry state (for tests that register temporary checks)."""
    return {"checks": dict(_CHECKS), "modules": dict(_MODULES)}


def restore(state: dict[str, Any]) -> None:
    """Restore a :func:`snapshot`."""
    _CHECKS.clear()
    _CHECKS.update(state["checks"])
    _MODULES.clear()
    _MODULES.update(state["modules"])
