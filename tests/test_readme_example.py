"""The README's "Adding a paper" example is a working paper package."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pflbounds.cli import main
from pflbounds.symbolic import catalog, loader

README = Path(__file__).parent.parent / "README.md"


def _example() -> str:
    text = README.read_text()
    section = text.split("## Adding a paper", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block, "the Adding a paper section has no python example"
    return block.group(1)


def test_the_readme_paper_example_loads_and_evaluates(tmp_path, capsys):
    code = _example()
    assert len(code.splitlines()) <= 32
    pkg = tmp_path / "mypaper"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(code)
    sys.path.insert(0, str(tmp_path))
    loader.add_paper_package("mypaper")
    try:
        assert main(["list", "--paper", "mypaper"]) == 0
        assert "mypaper.theorem1" in capsys.readouterr().out
        assert main(["eval", "mypaper.theorem1", "--form", "corrected", "eta=0.1", "mu=1",
                     "L=2", "K=10", "Delta0=1", "sigma2=1", "B=4"]) == 0
        out = capsys.readouterr().out
        assert float(out.split("=")[-1]) == pytest.approx(0.9**20 + 0.1 * 2 / 8, rel=1e-5)
        assert main(["eval", "mypaper.theorem1", "eta=1", "mu=1", "L=2", "K=10",
                     "Delta0=1", "sigma2=1", "B=4"]) == 2
        assert "eta <= 1/L" in capsys.readouterr().err
    finally:
        loader.remove_paper_package("mypaper")
        catalog.forget_paper("mypaper")
        sys.modules.pop("mypaper", None)
        loader._LOADED.discard("mypaper")
        sys.path.remove(str(tmp_path))
