"""Models: an instance family with a method and a measure, as the search engine sees them.

A model maps the constants of a case (mu, L, eta, K, sigma^2, ...) and the values of the
instance parameters (a spectrum, a rotation, noise variances, an initial point, ...) to the
measured value of the method on that instance: an exact expectation (``kind = "exact"``: the
linear-Gaussian engines of :mod:`pflbounds.exact`), an exact worst case over a whole function
class (``"sdp"``: PEPit), or a Monte Carlo mean with its standard error (``"monte_carlo"``).
It checks that every instance it builds satisfies the hypotheses at the case's constants
(:meth:`Model.admissible`), gives the instance a check would use by default
(:meth:`Model.default`), and, where the worst case over its family decouples into small
problems, computes it exactly (:meth:`Model.decoupled`).

Models are registered by name (:func:`register_model`); a case may also name one by its
dotted path ``"package.module:attribute"`` (a paper's own model, declared in its package:
this engine never imports a paper by name).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pflbounds.tightness.spaces import Resolved

__all__ = [
    "InstanceError",
    "Measurement",
    "Model",
    "NotDecoupled",
    "Worst",
    "register_model",
]


class InstanceError(ValueError):
    """An instance that breaks a hypothesis at the case's constants (the message names the
    parameter, its value and the hypothesis)."""


class NotDecoupled(ValueError):
    """The worst case of this model, measure and sets has no exact decoupled form (why)."""


@dataclass(frozen=True)
class Measurement:
    """A measured value; ``stderr`` is 0 for an exact expectation. ``detail``: JSON-safe
    extras (a Monte Carlo run's replicas, an SDP's diagnostics)."""

    value: float
    stderr: float = 0.0
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Worst:
    """An exact worst case: its value, an instance that attains it, and how it was computed."""

    value: float
    instance: dict[str, np.ndarray]
    method: str
    detail: dict[str, Any] = field(default_factory=dict)


class Model:
    """Base class (module docstring). Subclasses set the class attributes and override
    :meth:`measure` and :meth:`admissible`, and :meth:`default`, :meth:`derived` and
    :meth:`decoupled` where they have them."""

    name = ""
    kind = "exact"
    constants: tuple[str, ...] = ()
    """The constants the model reads (each must be fixed, swept or searched by the case)."""
    parameters: tuple[str, ...] = ()
    """The instance parameters, in the order they are documented."""
    measures: tuple[str, ...] = ("last",)
    """The measures it offers; the first is the default."""
    description = ""

    def options(self, constants: Mapping[str, float]) -> dict[str, Any]:
        """Options read from the constants (integers such as d and K), checked."""
        return {}

    def derived(self, constants: Mapping[str, float]) -> dict[str, float]:
        """Constants of the bound that the model's constants determine (a weighted bias
        sum_j lambda_ij b_ij^2 from lambda and b); a case that fixes one must agree."""
        return {}

    def default(self, constants: Mapping[str, float]) -> dict[str, np.ndarray] | None:
        """The instance a check would use by default (isotropic, evenly spread), or None."""
        return None

    def pinned_default(self, name: str, constants: Mapping[str, float]) -> np.ndarray:
        """The value of a parameter the case neither searches nor pins."""
        d = self.default(constants)
        if d is None or name not in d:
            raise KeyError(name)
        return d[name]

    def admissible(self, constants: Mapping[str, float], instance: Mapping[str, np.ndarray],
                   *, seed: int = 0) -> None:  # pragma: no cover
        """Raise :class:`InstanceError` unless the instance satisfies the hypotheses (a
        generated instance: the one ``seed`` generates, as :meth:`measure` would)."""
        raise NotImplementedError

    def measure(self, constants: Mapping[str, float], instance: Mapping[str, np.ndarray],
                measure: str, *, seed: int = 0, replicas: int = 0,
                stream: int = 0) -> Measurement:  # pragma: no cover
        """The measured value on the instance. Monte Carlo models draw ``replicas`` runs from
        the seed sequence (``seed``, ``stream``)."""
        raise NotImplementedError

    def decoupled(self, constants: Mapping[str, float], sets: Mapping[str, Resolved],
                  pinned: Mapping[str, np.ndarray], measure: str) -> Worst:
        """The exact worst case over the sets, when it decouples; :class:`NotDecoupled`
        otherwise."""
        raise NotDecoupled(f"model {self.name} has no exact decoupled worst case")

    def describe(self, constants: Mapping[str, float],
                 instance: Mapping[str, Any]) -> str:
        """The instance in words, for tables and the report: each parameter summarised
        (a few values, or their range and where the largest entry sits)."""
        return "; ".join(f"{k} {summarise(v)}" for k, v in sorted(instance.items()))

    def sdp(self, constants: Mapping[str, float], measure: str) -> Any:
        """The worst case over a function class by semidefinite programming (``kind =
        "sdp"``)."""
        raise NotDecoupled(f"model {self.name} has no SDP worst case")


_MODELS: dict[str, Model] = {}


def register_model(model: Model) -> Model:
    """Register ``model`` under its name (a second model of the same name is refused)."""
    if not model.name:
        raise ValueError("a model needs a name")
    old = _MODELS.get(model.name)
    if old is not None and type(old) is not type(model):
        raise ValueError(f"a model named {model.name!r} is already registered")
    _MODELS[model.name] = model
    return model


# ------------------------------------------------------------------ helpers for models
def g3(x: float) -> str:
    """A number in three significant digits."""
    return f"{float(x):.3g}"


def summarise(value: Any) -> str:
    """A parameter's value in a few words: up to four numbers listed, else the range."""
    a = np.asarray(value, dtype=np.float64)
    if a.size == 0:
        return "(empty)"
    if a.size <= 4:
        inner = ", ".join(g3(x) for x in a.ravel())
        return inner if a.size == 1 else f"[{inner}]"
    return f"in [{g3(a.min())}, {g3(a.max())}] ({'x'.join(map(str, a.shape))})"


