"""Papers that defer their results: eval imports only the module of its result, every other
command the whole paper, and neither the results nor the catalog's order depend on which
came first. The per-result index is generated from a paper's manifest
(:func:`pflbounds.symbolic.loader.result_modules`); the papers not converted to the template
yet still type it (``RESULT_MODULES``) until they are."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pflbounds.symbolic import catalog

DEFERRING = ("even2022", "hanzely2023", "philippenko2025", "scott2024")
HERE = Path(__file__).resolve().parent


def _index(paper: str) -> dict[str, str]:
    import importlib

    from pflbounds.symbolic import loader

    importlib.import_module(f"pflbounds.papers.{paper}")
    return loader.result_modules(f"pflbounds.papers.{paper}")


@pytest.mark.parametrize("paper", DEFERRING)
def test_every_result_is_indexed_with_the_module_that_declares_it(paper):
    found = {r.id.split(".", 1)[1]: Path(r.extra["defined_at"].split(":")[0]).with_suffix("")
             for r in catalog.results(paper)}
    index = _index(paper)
    assert sorted(found) == sorted(index)
    assert {k: f for k, f in found.items()
            if f.parts[-len(index[k].split(".")):] != tuple(index[k].split("."))} == {}
    # the catalog lists them in the index's order
    assert [r.id.split(".", 1)[1] for r in catalog.results(paper)] == list(_index(paper))


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
@pytest.mark.parametrize("paper", DEFERRING)
def test_a_module_built_alone_gives_the_same_results_as_a_full_load(paper):
    """Each module of the index, imported alone into a fresh process, builds every result
    the index gives it, each equal (repr, addresses aside) to the same result after a full
    load: no result needs another module to be complete, and no later module changes one."""
    out = subprocess.run([sys.executable, str(HERE / "lazy_results_probe.py"), paper],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    got = json.loads(out)
    assert sorted(got["partial"]) == sorted(got["full"]) == sorted(
        f"{paper}.{k}" for k in _index(paper))
    assert [k for k in got["full"] if got["partial"][k] != got["full"][k]] == []


def _run(code: str, cwd: Path) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=cwd, check=True).stdout
    return out.strip().splitlines()


LISTING = ("from pflbounds.symbolic import catalog; "
           "print([r.id for r in catalog.results()]); print(list(catalog.papers())); "
           "print([a.id for a in catalog.assumptions()])")


def _eval(args: list[str], *, full_load: bool = False) -> str:
    """Code that runs ``pflbounds ARGS`` (after a full load of every paper with
    ``full_load``) and prints its output as one JSON line."""
    return ("import io, json, sys, contextlib; from pflbounds.cli import main; "
            + ("from pflbounds.symbolic.loader import load_papers; load_papers(); "
               if full_load else "")
            + "buf = io.StringIO()\n"
            f"with contextlib.redirect_stdout(buf): rc = main({args!r})\n"
            "print(json.dumps(buf.getvalue()))\n")


def _eval_then_list(paper: str, args: list[str], cwd: Path) -> list[str]:
    code = (_eval(args) + "mods = sorted(m.rsplit('.', 1)[1] for m in sys.modules "
            f"if m.startswith('pflbounds.papers.{paper}.')); print(rc, mods); " + LISTING)
    return _run(code, cwd)


def test_eval_builds_only_the_module_of_its_result_and_listing_afterwards_is_unchanged(tmp_path):
    after_eval = _eval_then_list("even2022", [
        "eval", "even2022.theorem2", "--form", "explicit", "K=20", "eta=0.1", "mu=1", "L=2",
        "sigma2=0.5", "Delta0=1", "V=0.4", "B=0.05"], tmp_path)
    assert json.loads(after_eval[0]) == "even2022.theorem2 [explicit] = 0.166577\n"
    assert after_eval[1] == "0 ['afo', 'errata', 'inputs', 'paper', 'symbols', 'theory']"
    fresh = _run(LISTING, tmp_path)
    assert after_eval[2:] == fresh
    assert "'even2022.theorem2'" in fresh[0] and "'even2022.lemma5'" in fresh[0]


def test_a_hanzely2023_eval_builds_one_module_and_gives_the_full_load_value(tmp_path):
    args = ["eval", "hanzely2023.theorem7", "--form", "printed", "Lw=4", "Lb=1", "mu=0.1",
            "eps=1e-6", "Delta0=1"]
    after_eval = _eval_then_list("hanzely2023", args, tmp_path)
    full = _run(_eval(args, full_load=True), tmp_path)
    assert json.loads(after_eval[0]).startswith("hanzely2023.theorem7 [printed] = iterations: ")
    assert full == after_eval[:1]
    assert "'acd'" in after_eval[1] and "'lsgd'" not in after_eval[1] \
        and "'objectives'" not in after_eval[1] and "'checks'" not in after_eval[1]
    assert after_eval[2:] == _run(LISTING, tmp_path)
