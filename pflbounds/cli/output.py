"""What the commands print: JSON documents and the number formats of their tables."""

from __future__ import annotations

import json
from typing import Any


def jsonable(x: Any) -> Any:
    """``x`` with numpy arrays and numbers made JSON values (non-finite floats as strings)."""
    import numpy as np

    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return [jsonable(v) for v in x.tolist()]
    if isinstance(x, (np.floating, float)):
        f = float(x)
        return f if np.isfinite(f) else str(f)
    if isinstance(x, np.integer):
        return int(x)
    return x


def print_json(doc: Any) -> None:
    """One JSON document on stdout (``--json``)."""
    print(json.dumps(jsonable(doc), indent=2, sort_keys=False))


def fmt_value(v: Any) -> str:
    """A value of ``eval`` or ``solve``: numbers to 6 significant digits, lists and parts."""
    if isinstance(v, dict):
        return ", ".join(f"{k}: {fmt_value(x)}" for k, x in v.items())
    if isinstance(v, list):
        return "[" + ", ".join(fmt_value(x) for x in v) + "]"
    if isinstance(v, float):
        return f"{v + 0.0:.6g}"  # -0.0 + 0.0 is 0.0: no "-0"
    return str(v)


def fmt_bytes(n: float) -> str:
    """A size in B, kB, MB or GB."""
    if n < 1000:
        return f"{n:.0f} B"
    for unit in ("kB", "MB", "GB"):
        n /= 1000
        if n < 1000 or unit == "GB":
            break
    return f"{n:.1f} {unit}"
