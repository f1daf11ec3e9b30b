"""examples/tour.ipynb: stored without outputs, and it runs top to bottom in a real Jupyter
kernel (nbclient + ipykernel), showing a result as math and an outcome as HTML."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOUR = ROOT / "examples" / "tour.ipynb"


def test_the_committed_notebook_has_no_outputs():
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(TOUR, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)
    text = " ".join(c.source for c in nb.cells)
    for job in ("pflbounds.result(", ".eval(", ".solve(", "pflbounds.complexity(",
                "pflbounds.check(", "write_report("):
        assert job in text


def test_the_tour_runs_in_a_kernel(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    shutil.copy(TOUR, tmp_path / "tour.ipynb")
    shutil.copy(ROOT / "examples" / "b.csv", tmp_path / "b.csv")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(tmp_path / "tour.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = {c.source.splitlines()[-1]: c.outputs for c in nb.cells if c.cell_type == "code"}
    assert any("text/latex" in o.get("data", {}) for o in outputs["r"])
    html = next(o["data"]["text/html"] for o in outputs["p11"] if "text/html" in o.get("data", {}))
    assert "even2022.P11" in html and "VIOLATED" in html and "HOLDS" in html
    assert "(True, True)" in str(outputs["p1.verdict, p1.as_expected"]) or \
        "True" in str(outputs["p1.verdict, p1.as_expected"])
    assert "True" in str(outputs["pdf, pdf.stat().st_size > 0"])
    assert (tmp_path / "reports" / "tour.pdf").read_bytes()[:5] == b"%PDF-"
    errors = [o for outs in outputs.values() for o in outs if o.get("output_type") == "error"]
    assert errors == []
