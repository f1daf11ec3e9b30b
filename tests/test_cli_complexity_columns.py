"""``pflbounds complexity`` prints the count columns a paper's table names.

A paper's comparison may carry ``columns`` ([key, header] pairs: which counts its rows hold),
``lines`` (a summary printed under the question) and ``best`` (the method with the fewest of
each count); without ``columns`` the table keeps the oracle-calls and gradients columns.
"""

from __future__ import annotations

import json

import pytest

from pflbounds.cli import main
from pflbounds.symbolic import catalog


def _table(values, matrices, *, objective=None, algorithm=None):
    rows = [
        {"method": "fast", "result": "toycols.r", "form": "printed", "rounds": 12.0,
         "grad_x": 3.5e6, "hidden_constants": []},
        {"method": "slow", "result": "toycols.r", "form": "printed", "rounds": 40.0,
         "grad_x": None, "hidden_constants": ["O(.)"]},
        {"method": "broken", "result": "toycols.r", "form": "printed", "error": "no such case"},
    ]
    return {"question": f"counts for {objective}", "rows": rows,
            "columns": [["rounds", "comm rounds"], ["grad_x", "gradients in x"]],
            "lines": ["objective: toy (1), mu = 0.5"], "best": {"rounds": "fast"}}


@pytest.fixture
def toycols():
    catalog.register_complexity("toycols", _table)
    yield
    catalog.forget_paper("toycols")


def test_named_columns_are_printed(toycols, capsys):
    assert main(["complexity", "--paper", "toycols", "--objective", "o1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "toycols: counts for o1"
    assert out[1] == "  objective: toy (1), mu = 0.5"
    header = out[2]
    assert "comm rounds" in header and "gradients in x" in header
    assert "oracle calls" not in header
    fast = next(line for line in out if line.strip().startswith("fast"))
    assert fast.split()[1:3] == ["12", "3.5e+06"]
    slow = next(line for line in out if line.strip().startswith("slow"))
    assert slow.split()[1:3] == ["40", "-"] and slow.endswith("(hidden constants)")
    broken = next(line for line in out if line.strip().startswith("broken"))
    assert broken.split()[1:3] == ["-", "-"] and broken.endswith("no such case")
    assert "  fewest comm rounds: fast" in out


def test_json_keeps_the_columns(toycols, capsys):
    assert main(["complexity", "--paper", "toycols", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["columns"] == [["rounds", "comm rounds"], ["grad_x", "gradients in x"]]
    assert doc["paper"] == "toycols" and doc["rows"][0]["grad_x"] == 3.5e6
