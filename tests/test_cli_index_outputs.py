"""The papers' indexes change no output: ``list``, ``list --checks``, ``show`` and
``validate`` print the same (text and JSON, stdout and stderr) when they read the indexes as
when they load the papers (``PFLBOUNDS_NO_INDEX=1``, the path before the indexes), for every
paper; and a command served by a current index registers no check from its module (a rerun
of a suite imports none).

Each mode runs in fresh processes (tests/index_probe.py): the index mode twice, first
building the indexes in an empty task cache, then reading them.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PROBE = HERE / "index_probe.py"
PAPERS = ("even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024")


def _probe(mode: str, commands: list[list[str]], tmp: Path, cache: Path,
           cwd: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PFLBOUNDS_NO_INDEX"}
    env["PFLBOUNDS_CACHE_DIR"] = str(cache)
    if mode == "live":
        env["PFLBOUNDS_NO_INDEX"] = "1"
    spec = tmp / f"commands-{mode}.json"
    spec.write_text(json.dumps(commands))
    r = subprocess.run([sys.executable, str(PROBE), mode, str(spec)], capture_output=True,
                       text=True, env=env, cwd=cwd or tmp, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def _result_ids() -> dict[str, list[str]]:
    from pflbounds.symbolic import catalog

    return {p: [r.id for r in catalog.results(p)] for p in PAPERS}


def _listing_commands() -> list[list[str]]:
    cmds = [["list"], ["list", "--json"], ["list", "--checks"], ["list", "--checks", "--json"],
            ["list", "--paper", "nopaper"], ["list", "--checks", "--paper", "nopaper"]]
    for p in PAPERS:
        cmds += [["list", "--paper", p], ["list", "--paper", p, "--json"],
                 ["list", "--checks", "--paper", p], ["list", "--checks", "--paper", p, "--json"]]
    return cmds


def _compare(a: dict, b: dict) -> list[str]:
    """The commands whose exit status, stdout or stderr differ."""
    assert [o[0] for o in a["outputs"]] == [o[0] for o in b["outputs"]]
    return [" ".join(x[0]) for x, y in zip(a["outputs"], b["outputs"], strict=True) if x != y]


def _check_outputs(tmp_path: Path, commands: list[list[str]]) -> None:
    cache = tmp_path / "cache"
    live = _probe("live", commands, tmp_path, tmp_path / "unused")
    built = _probe("index", commands, tmp_path, cache)
    warm = _probe("index", commands, tmp_path, cache)
    assert (cache / "index").is_dir()
    assert _compare(live, built) == []
    assert _compare(live, warm) == []
    assert warm["registered_checks"] == []  # the checks came from the index
    assert all(o[1] == 0 for o in live["outputs"]
               if "nopaper" not in o[0] and "even2022.nosuch" not in o[0])


def test_list_and_show_outputs_are_unchanged_for_every_paper(tmp_path):
    """Every listing, and ``show`` of a sample of every paper's results (the first, and
    each with a method or an erratum: the parts the index supplies), text and JSON."""
    from pflbounds.symbolic import catalog

    commands = _listing_commands() + [["show", "even2022.nosuch"]]
    for ids in _result_ids().values():
        pick = [ids[0]] + [i for i in ids if catalog.get(i).errata][:2] + \
            [i for i in ids if catalog.loaded_algorithms_of(i)][:2]
        for rid in dict.fromkeys(pick):
            commands += [["show", rid], ["show", rid, "--json"]]
    _check_outputs(tmp_path, commands)


@pytest.mark.slow
def test_show_output_is_unchanged_for_every_result(tmp_path):
    commands = [[*c, *j] for ids in _result_ids().values() for rid in ids
                for c in (["show", rid],) for j in ([], ["--json"])]
    _check_outputs(tmp_path, commands)


SUITE_CHECKS = {"even2022.P1": "", "even2022.P9*": "", "even2022.P13": "replicas = 200\n",
                "erickson2025.P2": "", "hanzely2023.E_acd_beta_scale": "",
                "philippenko2025.E1": "", "scott2024.E_C1_lemmaC4": ""}
"""A small suite of cheap checks of every paper (a glob, a replica override, Monte Carlo,
exact and symbolic engines, errata)."""
TIMES = ("timestamp", "elapsed")


def _suite_text() -> str:
    from pflbounds.checking import registry

    known = {c.id for c in registry.all_checks()}
    text = 'name = "mini"\nseed = 5\ngrid = "quick"\n'
    for cid, extra in SUITE_CHECKS.items():
        if cid.endswith("*") or cid in known:  # a check another layout renamed is left out
            text += f'[[checks]]\nid = "{cid}"\n{extra}'
    return text


def _doc(out: str) -> dict:
    """A validate --json document without what changes from run to run (times, paths)."""
    doc = json.loads(out)
    for o in doc["outcomes"]:
        for k in TIMES:
            o.pop(k)
    doc.pop("out")
    doc["tasks"].pop("seconds")
    return doc


def _text(out: str) -> list[str]:
    """validate's text output without its times and results folder."""
    lines = []
    for line in out.splitlines():
        if " tasks: " in line and " computed" in line:
            line = re.sub(r" in [0-9.]+ s ", " in _ s ", line)
        lines.append(line.split("; results in ")[0])
    return lines


