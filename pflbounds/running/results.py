"""The tidy results table and atomic saving and loading of outcomes.

One row per check, grid point and recorded K, with provenance columns; evidence with several
axes, e.g. (agents, K), gives one row per entry, and ``entry`` holds the index over the
leading axes as JSON (e.g. ``[3]`` for agent 3). Scalar evidence
(scaling costs, identity residuals) gives one row per grid point with an empty ``k``; a
comparison gives one row per claimed pair (``entry`` its index), ``measured`` the mean paired
difference and ``lo``/``hi`` its interval.
Checks that produced no evidence (ERROR) give one row with empty values.

Provenance columns: ``version``, ``seed``, ``config_hash``, ``time`` (when the outcome was
built, UTC), ``cache_hit`` (every task of the grid point came from the task cache) and
``compute_s`` (seconds the point's tasks took when they were computed); the last two are empty
for outcomes read back from disk.

A results folder holds ``outcomes.json``, ``results.csv``, ``results.json`` and, when
pyarrow is installed (the ``parquet`` extra), ``results.parquet``, written as one set
(:func:`pflbounds.running.atomic.replace_folder`).
A report of the results may share their folder (``reports/NAME/``: its Typst source
``NAME.typ`` and ``figures/``, :func:`report_files`); saving results again keeps them.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pflbounds.checking.jsonsafe import canonical_json, to_jsonable
from pflbounds.checking.kinds import CheckKind
from pflbounds.checking.outcome import Outcome
from pflbounds.running.atomic import check_folder, replace_folder, write_new_file

COLUMNS = (
    "check_id", "kind", "point", "params", "entry", "k", "measured", "lo", "hi", "bound",
    "bound_printed", "bound_corrected", "verdict", "expected", "version", "seed",
    "config_hash", "time", "cache_hit", "compute_s",
)
NUMERIC = ("k", "measured", "lo", "hi", "bound", "bound_printed", "bound_corrected",
           "compute_s")
INTEGER = ("point", "seed")
OUTCOMES_FILE = "outcomes.json"
CSV_FILE = "results.csv"
TABLE_FILE = "results.json"
PARQUET_FILE = "results.parquet"
RESULT_FILES = (OUTCOMES_FILE, CSV_FILE, TABLE_FILE, PARQUET_FILE)
FIGURES_DIR = "figures"
Provenance = Mapping[tuple[str, int], Mapping[str, Any]]


def report_files(folder: str | Path) -> tuple[str, str]:
    """The names a report writes into the folder ``reports/NAME/`` beside its results: its
    Typst source ``NAME.typ`` and the folder ``figures/`` (SVG and CSV)."""
    return f"{Path(folder).name}.typ", FIGURES_DIR


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


def results_rows(outcomes: Iterable[Outcome],
                 provenance: Provenance | None = None) -> list[dict[str, Any]]:
    """The tidy table as a list of dicts with the keys :data:`COLUMNS`. ``provenance``:
    per (check id, grid point) ``cache_hit`` and ``compute_s``
    (:attr:`pflbounds.running.executor.Sweep.provenance`)."""
    rows: list[dict[str, Any]] = []
    for o in outcomes:
        rows.extend(_outcome_rows(o, provenance or {}))
    return rows


def _outcome_rows(o: Outcome, provenance: Provenance) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    common = {
        "check_id": o.check_id, "kind": o.kind.value, "verdict": o.verdict.value,
        "expected": o.expected.value, "version": o.version, "seed": o.seed,
        "config_hash": o.config_hash, "time": o.timestamp,
    }
    if not o.evidence:
        rows.append({**dict.fromkeys(COLUMNS), **common})
        return rows
    for p in o.evidence:
        prov = provenance.get((o.check_id, int(p["point"])), {})
        base = {**common, "point": p["point"], "params": canonical_json(p["params"]),
                "cache_hit": prov.get("cache_hit"), "compute_s": prov.get("compute_s")}
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
            elif o.kind is CheckKind.COMPARISON:  # one row per claimed pair of methods
                row["entry"] = json.dumps([j])
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


def _typed(c: str, v: str) -> Any:
    if v == "":
        return None
    if c in NUMERIC:
        return float(v)
    if c in INTEGER:
        return int(v)
    if c == "cache_hit":
        return v == "True"
    return v


def read_results_csv(path: str | Path) -> list[dict[str, Any]]:
    """Read a results CSV back with typed values (floats, ints, booleans, None for empty
    cells; columns absent from an older file are None)."""
    with Path(path).open(newline="", encoding="utf-8") as fh:
        return [{c: _typed(c, r.get(c) or "") for c in COLUMNS} for r in csv.DictReader(fh)]


def arrow_table(rows: Sequence[dict[str, Any]]):
    """The tidy table as a ``pyarrow.Table`` (float64 numbers, int64 point and seed, a
    boolean ``cache_hit``, strings otherwise; None is null, nan and inf stay floats), its
    columns built from their buffers (:mod:`pflbounds.running.arrow`: no pandas)."""
    from pflbounds.extras import load
    from pflbounds.running.arrow import column

    pa = load("pyarrow", "a Parquet table")

    def kind(c: str) -> str:
        if c in NUMERIC:
            return "float64"
        if c in INTEGER:
            return "int64"
        return "bool" if c == "cache_hit" else "string"

    arrays = [column(pa, [r.get(c) for r in rows], kind(c)) for c in COLUMNS]
    schema = pa.schema([(c, a.type) for c, a in zip(COLUMNS, arrays, strict=True)])
    return pa.Table.from_arrays(arrays, schema=schema)


def read_results_parquet(path: str | Path) -> list[dict[str, Any]]:
    """Read a results Parquet file back as rows (dicts with the keys :data:`COLUMNS`)."""
    from pflbounds.extras import load

    pq = load("pyarrow.parquet", "reading a Parquet file")

    table = pq.read_table(path)
    return [{c: r.get(c) for c in COLUMNS} for r in table.to_pylist()]


def parquet_available() -> bool:
    """Whether ``results.parquet`` is written (pyarrow, the ``parquet`` extra, installed)."""
    from pflbounds.extras import available

    return available("parquet")


def write_results(outcomes: Sequence[Outcome], folder: str | Path,
                  provenance: Provenance | None = None,
                  skipped: Mapping[str, str] | None = None) -> dict[str, Path]:
    """Write the result files into an existing (empty) ``folder``, each fsynced by
    :func:`pflbounds.running.atomic.replace_folder`: ``results.parquet`` only when pyarrow is
    installed. ``skipped``: check id -> why it did not run, kept in ``outcomes.json``.
    Returns the paths by name."""
    folder = Path(folder)
    rows = results_rows(outcomes, provenance)
    doc: dict[str, Any] = {"format": "pflbounds.outcomes/1",
                           "outcomes": [o.to_dict() for o in outcomes]}
    if skipped:
        doc["skipped"] = [{"check_id": k, "reason": v} for k, v in skipped.items()]
    paths = {"outcomes": folder / OUTCOMES_FILE, "csv": folder / CSV_FILE,
             "table": folder / TABLE_FILE, "parquet": folder / PARQUET_FILE}
    write_new_file(paths["outcomes"],
                   (json.dumps(doc, indent=1, allow_nan=False) + "\n").encode("utf-8"))
    write_new_file(paths["csv"], rows_to_csv(rows).encode("utf-8"))
    write_new_file(paths["table"],
                   (json.dumps(to_jsonable(rows), allow_nan=False) + "\n").encode("utf-8"))
    if not parquet_available():
        del paths["parquet"]
        return paths
    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(arrow_table(rows), buf)
    write_new_file(paths["parquet"], buf.getvalue())
    return paths


def check_results_folder(out_dir: str | Path, *, parents: bool = True) -> Path:
    """Check, before a run, that ``out_dir`` can receive results (:func:`save_outcomes`):
    :class:`~pflbounds.running.atomic.OutputError` naming the problem."""
    return check_folder(out_dir, RESULT_FILES, parents=parents, carry=report_files(out_dir))


def save_outcomes(outcomes: Sequence[Outcome], out_dir: str | Path,
                  provenance: Provenance | None = None, *,
                  parents: bool = True,
                  skipped: Mapping[str, str] | None = None) -> dict[str, Path]:
    """Write ``outcomes.json``, ``results.csv``, ``results.json`` and ``results.parquet`` (the
    tidy table; only with pyarrow) into ``out_dir`` as one set: all change together or none
    does (see
    :func:`pflbounds.running.atomic.replace_folder`). ``out_dir`` must be new or hold only
    result files (else :class:`~pflbounds.running.atomic.OutputError`, a ``ValueError``);
    missing parents are created when ``parents`` is True. Returns the paths by name."""
    out = Path(out_dir)
    replace_folder(out, lambda tmp: write_results(outcomes, tmp, provenance, skipped),
                   RESULT_FILES, parents=parents, carry=report_files(out))
    paths = {"outcomes": out / OUTCOMES_FILE, "csv": out / CSV_FILE, "table": out / TABLE_FILE,
             "parquet": out / PARQUET_FILE}
    if not parquet_available():
        del paths["parquet"]
    return paths


MAX_OUTCOMES_BYTES = 2 * 10**9
"""The largest ``outcomes.json`` read (the full suites write a few MB)."""
MAX_DEPTH = 64
"""The deepest nesting of ``outcomes.json`` read (the files written nest 8 levels deep)."""
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "check_id": (str,), "kind": (str,), "verdict": (str,), "expected": (str,),
    "margin": (int, float, str, type(None)), "replicas": (int,), "seed": (int,),
    "config": (dict,), "config_hash": (str,), "evidence": (list,), "detail": (str,),
    "elapsed": (int, float, str), "version": (str,), "error": (str, type(None)),
    "title": (str,), "fits": (list,), "timestamp": (str,),
}
_REQUIRED = ("check_id", "kind", "verdict", "expected")


class ResultsError(ValueError):
    """An ``outcomes.json`` that cannot be read back: truncated, not JSON, too large or too
    deep, or not written by :func:`save_outcomes` (the message names the file, and the
    outcome and field at fault)."""


def _depth(doc: Any) -> int:
    """The nesting depth of a JSON value (iterative: a deep value cannot exhaust the stack)."""
    deepest, stack = 0, [(doc, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d)
            if d > MAX_DEPTH:
                return d
            stack.extend((u, d + 1) for u in v if isinstance(u, (list, dict)))
    return deepest


def _outcome(p: Path, n: int, d: Any) -> Outcome:
    """Outcome ``n`` (from 1) of the file ``p``, its fields checked first."""
    where = f"{p}: outcome {n}"
    if not isinstance(d, dict):
        raise ResultsError(f"{where} is {json.dumps(d)[:40]}, not a record; "
                           "not a pflbounds results file")
    if isinstance(d.get("check_id"), str):
        where += f" ({d['check_id']})"
    for key in _REQUIRED:
        if key not in d:
            raise ResultsError(f"{where} has no field {key!r}; not a pflbounds results file")
    for key, types in _FIELD_TYPES.items():
        if key in d and (not isinstance(d[key], types) or (
                isinstance(d[key], bool) and bool not in types)):
            want = " or ".join("null" if t is type(None) else
                               {"str": "a string", "int": "an integer", "float": "a number",
                                "dict": "a record", "list": "a list"}[t.__name__]
                               for t in types)
            raise ResultsError(f"{where}: field {key!r} is {json.dumps(d[key])[:40]}; "
                               f"expected {want}")
    for key in ("evidence", "fits"):
        bad = [i for i, x in enumerate(d.get(key, []), 1) if not isinstance(x, dict)]
        if bad:
            raise ResultsError(f"{where}: {key} entry {bad[0]} is not a record")
    try:
        return Outcome.from_dict(d)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ResultsError(f"{where} has a bad value: {exc}") from None


def load_skipped(out_dir: str | Path) -> dict[str, str]:
    """The checks a saved run skipped, with why (check id -> reason); empty for a file
    written before runs recorded them, or one that cannot be read (:func:`load_outcomes`
    names that)."""
    p = Path(out_dir)
    if p.is_dir():
        p = p / OUTCOMES_FILE
    try:
        if p.stat().st_size > MAX_OUTCOMES_BYTES:
            return {}
        doc = json.loads(p.read_bytes().decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    items = doc.get("skipped", []) if isinstance(doc, dict) else []
    return {str(d["check_id"]): str(d.get("reason", "")) for d in items
            if isinstance(d, dict) and isinstance(d.get("check_id"), str)} \
        if isinstance(items, list) else {}


def load_outcomes(out_dir: str | Path) -> list[Outcome]:
    """Read the outcomes written by :func:`save_outcomes` (a directory or the JSON file).

    Raises :class:`ResultsError` (a ``ValueError``) for a file that is truncated, not UTF-8
    JSON, larger than :data:`MAX_OUTCOMES_BYTES`, nested deeper than :data:`MAX_DEPTH`, or not
    a list of outcomes with fields of the right types; ``OSError`` when it cannot be read."""
    p = Path(out_dir)
    if p.is_dir():
        p = p / OUTCOMES_FILE
    size = p.stat().st_size
    if size > MAX_OUTCOMES_BYTES:
        raise ResultsError(f"{p} is {size / 1e9:.1f} GB, larger than the "
                           f"{MAX_OUTCOMES_BYTES / 1e9:.0f} GB a results file may be")
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ResultsError(f"{p} is not text (not UTF-8); not a pflbounds results file") \
            from None
    try:
        doc = json.loads(text)
    except RecursionError:
        raise ResultsError(f"{p} nests deeper than {MAX_DEPTH} levels; not a pflbounds "
                           "results file") from None
    except ValueError as exc:
        raise ResultsError(f"{p} is truncated or not valid JSON ({exc})") from None
    if _depth(doc) > MAX_DEPTH:
        raise ResultsError(f"{p} nests deeper than {MAX_DEPTH} levels; not a pflbounds "
                           "results file")
    items = doc.get("outcomes") if isinstance(doc, dict) else doc
    if not isinstance(items, list):
        raise ResultsError(f"{p} is not a pflbounds results file (expected {{\"format\": "
                           "\"pflbounds.outcomes/1\", \"outcomes\": [...]}})")
    return [_outcome(p, n, d) for n, d in enumerate(items, 1)]
