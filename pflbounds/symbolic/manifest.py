"""The manifest of a paper package: what its folder holds, declared once in its ``__init__.py``.

Every paper has one layout (``docs/adding-a-paper.md``)::

    papers/<paper>/
      __init__.py       registers the paper (title, citation, digest) and declares MANIFEST
      paper.py          the paper's PaperBuilder ``P`` (and the shorthands cond, form, result)
      symbols.py        its constants;  assumptions.py  its assumptions
      errata.py         ERRATA, {short key: Erratum}, ids ``<paper>.erratum<N>[_<word>]``
      inputs.py         (optional) scalar inputs derived from matrices (Derivation objects)
      theory/<topic>.py the results, one module per topic          (MANIFEST.theory)
      checks/<topic>.py the checks of theory/<topic>.py, as CHECKS  (MANIFEST.checks)
      checks/common.py  check code shared by several topics (no CHECKS)
      experiments/<name>.py  (optional) the paper's own experiments: their claims (results)
                        and their runs (CHECKS)                      (MANIFEST.experiments)
      instances.py      (optional) the paper's own instance families  (MANIFEST.instances)
      complexity.py     (optional) ``table(values, matrices, *, objective, algorithm)``
                        returning a ComplexityTable                  (MANIFEST.complexity)
      audit.py          (optional) TIGHTNESS, MUTANT_NOTES, AUDIT_CHECKS (MANIFEST.audit)

The loader reads the manifest for what a full load imports (:meth:`Manifest.full_load`), the
check registry for the modules whose ``CHECKS`` it registers (:meth:`Manifest.check_modules`),
the catalog for the order it lists results in, and the audits for the audit module. The
per-result index that lets ``eval`` and ``solve`` build one module
(:func:`result_index`) is generated from the manifest by a scan of the declaring modules'
source for ``result("<key>", ...)``: it is never typed by hand.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

REQUIRED_MODULES = ("paper", "symbols", "assumptions", "errata")
"""Top-level modules every paper has (besides ``__init__``)."""
OPTIONAL_MODULES = ("inputs", "instances", "complexity", "audit")
"""Top-level modules a paper may have; all but ``inputs`` are declared in the manifest."""
SHARED_CHECK_MODULE = "common"
"""``checks/common.py``: check code shared by several topics, and ``experiments/common.py``:
code shared by several experiments (draw plans, the builders of their claims' checks); neither
declares CHECKS or results."""


@dataclass(frozen=True)
class Manifest:
    """What a paper package holds (see the module docstring for the layout).

    ``theory``: the topics ``theory/<topic>.py``, in the order the catalog lists their
    results; ``checks``: the topics ``checks/<topic>.py`` (each a theory topic: checks are
    grouped by the topic they check; every module exposes ``CHECKS``); ``experiments``: the
    modules ``experiments/<name>.py`` (claims as results, runs as ``CHECKS``); ``instances``,
    ``complexity``, ``audit``: whether ``instances.py``, ``complexity.py`` and ``audit.py``
    exist. ``errata.py`` is always there.
    """

    theory: tuple[str, ...]
    checks: tuple[str, ...] = ()
    experiments: tuple[str, ...] = ()
    instances: bool = False
    complexity: bool = False
    audit: bool = False

    def __post_init__(self) -> None:
        for f in ("theory", "checks", "experiments"):
            names = getattr(self, f)
            if isinstance(names, str):
                raise ValueError(f"manifest {f} must be a tuple of module names, got the "
                                 f"string {names!r}")
            object.__setattr__(self, f, tuple(names))
            bad = [n for n in names if not n.isidentifier() or n == SHARED_CHECK_MODULE]
            if bad:
                raise ValueError(f"manifest {f}: {', '.join(map(repr, bad))} is not a topic "
                                 f"name (a Python identifier other than {SHARED_CHECK_MODULE!r})")
            if len(set(names)) != len(names):
                raise ValueError(f"manifest {f} names a module twice: {names}")
        if not self.theory:
            raise ValueError("manifest theory must name at least one topic")
        stray = [t for t in self.checks if t not in self.theory]
        if stray:
            raise ValueError(f"manifest checks {', '.join(stray)}: every checks topic mirrors a "
                             f"theory topic ({', '.join(self.theory)})")
        for f in ("instances", "complexity", "audit"):
            if not isinstance(getattr(self, f), bool):
                raise ValueError(f"manifest {f} must be True or False")

    def result_modules(self) -> tuple[str, ...]:
        """The submodules that declare results, in the catalog's order."""
        return (*(f"theory.{t}" for t in self.theory),
                *(f"experiments.{e}" for e in self.experiments))

    def full_load(self, index: Mapping[str, str]) -> tuple[str, ...]:
        """The submodules a full load imports: assumptions, errata, the theory modules, the
        experiment modules that declare results (``index``: :func:`result_index`; an
        experiment that only runs checks is imported with the checks), and the complexity
        calculator."""
        declaring = set(index.values())
        return ("assumptions", "errata", *(f"theory.{t}" for t in self.theory),
                *(m for m in (f"experiments.{e}" for e in self.experiments) if m in declaring),
                *(("complexity",) if self.complexity else ()))

    def check_modules(self) -> tuple[str, ...]:
        """The submodules whose ``CHECKS`` the registry registers."""
        return (*(f"checks.{t}" for t in self.checks),
                *(f"experiments.{e}" for e in self.experiments))


_DECLARATION = re.compile(r"""(?<![\w.])(?:\w+\.)?result\(\s*(["'])([A-Za-z_]\w*)\1""")
"""A result declaration as the template writes it: ``result("<key>", ...)`` or
``P.result("<key>", ...)``, the key a string literal (the only place the key is typed)."""


_WORD = re.compile(r"\w")


def declared_keys(source: str) -> list[str]:
    """The result keys a module's source declares, in order (see :data:`_DECLARATION`).

    The matches of ``_DECLARATION.finditer``, found faster: the pattern is tried only where
    ``result(`` occurs, from the start of the ``name.`` before it (``finditer`` tries it at
    every character: about 3 ms for a paper's theory modules, on every ``eval``)."""
    keys = []
    at = source.find("result(")
    while at >= 0:
        start = at
        if at and source[at - 1] == ".":
            start -= 1
            while start and _WORD.match(source, start - 1):
                start -= 1
        m = _DECLARATION.match(source, start)
        if m is not None:
            keys.append(m.group(2))
        at = source.find("result(", at + 1)
    return keys


def result_index(folder: str | os.PathLike[str], manifest: Manifest) -> dict[str, str]:
    """``{result key: submodule}`` for every result the manifest's result modules declare,
    in the catalog's order (module order, then declaration order). Memoised by the modules'
    paths, sizes and modification times, so an edit is seen at once."""
    paths = [Path(folder, *m.split(".")).with_suffix(".py") for m in manifest.result_modules()]
    stamp = tuple((str(p), *_stat(p)) for p in paths)
    return dict(_index(stamp, manifest.result_modules()))


def _stat(p: Path) -> tuple[int, int]:
    try:
        st = p.stat()
    except OSError:
        return (-1, -1)
    return (st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _index(stamp: tuple[tuple[str, int, int], ...],
           modules: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    out: dict[str, str] = {}
    for (path, size, _), mod in zip(stamp, modules, strict=True):
        if size < 0:
            continue  # a missing module: its import fails and names it
        for key in declared_keys(Path(path).read_text(encoding="utf-8")):
            out.setdefault(key, mod)
    return tuple(out.items())