def share(weights: np.ndarray) -> tuple[int, float]:
    """The index of the largest of nonnegative ``weights`` and its share of their sum."""
    w = np.abs(np.asarray(weights, dtype=np.float64))
    total = float(w.sum())
    i = int(np.argmax(w)) if w.size else 0
    return i, (float(w[i]) / total if total > 0 else 0.0)


def placed(what: str, weights: np.ndarray, eigenvalues: np.ndarray) -> str:
    """Where ``weights`` over the eigen-directions sit: "noise on 1 (100%)" or "no noise"."""
    w = np.abs(np.asarray(weights, dtype=np.float64))
    if float(w.sum()) == 0:
        return f"no {what}"
    i, frac = share(w)
    return f"{what} on eigenvalue {g3(eigenvalues[i])} ({100 * frac:.0f}%)"


def integer(constants: Mapping[str, float], name: str, lo: int = 1) -> int:
    """The constant ``name`` as an integer >= lo, or :class:`InstanceError`."""
    if name not in constants:
        raise InstanceError(f"the model needs the constant {name}")
    v = float(constants[name])
    if v != round(v) or v < lo:
        raise InstanceError(f"{name}={v:g}: expected an integer >= {lo}")
    return int(round(v))


def within(name: str, value: float, lo: float, hi: float, hypothesis: str,
           rtol: float = 1e-12) -> None:
    """:class:`InstanceError` unless lo <= value <= hi up to ``rtol`` (relative)."""
    slack = rtol * max(abs(lo), abs(hi), 1e-300)
    if not (lo - slack <= value <= hi + slack) or not math.isfinite(value):
        raise InstanceError(f"{name}={value:.6g} is outside [{lo:.6g}, {hi:.6g}]: "
                            f"{hypothesis}")
