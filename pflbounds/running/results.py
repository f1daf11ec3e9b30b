"""The tidy results table and atomic saving and loading of outcomes.

One row per check, grid point and recorded K, with provenance columns; evidence with several
axes, e.g. (agents, K), gives one row per entry, and ``entry`` holds the index over the
leading axes as JSON (e.g. ``[3]`` for agent 3). Scalar evidence
(scaling costs, identity residuals) gives one row per grid point with an empty ``k``.
Checks that produced no evidence (ERROR) give one row with empty values.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pflbounds.checking.jsonsafe import canonical_json, to_jsonable
from pflbounds.checking.kinds import CheckKind
from pflbounds.checking.outcome import Outcome

COLUMNS = (
    "check_id", "kind", "point", "params", "entry", "k", "measured", "lo", "hi", "bound",
    "bound_printed", "bound_corrected", "verdict", "expected", "version", "seed",
    "config_hash", "time",
)
NUMERIC = ("k", "measured", "lo", "hi", "bound", "bound_printed", "bound_corrected")
OUTCOMES_FILE = "outcomes.json"
CSV_FILE = "results.csv"
TABLE_FILE = "results.json"


def _col(p: dict[str, Any], key: str, shape: tuple[int, ...]) -> list[float | None]:
    """Evidence ``key`` broadcast to ``shape`` and flattened (None when absent)."""
    n = int(np.prod(shape))
    if key not in p:
        return [None] * n
    arr = np.asarray(p[key], dtype=np.float64)
    try:
        arr = np.broadcast_to(arr, shape).ravel()
    except ValueError:
        return [None] * n
    return [float(v) for v in arr]


def results_rows(outcomes: Iterable[Outcome]) -> list[dict[str, Any]]:
    """The tidy table as a list of dicts with the keys :data:`COLUMNS`."""
    rows: list[dict[str, Any]] = []
    for o in outcomes:
        common = {
            "check_id": o.check_id, "kind": o.kind.value, "verdict": o.verdict.value,
            "expected": o.expected.value, "version": o.version, "seed": o.seed,
            "config_hash": o.config_hash, "time": o.timestamp,
        }
        if not o.evidence:
            rows.append({**dict.fromkeys(COLUMNS), **common})
            continue
        for p in o.evidence:
            base = {**common, "point": p["point"], "params": canonical_json(p["params"])}
            if o.kind is CheckKind.IDENTITY and "residual" in p:
                r = float(np.max(np.abs(np.asarray(p["residual"], dtype=np.float64))))
                rows.append({**dict.fromkeys(COLUMNS), **base, "measured": r, "lo": r,
                             "hi": r, "bound": o.config.get("tolerance")})
                continue
            mean = np.atleast_1d(np.asarray(p.get("mean", []), dtype=np.float64))
            shape = mean.shape
            n = mean.size
            scalar = o.kind is CheckKind.SCALING or "ks" not in p
            ks = [None] * n if scalar else _col(p, "ks", shape)
            bound_key = "target" if o.kind is CheckKind.IDENTITY else "bound"
            cols = {
                "measured": _col(p, "mean", shape), "lo": _col(p, "lo", shape),
                "hi": _col(p, "hi", shape), "bound": _col(p, bound_key, shape),
                "bound_printed": _col(p, "bound_printed", shape),
                "bound_corrected": _col(p, "bound_corrected", shape),
            }
            for j in range(n):
                row = {**dict.fromkeys(COLUMNS), **base, "k": ks[j]}
                if len(shape) > 1:
                    idx = np.unravel_index(j, shape)[:-1]
                    row["entry"] = json.dumps([int(i) for i in idx])
                row.update({c: v[j] for c, v in cols.items()})
                rows.append(row)
    return rows


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else ("nan" if math.isnan(v) else
                                                  ("inf" if v > 0 else "-inf"))
    return str(v)


def rows_to_csv(rows: Sequence[dict[str, Any]]) -> str:
    """CSV text of the tidy table (floats with full precision, empty cells for None)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(COLUMNS), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({c: _cell(r.get(c)) for c in COLUMNS})
    return buf.getvalue()


def read_results_csv(path: str | Path) -> list[dict[str, Any]]:
    """Read a results CSV back with typed values (floats, ints, None for empty cells)."""
    out = []
    with Path(path).open(newline="", encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            row: dict[str, Any] = {}
            for c in COLUMNS:
                v = r.get(c, "")
                if v == "":
                    row[c] = None
                elif c in NUMERIC:
                    row[c] = float(v)
                elif c in ("point", "seed"):
                    row[c] = int(v)
                else:
                    row[c] = v
            out.append(row)
    return out


def atomic_write(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and ``os.replace``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_outcomes(outcomes: Sequence[Outcome], out_dir: str | Path) -> dict[str, Path]:
    """Write ``outcomes.json``, ``results.csv`` and ``results.json`` (the tidy table) into
    ``out_dir``, each atomically. Returns the paths by name."""
    out = Path(out_dir)
    rows = results_rows(outcomes)
    doc = {"format": "pflbounds.outcomes/1", "outcomes": [o.to_dict() for o in outcomes]}
    paths = {"outcomes": out / OUTCOMES_FILE, "csv": out / CSV_FILE, "table": out / TABLE_FILE}
    atomic_write(paths["outcomes"], json.dumps(doc, indent=1, allow_nan=False) + "\n")
    atomic_write(paths["csv"], rows_to_csv(rows))
    atomic_write(paths["table"], json.dumps(to_jsonable(rows), allow_nan=False) + "\n")
    return paths


def load_outcomes(out_dir: str | Path) -> list[Outcome]:
    """Read the outcomes written by :func:`save_outcomes` (a directory or the JSON file)."""
    p = Path(out_dir)
    if p.is_dir():
        p = p / OUTCOMES_FILE
    with p.open(encoding="utf-8") as fh:
        doc = json.load(fh)
    items = doc["outcomes"] if isinstance(doc, dict) else doc
    return [Outcome.from_dict(d) for d in items]
