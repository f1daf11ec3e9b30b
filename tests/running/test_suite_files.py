"""Suite names resolve from any folder: validation/NAME.toml here wins, then the suites shipped
with pflbounds, then suites/ of a paper package."""

from __future__ import annotations

from pathlib import Path

import pytest

import pflbounds
from pflbounds.api import suite_file
from pflbounds.cli import main
from pflbounds.running.suite import SuiteNotFound, available_suites, find_suite, load_suite
from pflbounds.symbolic import loader

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = Path(pflbounds.__file__).resolve().parent / "suites"
NAMES = {"quick", "even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024"}


def test_the_suites_ship_in_the_package_and_validation_links_to_them():
    assert {p.stem for p in SHIPPED.glob("*.toml")} == NAMES
    assert (ROOT / "validation").is_symlink()
    assert (ROOT / "validation").resolve() == SHIPPED
    assert (ROOT / "validation" / "quick.toml").is_file()


def test_from_another_folder_the_shipped_suites_resolve(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert find_suite("quick") == SHIPPED / "quick.toml"
    assert set(available_suites()) >= NAMES
    assert load_suite(find_suite("even2022")).name == "even2022"
    assert suite_file("scott2024") == SHIPPED / "scott2024.toml"


def test_a_local_validation_folder_wins(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "validation").mkdir()
    mine = tmp_path / "validation" / "quick.toml"
    mine.write_text('name = "quick"\n[[checks]]\nid = "even2022.P11"\n')
    assert find_suite("quick") == Path("validation") / "quick.toml"
    assert find_suite("even2022") == SHIPPED / "even2022.toml"
    assert [c.id for c in load_suite(find_suite("quick")).checks] == ["even2022.P11"]


def test_an_unknown_name_lists_the_suites_there_are(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SuiteNotFound, match="suite 'nope' not found; available suites: "):
        find_suite("nope")
    with pytest.raises(FileNotFoundError, match="even2022"):
        suite_file("nope")
    with pytest.raises(SuiteNotFound):
        find_suite("../quick")  # a name, not a path
    assert main(["validate", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "available suites: " in err and "quick" in err


def test_a_paper_package_outside_pflbounds_ships_its_suites(tmp_path, monkeypatch):
    pkg = tmp_path / "papers" / "mypaper"
    (pkg / "suites").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "suites" / "mine.toml").write_text('name = "mine"\n[[checks]]\nid = "x.y"\n')
    monkeypatch.setattr(loader, "paper_packages",
                        lambda **kw: ["pflbounds.papers.even2022", "mypaper"])
    monkeypatch.syspath_prepend(str(tmp_path / "papers"))
    monkeypatch.chdir(tmp_path)
    assert find_suite("mine") == pkg / "suites" / "mine.toml"
    assert "mine" in available_suites()
