"""Instance relations (relations every instance of a paper satisfies, such as mu <= L): a
paper declares them once, every result whose inputs include their symbols refuses a point
that violates them, ``solve`` never returns such a point, and a paper that gives a core name
its own meaning does not inherit the core's relation. Uses a throw-away paper, not a real one.
"""

from __future__ import annotations

import pytest
import sympy as sp

from pflbounds.symbolic import InputError, evaluate, solve
from pflbounds.symbolic.admissible import admissible_point, violated, violating_point
from pflbounds.symbolic.builder import PaperBuilder
from pflbounds.symbolic.catalog import applicable_relations, forget_paper, instance_relations
from pflbounds.symbolic.constants import K, L, mu
from pflbounds.symbolic.evaluate import hypotheses
from pflbounds.symbolic.result import Kind


@pytest.fixture
def paper():
    P = PaperBuilder("relpaper")
    P.register("Relations", "Nobody (test fixture).")
    c = P.constant("c", "clients sampled per round", "1", "positive_integer")
    n = P.constant("n", "clients", "1", "positive_integer")
    P.relation(sp.Le(c, n), "a round samples at most the n clients there are")
    r = P.result("bound", "Bound", Kind.UPPER_BOUND, "q", "1", "q <= (1 - mu/L)^K c/n",
                 [P.form("printed", (1 - mu / L) ** K * c / n)])
    other = P.result("partial", "Partial", Kind.UPPER_BOUND, "q", "1", "q <= c",
                     [P.form("printed", c * 1)])
    yield P, r, other
    forget_paper("relpaper")


def test_relation_refused_with_its_reason(paper):
    _, r, _ = paper
    assert evaluate(r, mu=1, L=2, K=3, c=2, n=4).value == pytest.approx(0.5 ** 3 * 0.5)
    with pytest.raises(InputError, match=r"c=5 > n=4: a round samples at most the n clients"):
        evaluate(r, mu=1, L=2, K=3, c=5, n=4)


def test_core_relation_applies_and_names_values(paper):
    _, r, _ = paper
    with pytest.raises(InputError, match=r"mu=3 > L=2: a mu-strongly convex"):
        evaluate(r, mu=3, L=2, K=3, c=2, n=4)


def test_array_inputs_refused_where_any_point_violates(paper):
    import numpy as np

    _, r, _ = paper
    with pytest.raises(InputError, match=r"c=\[1, 9\] > n=4"):
        evaluate(r, mu=1, L=2, K=3, c=np.array([1.0, 9.0]), n=4)


def test_relation_applies_only_where_all_symbols_are_inputs(paper):
    _, r, other = paper
    assert [str(x) for x in applicable_relations(r)] == ["mu <= L", "c <= n"]
    assert applicable_relations(other) == []
    assert evaluate(other, c=7).value == 7  # n is not an input: nothing to compare


def test_solve_respects_relations_over_the_unknown(paper):
    _, r, _ = paper
    # smallest n with (1/2)^1 c/n <= 0.1 at c = 1 is 5; c <= n holds there
    assert solve(r, "n", 0.1, mu=1, L=2, K=1, c=1).value == 5
    # the smallest c with the bound <= 1 would be 1 at any n; the relation c <= n must not
    # be broken by the answer: solving for c at n = 3 and target 10 (every c passes) gives 1
    assert solve(r, "c", 10, mu=1, L=2, K=1, n=3).value == 1


def test_solve_for_one_part_refuses_a_relation_broken_by_the_other_parts_inputs(paper):
    P, _, _ = paper
    c = P.constant("c", "clients sampled per round", "1", "positive_integer")  # the fixture's
    n = P.constant("n", "clients", "1", "positive_integer")
    two = P.result("two", "Two parts", Kind.UPPER_BOUND, "q", "1", "q <= ...",
                   [P.form("printed", parts={"a": c / K, "b": n * 1})])
    # n is an input of part b only: solving part a must still refuse c > n
    with pytest.raises(InputError, match=r"c=5 > n=4: a round samples at most"):
        solve(two, "K", 1.0, part="a", c=5, n=4)
    assert solve(two, "K", 1.0, part="a", c=3, n=4).value == 3


def test_paper_with_own_L_does_not_inherit_core_relation():
    P = PaperBuilder("ownlpaper")
    P.register("Own L", "Nobody (test fixture).")
    L_own = P.constant("L", "a length, not a smoothness constant", "x")
    try:
        assert [str(x) for x in instance_relations("ownlpaper")] == []
        r = P.result("b", "B", Kind.UPPER_BOUND, "q", "f", "q <= mu L^2",
                     [P.form("printed", mu * L_own**2)])
        assert evaluate(r, mu=5, L=1).value == 5  # mu > L is no contradiction here
    finally:
        forget_paper("ownlpaper")


def test_builder_refuses_a_non_relation(paper):
    P, _, _ = paper
    with pytest.raises(ValueError, match="sympy relation"):
        P.relation(mu + L, "not a relation")


def test_hypotheses_list_domains_relations_conditions(paper):
    _, r, _ = paper
    kinds = [(h.kind, h.text) for h in hypotheses(r)]
    assert ("instance", "c <= n") in kinds and ("instance", "mu <= L") in kinds
    assert ("domain", "c: an integer >= 1") in kinds


def test_violating_point_isolates_each_hypothesis(paper):
    _, r, _ = paper
    point = admissible_point(r)
    assert point is not None
    hyps = hypotheses(r)
    for i, h in enumerate(hyps):
        bad, alone = violating_point(r, None, point, i, hyps)
        assert bad is not None, h
        flags = violated(r, None, bad, hyps)
        assert bool(flags[i]), h
        if alone:
            assert not any(bool(v) for j, v in flags.items() if j != i), h
            with pytest.raises(InputError):
                evaluate(r, **bad)


def test_declared_example_is_preferred_when_admissible(paper):
    P, _, _ = paper
    r = P.result("ex", "Ex", Kind.UPPER_BOUND, "q", "1", "q <= c/n",
                 [P.form("printed", P.constant("c", "clients sampled per round", "1",
                                               "positive_integer")
                         / P.constant("n", "clients", "1", "positive_integer"))],
                 example={"c": 3, "n": 7})
    assert admissible_point(r) == {"c": 3.0, "n": 7.0}
    bad = P.result("exbad", "Ex", Kind.UPPER_BOUND, "q", "1", "q <= c/n",
                   [P.form("printed", sp.Symbol("c", positive=True, integer=True, real=True)
                           / sp.Symbol("n", positive=True, integer=True, real=True))],
                   example={"c": 9, "n": 7})
    # the declared example breaks c <= n: a random admissible point is used instead
    p = admissible_point(bad)
    assert p is not None and p["c"] <= p["n"]
