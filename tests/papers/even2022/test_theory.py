"""even2022 theory: the encoded results, their forms, conditions and errata."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pflbounds.papers.even2022 import MANIFEST, complexity
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.symbolic import HypothesisError, Kind, evaluate, get, results
from pflbounds.symbolic.hidden import hidden_terms

NAMED = ["lemma1", "lemma2", "lemma3", "lemma4", "lemma5", "lemma6", "theorem1", "theorem2",
         "theorem3", "theorem4", "corollary1", "corollary2", "eq6", "eq7"]


@pytest.mark.parametrize("key", NAMED)
def test_named_result_exists(key):
    r = get(f"even2022.{key}")
    assert r.paper == "even2022"
    assert "printed" in r.forms
    assert r.source


def test_the_theory_modules_declare_every_registered_result():
    import importlib

    from pflbounds.symbolic.result import Result

    declared = {}
    for topic in MANIFEST.theory:
        mod = importlib.import_module(f"pflbounds.papers.even2022.theory.{topic}")
        declared.update({r.id: r for r in vars(mod).values() if isinstance(r, Result)})
    assert set(declared) == {r.id for r in results("even2022")}
    assert all(declared[i] is get(i) for i in declared)


@pytest.mark.parametrize(
    "key, kind, relation",
    [
        ("theorem1", Kind.LOWER_BOUND, ">="),
        ("eq4", Kind.LOWER_BOUND, ">="),
        ("eq5", Kind.LOWER_BOUND, ">="),
        ("theorem2", Kind.UPPER_BOUND, "<="),
        ("theorem3", Kind.UPPER_BOUND, "<="),
        ("theorem4", Kind.UPPER_BOUND, "<="),
        ("lemma6", Kind.UPPER_BOUND, "<="),
        ("eq6", Kind.STEP_SIZE, "="),
        ("eq7", Kind.STEP_SIZE, "="),
        ("corollary1", Kind.COMPLEXITY, "="),
        ("theorem2_part2", Kind.COMPLEXITY, "="),
        ("lemma6_eps", Kind.COMPLEXITY, "="),
        ("corollary2", Kind.COMPLEXITY, ">="),
    ],
)
def test_kind_and_relation(key, kind, relation):
    r = get(f"even2022.{key}")
    assert r.kind == kind and r.relation == relation


def test_forms_of_the_main_theorems():
    assert list(get("even2022.theorem2").forms) == ["printed", "explicit", "proof", "corrected"]
    assert list(get("even2022.theorem3").forms) == ["printed", "explicit", "corrected"]
    assert list(get("even2022.theorem1").forms) == ["printed", "explicit", "corrected"]
    assert set(get("even2022.corollary2").form("corrected").exprs) == {"S", "KC", "K"}
    assert set(get("even2022.corollary2").form("printed").exprs) == {"S", "C", "KC", "K"}


@pytest.mark.parametrize(
    "key, form",
    [("theorem1", "printed"), ("theorem2", "printed"), ("theorem2_part2", "printed"),
     ("theorem3", "printed"), ("theorem4", "printed"), ("corollary2", "printed")],
)
def test_o_notation_is_marked_hidden_in_printed_forms(key, form):
    f = get(f"even2022.{key}").form(form)
    assert f.has_hidden
    assert all(hidden_terms(e) for e in f.exprs.values())


@pytest.mark.parametrize(
    "key, form",
    [("theorem2", "explicit"), ("theorem2", "corrected"), ("theorem3", "explicit"),
     ("theorem3", "corrected"), ("corollary1", "corrected"), ("lemma6_eps", "corrected")],
)
def test_explicit_and_corrected_forms_hide_nothing(key, form):
    assert not get(f"even2022.{key}").form(form).has_hidden


def test_hypotheses_refer_to_the_assumptions():
    assert get("even2022.theorem2").hypotheses == ("even2022.A1", "even2022.A2", "even2022.A3")
    assert "even2022.A5" in get("even2022.theorem4").hypotheses
    assert get("even2022.theorem1").hypotheses == ("even2022.D",)


def test_side_conditions():
    conds = [str(c) for c in get("even2022.theorem3").conditions_for("corrected")]
    assert "eta <= 1/(2*L*rho_W)" in conds and "rho_W <= 1" in conds
    assert [str(c) for c in get("even2022.theorem4").conditions] == ["u >= 4*d_eff*nu2/S"]
    assert [str(c) for c in get("even2022.lemma6").conditions] == ["eta <= 1/(2*L)"]
    assert "eps < 1/16" in [str(c) for c in get("even2022.theorem1").conditions_for("printed")]
    with pytest.raises(HypothesisError, match="u >= 4\\*d_eff\\*nu2/S"):
        evaluate(get("even2022.theorem4_tail"), S=10, u=0.1, nu2=1.0, d_eff=1.0, Delta2=1.0)


# ----------------------------------------------------------------------------- errata
CHECK_ID = re.compile(r"^even2022\.[A-Za-z0-9_]+$")


def test_errata_ids_and_check_ids():
    assert ERRATA
    for key, e in ERRATA.items():
        assert e.id == f"even2022.{key}"
        assert e.what and e.fix and e.where
        if e.check_id is not None:
            assert CHECK_ID.match(e.check_id), e.check_id


LINKED = {
    "erratum13": ({"theorem3", "eq7", "corollary1"}, ["spectral radius", "rho(W) ~ N/4"]),
    "erratum6": ({"theorem2"}, ["exp(-K/kappa)", "exp(-K/(2 kappa))"]),
    "erratum17": ({"theorem4"}, ["exp(-kappa/(2K))", "max(Delta^2 - 2u, 2u^2)"]),
    "erratum15": ({"lemma6_tuned", "lemma6_eps"}, ["averaged iterate", "3 eps/2"]),
    "erratum16": ({"corollary1"}, ["constants do not add up", "rho(W) <= 1"]),
}


@pytest.mark.parametrize("key", sorted(LINKED))
def test_named_errata_present_linked_and_checked(key):
    e = ERRATA[key]
    number = key.removeprefix("erratum")
    assert f"#{number}" in e.digest_ref
    assert e.check_id is not None and CHECK_ID.match(e.check_id)
    results_with = {r.id.split(".", 1)[1] for r in results("even2022") if e in r.errata}
    want, phrases = LINKED[key]
    assert want <= results_with
    for p in phrases:
        assert p in e.what, (p, e.what)
    for rid in results_with:
        for f in e.forms:
            assert f in get(f"even2022.{rid}").forms, (key, rid, f)


def test_every_attached_erratum_names_existing_forms():
    for r in results("even2022"):
        for e in r.errata:
            assert e.id in {x.id for x in ERRATA.values()}
            for f in e.forms:
                assert f in r.forms, (r.id, e.id, f)


def test_every_corrected_form_has_an_erratum():
    for r in results("even2022"):
        if "corrected" in r.forms:
            assert r.errata, r.id


def test_dimension_errata_describe_the_failure():
    for rid, key in (("even2022.theorem4", "erratum17"), ("even2022.corollary2", "erratum23")):
        e = ERRATA[key]
        assert e in get(rid).errata
        assert "dimension check" in e.what
        assert "corrected" in e.forms


# ----------------------------------------------------------------------------- erratum facts
def test_erratum13_star_graph_spectral_radius():
    """Digest App. C: Corollary-1 weights on a 20-agent star give rho(W) = 5.0096."""
    n = 20
    b = np.full((n, n), 10.0)
    b[0, :] = b[:, 0] = 0.1
    np.fill_diagonal(b, 0.0)
    close = (b**2 <= 0.02).astype(float)
    lam = close / close.sum(axis=1, keepdims=True)
    vals = dict(mu=1.0, L=1.0, sigma2=1.0, K=5, DeltaLam0=1.0)
    corr = evaluate(get("even2022.eq7"), "corrected", matrices={"Lambda": lam}, **vals)
    printed = evaluate(get("even2022.eq7"), "printed", matrices={"Lambda": lam}, **vals)
    assert corr.inputs["rho_W"] == pytest.approx(5.0096, abs=1e-4)
    assert printed.value == 0.5
    assert corr.value == pytest.approx(0.5 / corr.inputs["rho_W"], rel=1e-12)
    # Corollary 1 [corrected] refuses these weights
    with pytest.raises(HypothesisError, match="rho_W <= 1"):
        evaluate(get("even2022.corollary1"), "corrected", matrices={"b": b}, mu=1.0, L=1.0,
                 sigma2=1.0, eps=0.02, F0=1.0)


def test_corrected_complexities_are_never_below_the_printed_ones():
    rng = np.random.default_rng(7)
    n = 200
    mu = np.exp(rng.uniform(-3, 1, n))
    v = dict(mu=mu, L=mu * np.exp(rng.uniform(0, 4, n)), sigma2=np.exp(rng.uniform(-5, 2, n)),
             eps=np.exp(rng.uniform(-8, -1, n)), F0=np.exp(rng.uniform(-0.5, 2, n)))
    v["invN_mean"] = rng.uniform(0.01, 1, n)
    c1 = get("even2022.corollary1")
    printed = evaluate(c1, "printed", **v).value
    corrected = evaluate(c1, "corrected", rho_W=1.0, **v).value
    assert np.all(corrected >= printed)
    l6 = get("even2022.lemma6_eps")
    w = dict(mu=v["mu"], L=v["L"], sigma2=v["sigma2"], eps=v["eps"], Delta0=v["F0"])
    assert np.all(evaluate(l6, "corrected", **w).value >= evaluate(l6, "printed", **w).value)


def test_theorem2_proof_display_is_below_the_safe_form_when_log_a_is_small():
    """Erratum 6: exp(-K/kappa) and ln A without '1 +' undercut the safe form for ln A < 1."""
    K = np.arange(2, 400)
    vals = dict(mu=1.0, L=4.0, sigma2=1.0, K=K, Delta0=1.0, V=0.5, B=0.01)  # A = K
    r = get("even2022.theorem2")
    proof = evaluate(r, "proof", **vals).value
    corrected = evaluate(r, "corrected", **vals).value
    small = np.log(K) < 1
    assert small.any() and np.all(proof[small] < corrected[small])
    # for large K the proof's ln A exceeds (1 + ln A)/2 and the order flips
    assert np.all(proof[K > 100] > corrected[K > 100])


# ----------------------------------------------------------------------------- complexity
BASE = dict(mu=1.0, L=2.0, sigma2=1.0, eps=0.01, Delta0=1.0, N=4, Neps=2, invN_mean=0.5,
            rho_W=1.0)


def test_complexity_table_rows_and_filters():
    t = complexity.table(BASE, {})
    assert [r.algorithm for r in t.rows] == ["sgd", "afo", "afa", "afa", "lower", "lower"]
    assert [r.form for r in t.rows if r.algorithm == "lower"] == ["printed", "corrected"]
    assert all(r.error is None for r in t.rows)
    printed = next(r for r in t.rows if r.method == "AFA (printed)")
    assert printed.guaranteed is False
    assert t.cheapest != "AFA (printed)" and not t.cheapest.startswith("lower bound")
    ok = [r for r in t.rows if r.guaranteed and r.algorithm != "lower"]
    assert t.cheapest == min(ok, key=lambda r: r.counts["gradients"]).method
    only = complexity.table(BASE, {}, algorithm="afa")
    assert {r.algorithm for r in only.rows} == {"afa"}


@pytest.mark.parametrize(
    "kwargs, values, piece",
    [
        (dict(objective="x"), BASE, "single objective"),
        (dict(algorithm="xyz"), BASE, "unknown algorithm 'xyz'"),
        ({}, dict(BASE, T=10), "give eps, not T"),
    ],
)
def test_complexity_table_errors(kwargs, values, piece):
    with pytest.raises(KeyError, match=piece):
        complexity.table(values, {}, **kwargs)


def test_complexity_row_errors_are_reported_not_raised():
    t = complexity.table(dict(BASE, rho_W=2.0), {})
    corr = next(r for r in t.rows if r.method == "AFA (corrected)")
    assert corr.counts["oracle_calls"] is None and "rho_W <= 1" in corr.error
