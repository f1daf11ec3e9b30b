"""Admissible sets of the free parameters of a worst-case search, and their coordinates.

A free parameter is searched over a set that its case declares: a box of values (a Hessian
spectrum in [mu, L], a step size in an interval), a sphere (an initial point at a given
distance, a heterogeneity vector of a given norm), rows of a simplex (noise variances with a
given total), the rotations of R^n (eigenvector alignment, one per client) or a spread
(clients' gradients at the optimum, summing to 0 with a given mean squared norm). Sets with a
``count`` hold one row per client. The numbers that define a set
(sizes, bounds, radii, totals) are numbers or expressions over the case's constants in the
restricted grammar of :func:`pflbounds.symbolic.parsing.parse_value` (``"mu"``,
``"sqrt(R0)"``, ``"1/L"``), so that a case stays JSON and its sets follow its constants.

Every set is given *coordinates*: a box [lo, hi]^m of raw numbers and a map from it onto the
set (a smooth surjection, or smooth except where a raw vector is 0). Searches work on the
raw boxes (scipy's L-BFGS-B with bounds, seeded uniform draws); records keep both the raw
point and the value it maps to.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from pflbounds.symbolic.parsing import ParseError, parse_value

__all__ = ["Box", "Resolved", "Rotation", "Simplex", "Space", "Sphere", "Spread", "number",
           "spectrum"]

Number = float | int | str
"""A number, or an expression over the case's constants (``"mu"``, ``"sqrt(2*Delta0)"``)."""


class SpaceError(ValueError):
    """A set that cannot be built from the case's constants (the message says why)."""


def number(value: Number, constants: Mapping[str, float], what: str) -> float:
    """The value of ``value`` at ``constants``; ``SpaceError`` naming ``what`` when the
    expression does not parse or names an unknown constant."""
    if isinstance(value, bool):
        raise SpaceError(f"{what}: expected a number or an expression, got {value!r}")
    if isinstance(value, (int, float)):
        out = float(value)
    else:
        try:
            out = parse_value(str(value), dict(constants))
        except ParseError as e:
            raise SpaceError(f"{what} = {value!r}: {e}") from None
    if not math.isfinite(out):
        raise SpaceError(f"{what} = {value!r} is not finite")
    return out


def _size(value: Number, constants: Mapping[str, float], what: str) -> int:
    v = number(value, constants, what)
    if v != round(v) or v < 1:
        raise SpaceError(f"{what} = {value!r} gives {v:g}: expected an integer >= 1")
    return int(round(v))


@dataclass(frozen=True)
class Resolved:
    """A set at given constants: its raw box and the map onto it."""

    space: Space
    shape: tuple[int, ...]
    lower: np.ndarray
    upper: np.ndarray
    params: dict[str, float]

    @property
    def dim(self) -> int:
        """Number of raw coordinates."""
        return int(self.lower.size)

    def map(self, raw: np.ndarray) -> np.ndarray:
        """The point of the set at raw coordinates ``raw`` (shape (dim,))."""
        return self.space._map(np.asarray(raw, dtype=np.float64), self)

    def describe(self) -> str:
        """One line: the set with its numbers."""
        return self.space._describe(self)


