"""Checks that need a missing extra: a suite skips them with the reason, a single run refuses
them before any work; results files without pyarrow; progress lines within a long check."""

from __future__ import annotations

import dataclasses
import io
import json

import pytest

from pflbounds import extras
from pflbounds.checking import registry
from pflbounds.running import executor, progress, results
from pflbounds.running.executor import RunSpec, run_check, sweep
from pflbounds.running.progress import Progress
from pflbounds.running.suite import parse_suite, sweep_suite


@pytest.fixture
def jax_missing(monkeypatch):
    real = extras.available
    monkeypatch.setattr(extras, "available", lambda e: e != "jax" and real(e))


@pytest.fixture
def needs_jax(toys):
    """toy.exact_true as a check that needs JAX (registered in its place)."""
    c = dataclasses.replace(toys["toy.exact_true"], requires=("jax",))
    registry.register(c, replace=True)
    yield c
    registry.register(toys["toy.exact_true"], replace=True)


def test_a_suite_skips_a_check_whose_extra_is_missing(needs_jax, toys, jax_missing):
    suite = parse_suite({"name": "s", "checks": [{"id": "toy.exact_true"},
                                                 {"id": "toy.mc_true"}]})
    run = sweep_suite(suite, progress=False)
    assert [o.check_id for o in run.outcomes] == ["toy.mc_true"]
    assert run.skipped == {"toy.exact_true": 'check toy.exact_true needs JAX (networks and '
                                             'compiled loops), which is not installed: pip '
                                             'install "pflbounds[jax]"'}
    assert run.stats.tasks == len(toys["toy.mc_true"].grid) * 4  # none of the skipped one's


def test_a_single_run_refuses_it_before_any_work(needs_jax, jax_missing, monkeypatch):
    monkeypatch.setattr(executor, "execute", lambda *a, **k: pytest.fail("ran"))
    with pytest.raises(extras.MissingExtra, match=r'^check toy.exact_true needs JAX.*'
                                                  r'pip install "pflbounds\[jax\]"$'):
        run_check(needs_jax, progress=False, cache=None)
    with pytest.raises(extras.MissingExtra):
        sweep([RunSpec(needs_jax)], progress=False)


def test_with_the_extra_the_check_runs(needs_jax):
    assert run_check(needs_jax, progress=False, cache=None).as_expected


def test_without_pyarrow_the_results_have_no_parquet_file(toys, tmp_path, monkeypatch):
    monkeypatch.setattr(results, "parquet_available", lambda: False)
    out = run_check(toys["toy.exact_true"], progress=False, cache=None)
    paths = results.save_outcomes([out], tmp_path / "r", skipped={"toy.x": "needs JAX"})
    assert "parquet" not in paths
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == [
        "outcomes.json", "results.csv", "results.json"]
    assert results.load_skipped(tmp_path / "r") == {"toy.x": "needs JAX"}
    assert [o.check_id for o in results.load_outcomes(tmp_path / "r")] == ["toy.exact_true"]
    # with pyarrow again, saving the same folder adds the Parquet file
    monkeypatch.setattr(results, "parquet_available", lambda: True)
    assert "parquet" in results.save_outcomes([out], tmp_path / "r")
    assert (tmp_path / "r" / "results.parquet").is_file()
    assert results.load_skipped(tmp_path / "r") == {}


def test_load_skipped_of_an_older_or_damaged_file_is_empty(tmp_path):
    (tmp_path / "outcomes.json").write_text(json.dumps([]))
    assert results.load_skipped(tmp_path) == {}
    (tmp_path / "outcomes.json").write_text("{not json")
    assert results.load_skipped(tmp_path) == {}


def test_a_long_check_prints_a_line_while_it_runs(toys, monkeypatch):
    from pflbounds.running import plan

    tasks = plan(toys["toy.mc_true"])
    monkeypatch.setattr(progress, "LINE_EVERY", 0.0)
    out = io.StringIO()
    p = Progress("lines", out)
    p.start(tasks, [])
    for t in tasks:
        p.update(t)
    lines = out.getvalue().splitlines()
    n = len(tasks)
    assert lines[0].startswith(f"pflbounds: toy.mc_true 1/{n} tasks; 1/{n} tasks, 0 cached")
    assert len(lines) == n and lines[-1].startswith(f"pflbounds: toy.mc_true done ({n} tasks")
