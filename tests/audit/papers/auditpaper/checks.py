"""Exact checks of the audit test paper (the measured value is (1 - eta mu)^(2K) Delta0)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, register
from pflbounds.symbolic import catalog, evaluate

KS = np.arange(1.0, 21.0)


def _bound(rid: str, form: str, p: Mapping[str, Any]) -> np.ndarray:
    ev = evaluate(catalog.get(rid), form, eta=p["eta"], mu=p["mu"], K=KS, Delta0=p["Delta0"])
    return np.asarray(ev.value, dtype=float)


def _measured(p: Mapping[str, Any]) -> np.ndarray:
    return (1 - p["eta"] * p["mu"]) ** (2 * KS) * p["Delta0"]


def sim_bound(p: Mapping[str, Any], R: int, ss: np.random.SeedSequence) -> dict:
    return {"ks": KS, "mean": _measured(p), "bound": _bound(p["rid"], "printed", p)}


def sim_erratum(p: Mapping[str, Any], R: int, ss: np.random.SeedSequence) -> dict:
    return {"ks": KS, "mean": _measured(p), "bound_printed": _bound("auditpaper.wrong",
                                                                   "printed", p),
            "bound_corrected": _bound("auditpaper.wrong", "corrected", p),
            "shown": _bound("auditpaper.shown", "printed", p)}


POINT = {"eta": 0.1, "mu": 1.0, "Delta0": 1.0}
CHECKS = [
    Check("auditpaper.tight", "tight", CheckKind.BOUND_HOLDS, Verdict.HOLDS, sim_bound,
          grid=(dict(POINT, rid="auditpaper.tight"),), engine="exact",
          result_id="auditpaper.tight", form="printed"),
    Check("auditpaper.loose", "loose", CheckKind.BOUND_HOLDS, Verdict.HOLDS, sim_bound,
          grid=(dict(POINT, rid="auditpaper.loose"),), engine="exact",
          result_id="auditpaper.loose", form="printed"),
    Check("auditpaper.E1", "wrong", CheckKind.ERRATUM, Verdict.CONFIRMED, sim_erratum,
          grid=(POINT,), engine="exact", result_id="auditpaper.wrong", form="printed"),
]
for _c in CHECKS:
    register(_c)
