"""The declared vocabularies of results, errata and checks: form names, erratum severities,
how an erratum is known, check roles. A name outside them is refused where it is declared."""

from __future__ import annotations

import pytest
import sympy as sp

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.symbolic import results
from pflbounds.symbolic.result import (
    ERRATUM_KNOWN,
    ERRATUM_SEVERITIES,
    FORM_NAMES,
    Erratum,
    Form,
    Kind,
    Result,
)
from pflbounds.symbolic.units import Unit


def test_every_form_of_every_result_is_a_declared_name():
    used = {f for r in results() for f in r.forms}
    assert used <= set(FORM_NAMES)
    assert {"printed", "explicit", "corrected"} <= used


def test_undeclared_form_name_is_refused():
    with pytest.raises(ValueError, match="form name"):
        Result("x.y", "x", "Y", Kind.UPPER_BOUND, "q", Unit.parse("1"), "s",
               {"mine": Form("mine", sp.Integer(1))})


def test_erratum_known_defaults_from_its_check():
    assert Erratum("p.e1", "Thm 1", "w", "f", "p.P1").known == "run"
    assert Erratum("p.e2", "Thm 1", "w", "f").known == "text"
    assert Erratum("p.e3", "Thm 1", "w", "f", "p.P1", known="counterexample").known == \
        "counterexample"


@pytest.mark.parametrize(("field", "value"), [("severity", "minor"), ("known", "guess")])
def test_erratum_vocabulary_is_enforced(field, value):
    with pytest.raises(ValueError, match=field):
        Erratum("p.e1", "Thm 1", "w", "f", **{field: value})


def test_every_erratum_uses_the_vocabularies():
    for r in results():
        for e in r.errata:
            assert e.severity in ERRATUM_SEVERITIES and e.known in ERRATUM_KNOWN, e.id


def test_check_role_is_claim_or_control():
    def sim(p, n, s):
        return {}

    assert Check("p.c", "t", CheckKind.IDENTITY, Verdict.HOLDS, sim, ({},),
                 tolerance=0.0).role == "claim"
    with pytest.raises(ValueError, match="role"):
        Check("p.c", "t", CheckKind.IDENTITY, Verdict.HOLDS, sim, ({},), tolerance=0.0,
              role="planted")
