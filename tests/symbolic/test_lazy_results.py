"""A paper that defers its results: eval imports only the module of its result, every other
command the whole paper, and the catalog's order does not depend on which came first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pflbounds.papers.even2022 as even2022
from pflbounds.symbolic import catalog


def test_every_even2022_result_is_indexed_with_the_module_that_declares_it():
    found = {r.id.split(".", 1)[1]: Path(r.extra["defined_at"].split(":")[0]).stem
             for r in catalog.results("even2022")}
    assert found == even2022.RESULT_MODULES
    # the catalog lists them in the index's order
    assert [r.id.split(".", 1)[1] for r in catalog.results("even2022")] == \
        list(even2022.RESULT_MODULES)


def _run(code: str, cwd: Path) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=cwd, check=True).stdout
    return out.strip().splitlines()


def test_eval_builds_only_the_module_of_its_result_and_listing_afterwards_is_unchanged(tmp_path):
    code = (
        "import sys; from pflbounds.cli import main; "
        "rc = main(['eval', 'even2022.theorem2', '--form', 'explicit', 'K=20', 'eta=0.1', "
        "'mu=1', 'L=2', 'sigma2=0.5', 'Delta0=1', 'V=0.4', 'B=0.05']); "
        "mods = sorted(m.rsplit('.', 1)[1] for m in sys.modules "
        "if m.startswith('pflbounds.papers.even2022.')); "
        "print(rc, mods); "
        "from pflbounds.symbolic import catalog; "
        "print([r.id for r in catalog.results()]); print(list(catalog.papers())); "
        "print([a.id for a in catalog.assumptions()])"
    )
    after_eval = _run(code, tmp_path)
    assert after_eval[0] == "even2022.theorem2 [explicit] = 0.166577"
    assert after_eval[1] == "0 ['afo', 'errata', 'inputs', 'paper', 'symbols']"
    fresh = _run("from pflbounds.symbolic import catalog; "
                 "print([r.id for r in catalog.results()]); print(list(catalog.papers())); "
                 "print([a.id for a in catalog.assumptions()])", tmp_path)
    assert after_eval[2:] == fresh
    assert "'even2022.theorem2'" in fresh[0] and "'even2022.lemma5'" in fresh[0]

