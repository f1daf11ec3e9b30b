"""Suite files: parsing, globs, overrides, clear errors, running."""

from __future__ import annotations

import textwrap

import pytest

from pflbounds.checking import Verdict
from pflbounds.running import SuiteError, load_suite, run_suite


def write(tmp_path, text, name="suite.toml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def test_load_suite_with_globs_and_overrides(toys, tmp_path):
    p = write(tmp_path, """
        name = "toy"
        description = "toy checks"
        seed = 2022
        grid = "quick"

        [[checks]]
        id = "toy.mc_*"

        [[checks]]
        id = "toy.exact_true"
        grid = "full"

        [[checks]]
        id = "toy.mc_true"
        replicas = 400
    """)
    s = load_suite(p)
    assert (s.name, s.description, s.seed, s.grid) == ("toy", "toy checks", 2022, "quick")
    ids = [e.check.id for e in s.entries]
    assert ids[0].startswith("toy.mc_") and "toy.exact_true" in ids
    assert len(ids) == len(set(ids)) == len([i for i in toys if i.startswith("toy.mc_")]) + 1
    entry = {e.check.id: e for e in s.entries}
    assert entry["toy.mc_true"].replicas == 400 and entry["toy.mc_true"].quick
    assert entry["toy.mc_rate"].replicas is None
    assert not entry["toy.exact_true"].quick
    assert ids.index("toy.mc_true") < ids.index("toy.exact_true")  # first position kept


def test_unknown_id_names_the_id_and_the_file(toys, tmp_path):
    p = write(tmp_path, """
        name = "bad"
        [[checks]]
        id = "toy.mc_tru"
    """, name="bad_suite.toml")
    with pytest.raises(SuiteError) as info:
        load_suite(p)
    msg = str(info.value)
    assert "bad_suite.toml" in msg and "'toy.mc_tru'" in msg and "checks entry 1" in msg
    assert "did you mean 'toy.mc_true'" in msg


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[checks]]\nid = "nothing.*"\n', "matches no registered check"),
        ('colour = "red"\n[[checks]]\nid = "toy.mc_true"\n', "unknown keys ['colour']"),
        ('[[checks]]\nid = "toy.mc_true"\nreplicas = 0\n', "replicas must be"),
        ('grid = "medium"\n[[checks]]\nid = "toy.mc_true"\n', "grid must be one of"),
        ('seed = -1\n[[checks]]\nid = "toy.mc_true"\n', "seed must be"),
        ('name = "x"\n', "at least one [[checks]]"),
        ('[[checks]\n', "invalid TOML"),
    ],
)
def test_suite_errors(toys, tmp_path, text, message):
    p = write(tmp_path, text)
    with pytest.raises(SuiteError) as info:
        load_suite(p)
    assert message in str(info.value) and "suite.toml" in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(SuiteError, match="not found"):
        load_suite(tmp_path / "nope.toml")


def test_run_suite(toys, tmp_path):
    p = write(tmp_path, """
        name = "toy"
        seed = 4
        [[checks]]
        id = "toy.exact_*"
        [[checks]]
        id = "toy.mc_true"
        replicas = 600
        [[checks]]
        id = "toy.boom"
    """)
    outcomes = run_suite(load_suite(p), jobs=1, progress=False)
    assert all(o.as_expected for o in outcomes), [(o.check_id, o.detail) for o in outcomes]
    mc = next(o for o in outcomes if o.check_id == "toy.mc_true")
    assert mc.replicas == 600 and mc.seed == 4
    assert next(o for o in outcomes if o.check_id == "toy.boom").verdict is Verdict.ERROR
