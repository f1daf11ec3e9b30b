"""Tiny run of benchmarks/bench_collaborative.py; prints figures, asserts no timings."""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_collaborative.py"


@pytest.mark.benchmark
def test_benchmark_tiny(capsys):
    spec = importlib.util.spec_from_file_location("bench_collaborative", BENCH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    rows = mod.run_benchmark(Ns=(20, 200), d=5, R=4, min_time=0.03, loop_budget=30,
                             sparse_from=200)
    table = mod.format_table(rows, d=5, R=4)
    with capsys.disabled():
        print("\n" + table)
    assert len(rows) == 4 and {r.method for r in rows} == {"AFA", "AFO"}
    assert all(r.vectorised > 0 and r.loop > 0 and r.ceiling > 0 for r in rows)
    assert "sparse" in rows[-1].structure
