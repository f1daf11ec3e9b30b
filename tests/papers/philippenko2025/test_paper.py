"""philippenko2025 as a whole: every result declared in a theory topic and registered, the
printed forms with unit errata, errata linked to registered checks, every prediction P1-P20
of the digest checked, and sane check settings."""

from __future__ import annotations

import importlib

from pflbounds.checking import CheckKind, Verdict, registry
from pflbounds.papers.philippenko2025 import MANIFEST
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.symbolic.catalog import assumptions, get, results
from pflbounds.symbolic.result import Result
from pflbounds.symbolic.units import DimensionError

P = "philippenko2025."


def _declared() -> dict[str, Result]:
    out = {}
    for topic in MANIFEST.theory:
        mod = importlib.import_module(f"pflbounds.papers.philippenko2025.theory.{topic}")
        out.update({r.id: r for r in vars(mod).values() if isinstance(r, Result)})
    return out


def test_every_result_is_declared_in_a_topic_registered_and_has_a_source():
    declared = _declared()
    assert [r.id for r in results("philippenko2025")] == list(declared)
    for key in ("lemma1", "s2", "theorem1", "lemma2", "theorem2_constant", "theorem2_horizon",
                "theorem2_decreasing", "corollary1", "theorem3", "definition1",
                "definition2_binary", "definition2_continuous", "definition3_binary",
                "property1", "remark3_binary", "remark3_continuous"):
        assert get(P + key) is declared[P + key]
        assert get(P + key).source
    assert {a.id for a in assumptions("philippenko2025")} >= {
        P + "A1", P + "A2", P + "A3", P + "A4", P + "A5"}


def test_exactly_the_three_printed_forms_with_unit_errata_fail_the_dimension_check():
    failing = set()
    for r in results("philippenko2025"):
        for name in r.forms:
            try:
                r.dimension_check(name)
            except DimensionError:
                failing.add((r.id.removeprefix(P), name))
    assert failing == {("lemma1", "printed"), ("definition2_ratio", "printed"),
                       ("theorem2_horizon", "printed")}


def test_every_corrected_form_has_an_erratum_and_errata_link_checks():
    for r in results("philippenko2025"):
        if "corrected" in r.forms:
            assert r.errata, r.id
    for key, e in ERRATA.items():
        assert e.id == P + key
        assert e.check_id is None or e.check_id.startswith(P)
        assert e.digest_ref.startswith("§")
        # the id is erratum<N> with N the digest item (§7.N) it starts from
        first = e.digest_ref.split(",")[0].split("-")[0].strip()
        assert first == f"§7.{key.removeprefix('erratum')}", key
    linked = {e.check_id for e in ERRATA.values() if e.check_id}
    assert {P + "E1", P + "E4", P + "E7", P + "E8", P + "E10", P + "E14", P + "E18"} <= linked
    for cid in linked:
        assert registry.get(cid).id == cid


def test_every_prediction_has_a_check_and_every_check_a_result():
    ids = {c.id for c in registry.all_checks("philippenko2025")}
    for n in range(1, 21):
        assert any(c == f"{P}P{n}" or c.startswith(f"{P}P{n}_") for c in ids), f"P{n}"
    for c in registry.all_checks("philippenko2025"):
        # a comparison over draws may be declared INCONCLUSIVE (its draws cannot separate
        # methods that do not differ: F2_binary_d10, where the binary criterion is Local)
        allowed = (Verdict.HOLDS, Verdict.CONFIRMED, *((Verdict.INCONCLUSIVE,)
                                                       if c.kind is CheckKind.COMPARISON
                                                       else ()))
        assert c.expected in allowed, c.id
        assert c.result_id and get(c.result_id).paper == "philippenko2025"


def test_scaling_and_mc_checks_have_sane_settings():
    for c in registry.all_checks("philippenko2025"):
        if c.kind in (CheckKind.SCALING, CheckKind.RATE):
            assert c.predicted is not None and c.tolerance
        if c.kind is CheckKind.COMPARISON:  # draws declared by the plan, for power
            assert c.plan is not None and c.replicas == c.plan.draws
        elif c.engine == "mc":
            assert c.replicas >= 100
