"""The results table's Arrow columns built from their buffers (pflbounds.running.arrow) give
the Parquet file that pyarrow.array gives, byte for byte, and writing results imports no
pandas."""

from __future__ import annotations

import io
import math
import subprocess
import sys

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from pflbounds.running.results import COLUMNS, INTEGER, NUMERIC, arrow_table  # noqa: E402

ROWS = [
    {"check_id": "even2022.P1", "kind": "bound_holds", "point": 0,
     "params": '{"eta":0.1,"name":"é ü ∑"}', "entry": "", "k": 1.0,
     "measured": float("nan"), "lo": float("inf"), "hi": -float("inf"), "bound": None,
     "bound_printed": 2, "bound_corrected": 1e-300, "verdict": "HOLDS", "expected": "HOLDS",
     "version": "0.1.0", "seed": 2022, "config_hash": "ab" * 32, "time": "2026-11-27T12:00",
     "cache_hit": True, "compute_s": 0.5},
    dict.fromkeys(COLUMNS),
    {"check_id": "x", "kind": "", "point": -3, "cache_hit": False, "seed": 2**62, "k": -0.0},
]


def _pyarrow_array_table(rows):
    """The table as pyarrow.array builds it (the construction before the buffers)."""
    def kind(c):
        if c in NUMERIC:
            return pa.float64()
        if c in INTEGER:
            return pa.int64()
        return pa.bool_() if c == "cache_hit" else pa.string()

    schema = pa.schema([(c, kind(c)) for c in COLUMNS])
    return pa.table({c: pa.array([r.get(c) for r in rows], type=schema.field(c).type)
                     for c in COLUMNS}, schema=schema)


def _parquet(table) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("rows", [ROWS, ROWS[:1], ROWS[1:2], [], ROWS * 50])
def test_the_parquet_file_is_the_one_pyarrow_array_gives(rows):
    new, old = arrow_table(rows), _pyarrow_array_table(rows)
    assert new.schema == old.schema and new.num_rows == len(rows)
    assert _parquet(new) == _parquet(old)
    got, want = new.to_pylist(), old.to_pylist()
    assert all(_same(g[c], w[c]) for g, w in zip(got, want, strict=True) for c in COLUMNS)


@pytest.mark.parametrize(("bad", "error"), [({"check_id": 3}, TypeError),
                                            ({"cache_hit": "yes"}, ValueError),
                                            ({"measured": "x"}, ValueError)])
def test_a_value_of_the_wrong_type_is_refused_as_pyarrow_refuses_it(bad, error):
    with pytest.raises(error):
        arrow_table([bad])
    with pytest.raises(error):
        _pyarrow_array_table([bad])


def test_writing_results_imports_no_pandas(tmp_path):
    code = ("import sys\nfrom pflbounds.running.results import write_results\n"
            f"paths = write_results([], {str(tmp_path)!r})\n"
            "print(sorted(paths), 'pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300).stdout.strip()
    assert out == "['csv', 'outcomes', 'parquet', 'table'] False"