class Space:
    """Base class of the admissible sets (see the module docstring)."""

    kind = ""

    def resolve(self, constants: Mapping[str, float]) -> Resolved:  # pragma: no cover
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The set as JSON (its numbers as declared: expressions stay text)."""
        out: dict[str, Any] = {"kind": self.kind}
        for k, v in self.__dict__.items():
            out[k] = v if isinstance(v, (str, bool)) else float(v)
        return out

    def _map(self, raw: np.ndarray, r: Resolved) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _describe(self, r: Resolved) -> str:  # pragma: no cover
        raise NotImplementedError


def _rows(count: Number, constants: Mapping[str, float], what: str) -> int:
    return _size(count, constants, f"{what} count")


def _shape(count: Number, c: int, n: int) -> tuple[int, ...]:
    """(n,) for one vector declared as such (count 1, the default), else (c, n)."""
    return (n,) if c == 1 and count == 1 else (c, n)


@dataclass(frozen=True)
class Box(Space):
    """``size`` values, each in [lo, hi] (``scale="log"``: spaced geometrically, lo > 0);
    ``count`` rows of them (one per client, say). ``attain``: in each row the first value is
    lo and the last hi (a spectrum whose extremes are the constants mu and L exactly, as a
    check's certified constants would be)."""

    size: Number = 1
    lo: Number = 0.0
    hi: Number = 1.0
    scale: str = "linear"
    attain: bool = False
    count: Number = 1
    kind = "box"

    def resolve(self, constants: Mapping[str, float]) -> Resolved:
        n = _size(self.size, constants, "box size")
        c = _rows(self.count, constants, "box")
        lo = number(self.lo, constants, "box lower end")
        hi = number(self.hi, constants, "box upper end")
        if not lo <= hi:
            raise SpaceError(f"box [{self.lo}, {self.hi}] = [{lo:g}, {hi:g}] is empty")
        if self.scale not in ("linear", "log"):
            raise SpaceError(f"box scale {self.scale!r}: expected 'linear' or 'log'")
        if self.scale == "log" and lo <= 0:
            raise SpaceError(f"a log-scaled box needs lo > 0, got lo = {self.lo} = {lo:g}")
        if self.attain and n == 1 and lo != hi:
            raise SpaceError(f"one value cannot attain both ends of [{lo:g}, {hi:g}]")
        free = c * (n - (min(n, 2) if self.attain else 0))
        return Resolved(self, _shape(self.count, c, n), np.zeros(free), np.ones(free),
                        {"lo": lo, "hi": hi})

    def _map(self, raw: np.ndarray, r: Resolved) -> np.ndarray:
        lo, hi = r.params["lo"], r.params["hi"]
        u = np.clip(raw, 0.0, 1.0)
        if self.scale == "log":
            vals = lo * np.exp(u * math.log(hi / lo)) if hi > lo else np.full(u.shape, lo)
        else:
            vals = lo + u * (hi - lo)
        vals = np.clip(vals, lo, hi)  # rounding of exp/log never leaves the box
        vals[u == 0.0], vals[u == 1.0] = lo, hi  # the ends exactly
        if not self.attain:
            return vals.reshape(r.shape)
        n = r.shape[-1]
        rows = int(np.prod(r.shape[:-1])) if len(r.shape) == 2 else 1
        out = np.empty((rows, n))
        out[:, 0] = lo
        if n > 1:
            out[:, -1] = hi
            out[:, 1:-1] = vals.reshape(rows, n - 2)
        return out.reshape(r.shape)

    def _describe(self, r: Resolved) -> str:
        lo, hi = r.params["lo"], r.params["hi"]
        ends = ", first = lo and last = hi" if self.attain else ""
        rows = f"{r.shape[0]} rows of " if len(r.shape) == 2 else ""
        return f"{rows}{r.shape[-1]} values in [{lo:.6g}, {hi:.6g}] ({self.scale}{ends})"


def spectrum(size: Number = "d", lo: Number = "mu", hi: Number = "L", *,
             attain: bool = False, count: Number = 1) -> Box:
    """A Hessian spectrum: ``size`` eigenvalues in [lo, hi] (default [mu, L]), log-spaced
    coordinates; ``count`` spectra (one per client) as rows."""
    return Box(size, lo, hi, "log", attain, count)


@dataclass(frozen=True)
class Sphere(Space):
    """``count`` vectors of R^size, each of norm ``radius`` (raw coordinates in
    [-1, 1]^size, normalised; a raw vector 0 maps to radius times the first unit vector)."""

    size: Number = 1
    radius: Number = 1.0
    count: Number = 1
    kind = "sphere"

    def resolve(self, constants: Mapping[str, float]) -> Resolved:
        n = _size(self.size, constants, "sphere size")
        c = _size(self.count, constants, "sphere count")
        rad = number(self.radius, constants, "sphere radius")
        if rad < 0:
            raise SpaceError(f"sphere radius {self.radius} = {rad:g} is negative")
        return Resolved(self, _shape(self.count, c, n), -np.ones(c * n), np.ones(c * n),
                        {"radius": rad})

    def _map(self, raw: np.ndarray, r: Resolved) -> np.ndarray:
        n = r.shape[-1]
        z = np.clip(raw, -1.0, 1.0).reshape(-1, n)
        norms = np.sqrt(np.einsum("ij,ij->i", z, z))
        out = np.zeros_like(z)
        ok = norms > 0
        out[ok] = z[ok] / norms[ok, None]
        out[~ok, 0] = 1.0
        return (r.params["radius"] * out).reshape(r.shape)

    def _describe(self, r: Resolved) -> str:
        many = f"{r.shape[0]} vectors" if len(r.shape) == 2 else "a vector"
        return f"{many} of R^{r.shape[-1]} of norm {r.params['radius']:.6g}"


@dataclass(frozen=True)
class Simplex(Space):
    """``count`` rows of ``size`` values >= 0, each row summing to ``total`` (raw
    coordinates in [0, 1]^size, divided by their sum; a raw row 0 maps to equal values)."""

    size: Number = 1
    total: Number = 1.0
    count: Number = 1
    kind = "simplex"

    def resolve(self, constants: Mapping[str, float]) -> Resolved:
        n = _size(self.size, constants, "simplex size")
        c = _size(self.count, constants, "simplex count")
        tot = number(self.total, constants, "simplex total")
        if tot < 0:
            raise SpaceError(f"simplex total {self.total} = {tot:g} is negative")
        return Resolved(self, _shape(self.count, c, n), np.zeros(c * n), np.ones(c * n),
                        {"total": tot})

    def _map(self, raw: np.ndarray, r: Resolved) -> np.ndarray:
        n = r.shape[-1]
        u = np.clip(raw, 0.0, 1.0).reshape(-1, n)
        s = u.sum(axis=1)
        out = np.full(u.shape, 1.0 / n)
        ok = s > 0
        out[ok] = u[ok] / s[ok, None]
        return (r.params["total"] * out).reshape(r.shape)

    def _describe(self, r: Resolved) -> str:
        rows = f"{r.shape[0]} rows of " if len(r.shape) == 2 else ""
        return f"{rows}{r.shape[-1]} values >= 0 summing to {r.params['total']:.6g}"


@dataclass(frozen=True)
class Rotation(Space):
    """A rotation of R^size (``count`` of them: one per client, say): the product, in a
    fixed order of the pairs (i, j), i < j, of the size(size-1)/2 plane rotations
    G_ij(theta_ij) whose angles are the raw coordinates, in [-pi, pi] (generalised Euler
    angles: every rotation of determinant 1 is reached)."""

    size: Number = 1
    count: Number = 1
    kind = "rotation"

    def resolve(self, constants: Mapping[str, float]) -> Resolved:
        n = _size(self.size, constants, "rotation size")
        c = _rows(self.count, constants, "rotation")
        m = c * (n * (n - 1) // 2)
        shape = (n, n) if c == 1 and self.count == 1 else (c, n, n)
        return Resolved(self, shape, -np.pi * np.ones(m), np.pi * np.ones(m), {})

    def _map(self, raw: np.ndarray, r: Resolved) -> np.ndarray:
        n = r.shape[-1]
        angles = raw.reshape(-1, n * (n - 1) // 2)
        pairs = list(zip(*np.triu_indices(n, 1), strict=True))
        out = np.empty((angles.shape[0], n, n))
        for b, row in enumerate(angles):  # loop over the few rotations and their angles
            Q = np.eye(n)
            for (i, j), t in zip(pairs, row, strict=True):
                c, s = np.cos(t), np.sin(t)
                qi, qj = Q[:, i].copy(), Q[:, j].copy()
                Q[:, i], Q[:, j] = c * qi + s * qj, c * qj - s * qi
            out[b] = Q
        return out.reshape(r.shape)

    def _describe(self, r: Resolved) -> str:
        many = f"{r.shape[0]} rotations" if len(r.shape) == 3 else "a rotation"
        return f"{many} of R^{r.shape[-1]}"


@dataclass(frozen=True)
class Spread(Space):
    """``count`` vectors of R^size that sum to 0 and whose mean squared norm is
    ``mean_square`` (heterogeneity at the optimum: gradients grad f_i(x*) of clients whose
    average is minimised at x*, with (1/N) sum_i ||grad f_i(x*)||^2 = zeta^2). Raw
    coordinates in [-1, 1]^(count x size), centred and scaled; rows that are all equal map
    to evenly spaced points on the first axis."""

    size: Number = 1
    count: Number = 2
    mean_square: Number = 1.0
    kind = "spread"

    def resolve(self, constants: Mapping[str, float]) -> Resolved:
        n = _size(self.size, constants, "spread size")
        c = _rows(self.count, constants, "spread")
        ms = number(self.mean_square, constants, "spread mean square")
        if c < 2 and ms > 0:
            raise SpaceError("one vector summing to 0 has norm 0: a spread needs count >= 2")
        if ms < 0:
            raise SpaceError(f"spread mean square {self.mean_square} = {ms:g} is negative")
        return Resolved(self, (c, n), -np.ones(c * n), np.ones(c * n), {"mean_square": ms})

    def _map(self, raw: np.ndarray, r: Resolved) -> np.ndarray:
        c, n = r.shape
        z = np.clip(raw, -1.0, 1.0).reshape(c, n)
        z = z - z.mean(axis=0)
        norm2 = float(np.einsum("ij,ij->", z, z)) / c
        if norm2 == 0.0:
            z = np.zeros((c, n))
            z[:, 0] = np.arange(c) - (c - 1) / 2
            norm2 = float(np.einsum("ij,ij->", z, z)) / c
        return z * np.sqrt(r.params["mean_square"] / norm2)

    def _describe(self, r: Resolved) -> str:
        return (f"{r.shape[0]} vectors of R^{r.shape[1]} summing to 0 with mean squared norm "
                f"{r.params['mean_square']:.6g}")


SPACES: dict[str, type[Space]] = {c.kind: c for c in (Box, Sphere, Simplex, Rotation, Spread)}


def space_from_json(data: Mapping[str, Any]) -> Space:
    """Inverse of :meth:`Space.to_json`."""
    kind = data.get("kind")
    if kind not in SPACES:
        raise SpaceError(f"unknown set kind {kind!r}; expected one of {', '.join(SPACES)}")
    return SPACES[kind](**{k: v for k, v in data.items() if k != "kind"})
