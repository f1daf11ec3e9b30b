"""One run of benchmarks/bench_cli.py (cold start of eval and solve against import sympy);
prints the table, asserts that every command ran and was timed, never a speed."""

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_cli.py"


@pytest.mark.benchmark
def test_bench_cli_runs(capsys):
    spec = importlib.util.spec_from_file_location("bench_cli", BENCH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    rows = mod.run_benchmark(repeat=1, names=("pflbounds eval", "pflbounds solve"))
    with capsys.disabled():
        print("\n" + mod.format_table(rows))
    assert [r.name for r in rows] == ["import sympy", mod.ONE_SHOT_FLOOR, "pflbounds eval",
                                      "pflbounds solve"]
    assert all(r.wall > 0 and r.cpu > 0 for r in rows)
    assert rows[0].wall_ratio == rows[0].cpu_ratio == 1.0
    line = mod.format_one_shot(rows)
    assert line.startswith("against import sympy, one-shot") and "eval " in line, line
    table = mod.format_markdown(rows, (1.0, 1.0))
    assert table.count("\n| `") == len(rows) and "Against import sympy, one-shot" in table


@pytest.mark.benchmark
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_bench_cli_counts_instructions(capsys):
    spec = importlib.util.spec_from_file_location("bench_cli", BENCH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    rows = mod.run_instructions(names=("pflbounds --version",))
    with capsys.disabled():
        print("\n" + mod.format_instructions(rows))
    assert [n for n, _, _ in rows] == ["import sympy", "pflbounds --version"]
    assert rows[0][2] == 1.0 and rows[0][1] > rows[1][1] > 0  # --version loads no sympy
