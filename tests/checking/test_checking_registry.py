"""The registry: lookups with suggestions, globs, lazy paper discovery, worker modules."""

from __future__ import annotations

import sys
import textwrap

import pytest

from pflbounds.checking import (
    Check,
    CheckKind,
    UnknownCheckError,
    Verdict,
    all_checks,
    get,
    load_papers,
    match,
    module_of,
    register,
    unregister,
)


def _sim(params, n, ss):  # pragma: no cover
    return {}


def test_get_and_close_matches(toys):
    assert get("toy.mc_true") is toys["toy.mc_true"]
    with pytest.raises(KeyError) as info:
        get("toy.mc_tru")
    assert isinstance(info.value, UnknownCheckError)
    msg = str(info.value)
    assert "unknown check id 'toy.mc_tru'" in msg and "'toy.mc_true'" in msg


def test_unknown_paper_message_counts_checks(toys):
    with pytest.raises(KeyError, match="checks are registered"):
        get("zzzz.qqqq")


def test_match_and_all_checks(toys):
    ids = [c.id for c in match("toy.mc_*rate*")]
    assert ids == ["toy.mc_rate", "toy.mc_rate_wrong"]
    mine = all_checks(paper="toy")
    assert len(mine) == len(toys)
    assert [c.id for c in mine] == sorted(toys)


def test_duplicate_ids_are_refused_unless_replaced():
    def other(params, n, ss):  # pragma: no cover
        return {}

    a = Check("unit.dup", "a", CheckKind.BOUND_HOLDS, Verdict.HOLDS, _sim, ({},))
    b = Check("unit.dup", "b", CheckKind.BOUND_HOLDS, Verdict.HOLDS, other, ({},))
    register(a)
    try:
        register(a)  # the same object again: fine
        with pytest.raises(ValueError, match="already registered"):
            register(b)
        register(b, replace=True)
        assert get("unit.dup") is b
    finally:
        unregister("unit.dup")
    with pytest.raises(KeyError):
        get("unit.dup")


def test_module_of_records_the_registering_module(toys):
    assert module_of("toy.mc_true") == "toy_checks"
    c = register(Check("unit.here", "h", CheckKind.BOUND_HOLDS, Verdict.HOLDS, _sim, ({},)))
    try:
        assert module_of("unit.here") == __name__
    finally:
        unregister(c.id)


def test_get_imports_the_given_module(tmp_path, monkeypatch):
    (tmp_path / "unit_lazy_mod.py").write_text(textwrap.dedent("""
        from pflbounds.checking import Check, CheckKind, Verdict, register
        def sim(params, n, ss):
            return {}
        register(Check("unit.lazy", "l", CheckKind.BOUND_HOLDS, Verdict.HOLDS, sim, ({},)))
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert get("unit.lazy", module="unit_lazy_mod").id == "unit.lazy"
        assert module_of("unit.lazy") == "unit_lazy_mod"
    finally:
        unregister("unit.lazy")
        sys.modules.pop("unit_lazy_mod", None)


def test_real_papers_load_without_raising():
    load_papers()
    assert isinstance(all_checks(), list)
