"""Numbers in error messages: short, yet never hiding why a value fails (no heavy imports:
the command line's error paths use it before numpy is needed).

``%g`` prints six significant digits, so ``delta=1.0000001`` would read ``delta=1`` in a
message saying that delta must be at most 1. :func:`shown` prints ``%g`` when that reads back
as the same number, else the shortest text that does (``repr``): ``1``, ``0.25``, ``1e+20``,
``1.0000001``.
"""

from __future__ import annotations

import math
import sys
from typing import Any

LARGEST = sys.float_info.max
"""The largest double (about 1.8e308)."""


def shown(x: Any) -> str:
    """One number as a message shows it (module docstring); non-numbers as ``str``."""
    try:
        v = float(x)
    except (TypeError, ValueError, OverflowError):
        return str(x)
    if not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    short = f"{v:g}"
    return short if float(short) == v else repr(v)


def shown_array(a: Any, limit: int = 6) -> str:
    """A number, or the first ``limit`` entries of an array, each as :func:`shown`."""
    import numpy as np

    arr = np.asarray(a, dtype=float)
    if arr.ndim == 0:
        return shown(arr)
    flat = arr.ravel()
    return "[" + ", ".join(shown(x) for x in flat[:limit]) + (", ...]" if flat.size > limit
                                                               else "]")