def _results(folder: Path) -> tuple[list, list[dict]]:
    """The outcomes and table rows of a results folder, without their times."""
    doc = json.loads((folder / "outcomes.json").read_text())
    for o in doc["outcomes"]:
        for k in TIMES:
            o.pop(k)
    with (folder / "results.csv").open(newline="") as fh:
        rows = [{k: v for k, v in r.items() if k != "time"} for r in csv.DictReader(fh)]
    return doc["outcomes"], rows


def test_validate_outputs_are_unchanged_and_a_cached_run_imports_no_check(tmp_path):
    suite = tmp_path / "mini.toml"
    suite.write_text(_suite_text())
    cache = tmp_path / "cache"

    def validate(mode: str, out: str, *extra: str) -> dict:
        cmds = [["validate", str(suite), "--cache-dir", str(cache), "--out",
                 str(tmp_path / out), *extra]]
        return _probe(mode, cmds, tmp_path, cache)

    cold = validate("live", "cold", "--json")
    assert cold["outputs"][0][1] == 0, cold["outputs"][0][3]
    n = json.loads(cold["outputs"][0][2])["tasks"]["total"]
    shutil.rmtree(cache / "index", ignore_errors=True)  # built by the index run below
    for extra in (["--json"], []):
        runs = ([validate("index", "built", *extra)] if extra else []) + [  # builds the index
            validate("index", "warm", *extra), validate("live", "live", *extra)]
        warm = runs[-2]
        got = [r["outputs"][0] for r in runs]
        assert [g[1] for g in got] == [0] * len(runs)
        assert len({g[3] for g in got}) == 1  # stderr: the progress lines
        if extra:
            docs = [_doc(g[2]) for g in got]
            assert docs[0] == docs[1] == docs[2]
            assert docs[1]["tasks"]["cached"] == n and docs[1]["tasks"]["computed"] == 0
        else:
            assert _text(got[0][2]) == _text(got[1][2])
        # a rerun with every task cached decides them from the index and the task cache:
        # no check module, no problem family imported
        assert warm["check_modules"] == [] and warm["problem_modules"] == []
        assert _results(tmp_path / "warm") == _results(tmp_path / "live")
        assert _results(tmp_path / "warm")[0] == _results(tmp_path / "cold")[0]

    # tasks left to compute: only their check's module is imported, and the outcomes are
    # those of a run that loads every paper
    gone = [p for p in (cache / "tasks").rglob("*.npz")
            if json.loads(_meta(p))["check_id"] == "even2022.P9"]
    assert gone
    for p in gone:
        p.unlink()
    part = validate("index", "part", "--json")
    doc = json.loads(part["outputs"][0][2])
    assert doc["tasks"]["computed"] == len(gone)
    assert [m for m in part["check_modules"] if not m.startswith("pflbounds.papers.even2022.")
            ] == []
    assert _results(tmp_path / "part")[0] == _results(tmp_path / "cold")[0]


def _meta(path: Path) -> str:
    import numpy as np

    with np.load(path, allow_pickle=False) as z:
        return bytes(z["__meta__"]).decode()
