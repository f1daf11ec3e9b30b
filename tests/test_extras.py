"""Optional dependencies: the one line naming the extra, lazy modules, checks that declare
the extras they need, cost classes and the verdict summary line."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from pflbounds import extras
from pflbounds.checking import Check, CheckKind, Verdict, requiring
from pflbounds.checking.cost import MC_CHEAP, MC_LONG, cost_of
from pflbounds.checking.outcome import Outcome
from pflbounds.checking.vocabulary import summary_line


def _sim(p, R, seed):  # pragma: no cover - never run here
    return {"mean": np.zeros(1)}


def _check(**kw) -> Check:
    base = dict(engine="mc", replicas=10)
    return Check("toy.extra", "toy", CheckKind.BOUND_HOLDS, Verdict.HOLDS, _sim,
                 grid=({"a": 1},), **{**base, **kw})


@pytest.fixture
def no_jax(monkeypatch):
    """JAX as if it were not installed (as ``sys.modules[name] = None`` makes it)."""
    for m in [m for m in sys.modules if m == "jax" or m.startswith("jax.")]:
        monkeypatch.delitem(sys.modules, m)
    monkeypatch.setitem(sys.modules, "jax", None)


def test_missing_extra_names_the_pip_install_in_one_line():
    e = extras.MissingExtra("jax", "check scott2024.P1")
    assert str(e) == ('check scott2024.P1 needs JAX (networks and compiled loops), which is '
                      'not installed: pip install "pflbounds[jax]"')
    assert isinstance(e, ImportError) and "\n" not in str(e)


def test_every_extra_is_declared_in_the_package_metadata():
    import tomllib
    from pathlib import Path

    meta = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    optional = meta["project"]["optional-dependencies"]
    assert set(extras.EXTRAS) | {"all", "docs", "dev"} == set(optional)
    assert optional["all"] == [f"pflbounds[{','.join(extras.EXTRAS)}]"]
    assert "pflbounds[all,docs]" in optional["dev"]
    core = " ".join(meta["project"]["dependencies"]).lower()
    for heavy in ("jax", "pyarrow", "pepit", "dask", "scikit-learn", "pandas"):
        assert heavy not in core


def test_available_and_missing_follow_what_can_be_imported(no_jax):
    assert extras.missing_modules("jax") == ["jax"]
    assert not extras.available("jax") and extras.available("parquet")
    assert extras.missing(("parquet", "jax")) == ["jax"]
    with pytest.raises(extras.MissingExtra, match=r'pip install "pflbounds\[jax\]"'):
        extras.require("jax", "this")
    with pytest.raises(ValueError, match="unknown extra 'torch'"):
        extras.missing_modules("torch")


def test_load_maps_a_missing_module_to_its_extra(no_jax):
    with pytest.raises(extras.MissingExtra, match=r"^training needs JAX"):
        extras.load("jax.numpy", "training")
    with pytest.raises(extras.MissingExtra, match=r"pflbounds\[jax\]"):
        extras.load("pflbounds.algorithms.pefll")
    assert extras.load("numpy") is np
    with pytest.raises(ModuleNotFoundError):  # not an extra's module: an ordinary error
        extras.load("no_such_module_here")


def test_a_lazy_module_imports_on_first_use_only(no_jax):
    jnp = extras.lazy_module("jax.numpy", "a network")
    assert "not loaded yet" in repr(jnp)  # creating it imported nothing
    with pytest.raises(extras.MissingExtra, match="^a network needs JAX"):
        jnp.zeros(3)
    lazy_np = extras.lazy_module("numpy.linalg")
    assert lazy_np.norm(np.array([3.0, 4.0])) == 5.0
    assert "(loaded)" in repr(lazy_np)


def test_lazy_jit_compiles_on_the_first_call():
    pytest.importorskip("jax")

    @extras.lazy_jit(static_argnums=1)
    def scale(x, k):
        return x * k

    assert scale.__name__ == "scale"
    assert float(scale(np.float64(2.0), 3)) == 6.0
    assert float(scale(np.float64(1.5), 2)) == 3.0


def test_lazy_jit_without_jax_names_the_extra(no_jax):
    @extras.lazy_jit()
    def f(x):
        return x

    with pytest.raises(extras.MissingExtra, match=r"test_extras.*needs JAX"):
        f(1.0)


def test_a_check_declares_known_extras_and_a_known_cost():
    assert _check(requires=["jax"]).requires == ("jax",)
    with pytest.raises(ValueError, match=r"requires names unknown extras \['torch'\]"):
        _check(requires=("torch",))
    with pytest.raises(ValueError, match="cost must be one of"):
        _check(cost="hours")
    both = requiring(("jax",), [_check(requires=("digits",)), _check()])
    assert [c.requires for c in both] == [("digits", "jax"), ("jax",)]


def test_cost_classes_and_their_basis():
    assert cost_of(_check(cost="minutes")) == ("minutes", "declared")
    assert cost_of(_check(requires=("jax",)))[0] == "minutes"
    assert cost_of(_check(engine="symbolic", replicas=1)) == ("cheap", "symbolic")
    assert cost_of(_check(engine="exact", replicas=1)) == ("cheap", "exact, 1 points")
    assert cost_of(_check(replicas=MC_CHEAP))[0] == "cheap"
    assert cost_of(_check(replicas=MC_CHEAP + 1)) == (
        "minutes", f"Monte Carlo, {MC_CHEAP + 1} replicas x 1 points")
    assert cost_of(_check(replicas=MC_LONG + 1))[0] == "long"


def _outcome(cid: str, verdict: str, expected: str, kind: str = "bound_holds") -> Outcome:
    return Outcome(check_id=cid, kind=kind, verdict=verdict, expected=expected)


def test_the_summary_line_counts_each_check_once():
    outcomes = [
        _outcome("p.a", "HOLDS", "HOLDS"), _outcome("p.b", "HOLDS", "HOLDS"),
        _outcome("p.c", "CONFIRMED", "CONFIRMED", "erratum"),
        _outcome("p.d", "VIOLATED", "VIOLATED"),
        _outcome("p.e", "NOT_CONFIRMED", "NOT_CONFIRMED", "erratum"),
        _outcome("p.f", "INCONCLUSIVE", "INCONCLUSIVE"),
        _outcome("p.g", "VIOLATED", "HOLDS"),
    ]
    assert summary_line(outcomes) == ("7 checks: 3 claims hold, 2 fail as printed (as "
                                      "expected), 1 inconclusive (as expected), 1 regression")
    why = str(extras.MissingExtra("jax", "check p.h"))
    assert summary_line(outcomes[:1], {"p.h": why, "p.i": why}) == (
        "3 checks: 1 claim holds, 0 fail as printed (as expected), 0 regressions, 2 skipped "
        'for a missing extra (pip install "pflbounds[jax]")')
