"""``pflbounds show`` names where a result's formula, method, checks and errata live."""

from __future__ import annotations

import json
from pathlib import Path

from pflbounds.cli import main
from pflbounds.locate import locate


def _line_of(where: str) -> tuple[Path, int]:
    path, line = where.rsplit(":", 1)
    return Path(path), int(line)


def test_even2022_theorem3_locations_point_at_the_code():
    w = locate("even2022.theorem3")
    path, line = _line_of(w["formula"])
    assert path.name == "afa.py"
    assert path.read_text().splitlines()[line - 1].startswith("THEOREM3 = result(")
    names = [a["name"] for a in w["algorithms"]]
    assert "pflbounds.algorithms.collaborative.run_afa" in names
    p, ln = _line_of(w["algorithms"][0]["at"])
    assert p.read_text().splitlines()[ln - 1].startswith("def run_afa(")
    ids = {c["id"] for c in w["checks"]}
    assert {"even2022.P7", "even2022.P8", "even2022.P11"} <= ids  # P11 via erratum 13
    e13 = next(e for e in w["errata"] if e["id"] == "even2022.erratum13")
    p, ln = _line_of(e13["at"])
    assert "Erratum(" in p.read_text().splitlines()[ln - 1]


def test_show_prints_where_for_a_test_paper(extra_paper, capsys):
    extra_paper("toypaper")
    assert main(["show", "toypaper.theorem1", "--json"]) == 0
    where = json.loads(capsys.readouterr().out)["where"]
    path, line = _line_of(where["formula"])
    assert path.parts[-3:] == ("toypaper", "theory", "sgd.py")
    assert "THEOREM1 = result(" in path.read_text().splitlines()[line - 1]
    assert [c["id"] for c in where["checks"]] == ["toypaper.P1"]
    assert where["algorithms"][0]["name"] == "toypaper.checks.common.run_minibatch_sgd"
    assert where["algorithms"][0]["at"].endswith(
        f"common.py:{_def_line('run_minibatch_sgd')}")
    assert main(["show", "toypaper.theorem1"]) == 0
    out = capsys.readouterr().out
    assert "where:" in out and "check     toypaper.P1 [bound_holds, expects HOLDS]" in out


def _def_line(name: str) -> int:
    src = (Path(__file__).parent / "fixtures" / "papers" / "toypaper" / "checks" / "common.py"
           ).read_text()
    return next(i for i, line in enumerate(src.splitlines(), 1)
                if line.startswith(f"def {name}("))
