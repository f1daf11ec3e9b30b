"""JSON encoding of evidence: numpy arrays, non-finite floats and canonical dumps.

Non-finite floats are written as the strings ``"nan"``, ``"inf"`` and ``"-inf"`` so that the
output is strict JSON (no ``NaN`` tokens) and round-trips without loss.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from enum import Enum
from typing import Any

import numpy as np

_NONFINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def _float(x: float) -> float | str:
    if math.isfinite(x):
        return x
    if math.isnan(x):
        return "nan"
    return "inf" if x > 0 else "-inf"


def to_jsonable(obj: Any) -> Any:
    """Convert numpy arrays and scalars, tuples, enums and non-finite floats to plain JSON.

    Raises ``TypeError`` for objects with no faithful JSON form (functions, custom classes).
    """
    if isinstance(obj, Enum):
        return obj.value
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, np.bool_):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, (float, np.floating)):
        return _float(float(obj))
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if isinstance(obj, Mapping):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    raise TypeError(f"cannot encode {type(obj).__name__} as JSON: {obj!r}")


def decode_float(x: Any) -> Any:
    """Inverse of the non-finite encoding for one scalar (other values pass through)."""
    if isinstance(x, str) and x in _NONFINITE:
        return _NONFINITE[x]
    return x


def decode_array(values: Any) -> np.ndarray:
    """Rebuild a numpy array from its JSON list (bool, int or float64 as the values say)."""
    def fix(v: Any) -> Any:
        if isinstance(v, list):
            return [fix(u) for u in v]
        return decode_float(v)

    arr = np.asarray(fix(values))
    if arr.dtype.kind not in "biuf":
        arr = arr.astype(np.float64)
    return arr


def canonical_json(obj: Any) -> str:
    """Deterministic JSON text: sorted keys, no whitespace, numpy converted."""
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"), allow_nan=False)
