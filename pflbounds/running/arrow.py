"""Arrow columns built from their buffers, without pandas.

``pyarrow.array`` on a Python list first asks whether the list is a pandas object, and that
question imports pandas: a fifth of a second, which was a quarter of what a rerun of a suite
from its cache cost (``results.parquet`` is written on every run). The columns of the results
table are plain (float64, int64, boolean and UTF-8 strings, each with nulls), so they are
built here from their validity bitmap, values and offsets, Arrow's columnar layout; the
tables are equal to those ``pyarrow.array`` builds, and so are the Parquet files
(``tests/running/test_arrow_columns.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

KINDS = ("float64", "int64", "bool", "string")


def _bits(flags: Sequence[bool]) -> bytes:
    return np.packbits(np.asarray(flags, dtype=bool), bitorder="little").tobytes()


def column(pa: Any, values: Sequence[Any], kind: str) -> Any:
    """The ``pyarrow.Array`` of ``values`` (None is null) of one of :data:`KINDS`; a value of
    another type is refused as ``pyarrow.array`` refuses it (a non-string in a string column
    is a ``TypeError``, a value that is no number or boolean a ``ValueError``)."""
    n = len(values)
    valid = [v is not None for v in values]
    nulls = n - sum(valid)
    bitmap = pa.py_buffer(_bits(valid)) if nulls else None
    if kind == "float64":
        data = np.array([0.0 if v is None else float(v) for v in values], dtype=np.float64)
        return pa.Array.from_buffers(pa.float64(), n, [bitmap, pa.py_buffer(data.tobytes())],
                                     null_count=nulls)
    if kind == "int64":
        data = np.array([0 if v is None else int(v) for v in values], dtype=np.int64)
        return pa.Array.from_buffers(pa.int64(), n, [bitmap, pa.py_buffer(data.tobytes())],
                                     null_count=nulls)
    if kind == "bool":
        if any(v is not None and not isinstance(v, (bool, np.bool_)) for v in values):
            raise ValueError("a boolean column holds a value that is not a boolean")
        return pa.Array.from_buffers(pa.bool_(), n, [bitmap, pa.py_buffer(
            _bits([bool(v) for v in values]))], null_count=nulls)
    if kind == "string":
        if any(v is not None and not isinstance(v, str) for v in values):
            raise TypeError("a string column holds a value that is not a string")
        raw = [b"" if v is None else v.encode("utf-8") for v in values]
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum([len(b) for b in raw], out=offsets[1:])
        if offsets[-1] >= 2**31:
            raise ValueError("a string column of 2 GB or more")
        return pa.Array.from_buffers(pa.string(), n, [
            bitmap, pa.py_buffer(offsets.astype(np.int32).tobytes()),
            pa.py_buffer(b"".join(raw))], null_count=nulls)
    raise ValueError(f"unknown column kind {kind!r}; expected one of {KINDS}")
