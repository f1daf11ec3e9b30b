"""The declaration of a worst-case search: a :class:`SearchCase`.

A case names a bound (a catalog result and one of its forms), a model (an instance family
with a method and a measure: :mod:`pflbounds.tightness.models`), the constants held fixed
(mu, L, sigma^2, Delta0, b_ij, K, ...), optionally constants swept over a few values (one
search per point), the free parameters with their admissible sets
(:mod:`pflbounds.tightness.spaces`; a free parameter is an instance parameter of the model,
or one of its constants such as a step size), the parameters pinned to given values, and how
to search (:class:`Search`). Everything is JSON: a case has a canonical form
(:meth:`SearchCase.canonical`) from which the cache key of its record is computed.

A paper declares its cases in its ``audit.py``::

    from pflbounds.tightness import Search, SearchCase, Simplex, Sphere, spectrum

    WORST_CASES = [
        SearchCase("mypaper.theorem1", "explicit", "quadratic_sgd",
                   fixed={"mu": 0.01, "L": 1, "eta": 1, "K": 20, "sigma2": 0.01,
                          "R0": 1, "d": 2},
                   free={"spectrum": spectrum(), "x0": Sphere("d", "sqrt(R0)"),
                         "noise": Simplex("d", "sigma2")},
                   title="Theorem 1 on quadratics with spectrum in [mu, L]"),
    ]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from pflbounds.checking.jsonsafe import to_jsonable
from pflbounds.tightness.spaces import Space, space_from_json

__all__ = ["MODES", "CaseError", "Search", "SearchCase"]

MODES = ("auto", "exact", "sdp", "optimize", "random")
"""``exact``: the model's decoupled worst case; ``sdp``: PEPit; ``optimize``: scipy's
L-BFGS-B from several seeded starts on an exact measure; ``random``: seeded uniform draws
(any measure, Monte Carlo included); ``auto``: the first that applies, in the order sdp (an
SDP model), exact, optimize (an exact model), random."""


class CaseError(ValueError):
    """A case that cannot be searched as declared (one line: the case, the input, why)."""


@dataclass(frozen=True)
class Search:
    """How to search. ``seed``: every random choice (starts, draws, Monte Carlo runs, the
    data of generated instances) comes from it. ``starts``: L-BFGS-B starts (the centre of
    the raw box, then seeded uniform points). ``budget``: evaluations of the measure per
    point of the sweep (``optimize``: over all starts, finite differences included;
    ``random``: draws). ``replicas``: Monte Carlo runs per evaluation (common to all draws);
    ``confirm``: runs of the independent re-measure of the worst draw, whose one-sided
    interval at ``confidence`` gives the verdict."""

    mode: str = "auto"
    seed: int = 0
    starts: int = 8
    budget: int = 4000
    replicas: int = 256
    confirm: int = 4096
    confidence: float = 0.99

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise CaseError(f"search mode {self.mode!r}: expected one of {', '.join(MODES)}")
        for name in ("starts", "budget"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise CaseError(f"search {name}={v!r}: expected an integer >= 1")
        for name in ("replicas", "confirm"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 2:
                raise CaseError(f"search {name}={v!r}: expected an integer >= 2")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise CaseError(f"search seed={self.seed!r}: expected an integer >= 0")
        if not 0.5 < self.confidence < 1:
            raise CaseError(f"search confidence={self.confidence!r}: expected a number in "
                            "(0.5, 1)")


def _finite(name: str, v: Any) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise CaseError(f"{name}={v!r}: expected a number") from None
    if not math.isfinite(x):
        raise CaseError(f"{name}={v!r}: expected a finite number")
    return x


@dataclass(frozen=True)
class SearchCase:
    """A worst-case search (module docstring).

    ``result``, ``form`` (and ``part`` for a form with named parts): the bound.
    ``model``: a registered model name or ``"package.module:attribute"``. ``fixed``: the
    constants held fixed, scalars. ``free``: parameter name -> admissible set. ``pinned``:
    instance parameter -> value (arrays as nested lists); parameters neither free nor pinned
    take the model's default instance's value. ``sweep``: constant -> values (one search per
    point of their product, each constant's values in order). ``measure``: one of the model's
    measures (default its first). ``search``: how to search. ``title``: for tables.
    """

    result: str
    form: str
    model: str
    fixed: Mapping[str, float]
    free: Mapping[str, Space] = field(default_factory=dict)
    pinned: Mapping[str, Any] = field(default_factory=dict)
    sweep: Mapping[str, Sequence[float]] = field(default_factory=dict)
    measure: str = ""
    search: Search = field(default_factory=Search)
    part: str = ""
    title: str = ""

    def __post_init__(self) -> None:
        for name in ("result", "form", "model"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise CaseError(f"a case needs a {name} (a non-empty string)")
        fixed = {str(k): _finite(k, v) for k, v in dict(self.fixed).items()}
        sweep = {}
        for k, vals in dict(self.sweep).items():
            seq = [_finite(f"{k} (sweep)", v) for v in vals]
            if not seq:
                raise CaseError(f"sweep {k}: give at least one value")
            if k in fixed:
                raise CaseError(f"{k} is both fixed and swept")
            sweep[str(k)] = tuple(seq)
        free = dict(self.free)
        for k, s in free.items():
            if not isinstance(s, Space):
                raise CaseError(f"free parameter {k}: expected a set (Box, Sphere, Simplex, "
                                f"Rotation), got {type(s).__name__}")
            if k in fixed or k in sweep:
                raise CaseError(f"{k} is both free and fixed")
        pinned = {}
        for k, v in dict(self.pinned).items():
            if k in free:
                raise CaseError(f"{k} is both free and pinned")
            arr = np.asarray(v, dtype=np.float64)
            if not np.all(np.isfinite(arr)):
                raise CaseError(f"pinned {k}: expected finite numbers")
            pinned[str(k)] = arr
        if not isinstance(self.search, Search):
            raise CaseError(f"search: expected a Search, got {type(self.search).__name__}")
        object.__setattr__(self, "fixed", fixed)
        object.__setattr__(self, "sweep", sweep)
        object.__setattr__(self, "free", free)
        object.__setattr__(self, "pinned", pinned)

    @property
    def label(self) -> str:
        """``result [form]`` on ``model``, for messages."""
        part = f":{self.part}" if self.part else ""
        return f"{self.result} [{self.form}{part}] on {self.model}"

    def canonical(self) -> dict[str, Any]:
        """The case as plain JSON (sorted when dumped; the title included)."""
        return to_jsonable({
            "result": self.result, "form": self.form, "part": self.part, "model": self.model,
            "fixed": dict(sorted(self.fixed.items())),
            "sweep": {k: list(v) for k, v in sorted(self.sweep.items())},
            "free": {k: s.to_json() for k, s in sorted(self.free.items())},
            "pinned": {k: v for k, v in sorted(self.pinned.items())},
            "measure": self.measure, "search": asdict(self.search), "title": self.title,
        })

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SearchCase:
        """Inverse of :meth:`canonical`."""
        d = dict(data)
        return cls(result=d["result"], form=d["form"], model=d["model"], fixed=d["fixed"],
                   free={k: space_from_json(v) for k, v in d.get("free", {}).items()},
                   pinned=d.get("pinned", {}), sweep=d.get("sweep", {}),
                   measure=d.get("measure", ""), search=Search(**d.get("search", {})),
                   part=d.get("part", ""), title=d.get("title", ""))
