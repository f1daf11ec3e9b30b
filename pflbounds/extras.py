"""Optional dependencies (the extras of ``pip install "pflbounds[EXTRA]"``) and the one line
that names the extra to install when one is missing.

The core install computes every result and runs the checks of even2022, hanzely2023 and
philippenko2025. The extras add:

* ``jax``: scott2024's embedding networks and hypernetworks, and the compiled (JAX) backend
  of erickson2025's Dykstra projections;
* ``parquet``: ``results.parquet`` beside the other result files (pyarrow);
* ``pepit``: ``pflbounds audit tightness`` (PEPit, with pandas);
* ``dask``: ``--scheduler ADDRESS``, a run on a Dask cluster;
* ``digits``: erickson2025's §5.2 stand-in on the digits data set shipped with
  scikit-learn.

A check that needs an extra declares it (``Check(requires=("jax",))``); ``validate`` skips
it with the reason when the extra is missing, ``check`` refuses it in one line
(:class:`MissingExtra`). A module that uses an extra imports it where it is used, through
:func:`require` or :func:`load`, never at its top: listing and showing a paper needs none.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from types import ModuleType
from typing import Any

EXTRAS: dict[str, tuple[str, ...]] = {
    "jax": ("jax",),
    "parquet": ("pyarrow",),
    "pepit": ("PEPit",),
    "dask": ("dask", "distributed"),
    "digits": ("sklearn",),
}
"""Extra -> the modules it provides (what is checked for)."""

PURPOSE: dict[str, str] = {
    "jax": "JAX (networks and compiled loops)",
    "parquet": "pyarrow (Parquet files)",
    "pepit": "PEPit (exact worst cases)",
    "dask": "Dask (runs on a cluster)",
    "digits": "scikit-learn (the digits data set)",
}

MODULE_EXTRA = {m: extra for extra, mods in EXTRAS.items() for m in mods}
"""Module -> the extra that installs it."""


def install_command(extra: str) -> str:
    """``pip install "pflbounds[jax]"``."""
    return f'pip install "pflbounds[{extra}]"'


class MissingExtra(ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, extra: str, what: str = "") -> None:
        self.extra = extra
        self.what = what
        super().__init__(f"{what + ' needs' if what else 'needs'} {PURPOSE.get(extra, extra)}, "
                         f"which is not installed: {install_command(extra)}")


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be found (without importing them)."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; expected one of {', '.join(EXTRAS)}")
    out = []
    for m in EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(m) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(m)
    return out


def available(extra: str) -> bool:
    """Whether every module of ``extra`` is installed."""
    return not missing_modules(extra)


def missing(extras: tuple[str, ...] | list[str]) -> list[str]:
    """The extras of ``extras`` that are not installed."""
    return [e for e in extras if not available(e)]


def require(extra: str, what: str = "") -> None:
    """:class:`MissingExtra` unless ``extra`` is installed."""
    if not available(extra):
        raise MissingExtra(extra, what)


PFLBOUNDS_MODULE_EXTRA = {
    "pflbounds.algorithms.pefll": "jax",
    "pflbounds.algorithms.hypernetworks": "jax",
    "pflbounds.algorithms.client_models": "jax",
    "pflbounds.problems.dykstra_jax": "jax",
}
"""Modules of pflbounds that import an extra at their top."""


def extra_of(module: str) -> str:
    """The extra that ``module`` needs ("" for none)."""
    return PFLBOUNDS_MODULE_EXTRA.get(module) or MODULE_EXTRA.get(module.split(".", 1)[0], "")


def load(module: str, what: str = "") -> ModuleType:
    """Import ``module`` (one of an extra, a submodule of one, or a module of pflbounds that
    imports one); :class:`MissingExtra` naming the extra when it is missing."""
    extra = extra_of(module)
    if extra and not available(extra):
        raise MissingExtra(extra, what)
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        missing_name = (getattr(exc, "name", "") or "").split(".", 1)[0]
        if not extra or (missing_name and missing_name not in EXTRAS[extra]):
            raise
        raise MissingExtra(extra, what) from exc


class _LazyModule(ModuleType):
    """A module imported on first attribute access (:func:`lazy_module`)."""

    def __init__(self, name: str, what: str) -> None:
        super().__init__(name)
        self.__dict__["_lazy_what"] = what
        self.__dict__["_lazy_module"] = None

    def _load(self) -> ModuleType:
        mod = self.__dict__["_lazy_module"]
        if mod is None:
            mod = load(self.__name__, self.__dict__["_lazy_what"])
            self.__dict__["_lazy_module"] = mod
        return mod

    def __getattr__(self, attr: str) -> object:
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return getattr(self._load(), attr)

    def __repr__(self) -> str:
        state = "loaded" if self.__dict__["_lazy_module"] is not None else "not loaded yet"
        return f"<lazy module {self.__name__!r} ({state})>"


def lazy_module(name: str, what: str = "") -> ModuleType:
    """``name``, imported when one of its attributes is first used (inside the functions
    that use it), not when the module that holds it is imported: a paper's checks load, and
    are listed, without the extra; running one that uses it raises :class:`MissingExtra`
    (``what`` names what needs it) when it is missing. A module of pflbounds that imports
    an extra at its top (``pflbounds.algorithms.pefll``) is named here like the extra."""
    return _LazyModule(name, what)


def lazy_jit(**options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``functools.partial(jax.jit, **options)`` as a decorator that compiles on the first
    call, so that the module defining the function imports without JAX."""
    import functools

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        compiled: list[Callable[..., Any]] = []

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not compiled:
                jax = load("jax", f"{fn.__module__}.{fn.__qualname__}")
                compiled.append(jax.jit(fn, **options))
            return compiled[0](*args, **kwargs)

        return wrapper

    return decorate
