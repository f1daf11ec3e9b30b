"""Every word pflbounds shows a reader about a check, a claim or an erratum, with its meaning.

Declared here once; the report explains them on its first page and the command line
(``check``, ``validate``) prints nothing else.

* A **claim** is a result of a paper in one of its forms (``even2022.theorem3``, printed).
  A check gives each claim it tests one **claim verdict** (:data:`CLAIM_VERDICTS`). An erratum
  check tests two claims: the printed side (the check's form, or ``printed`` when the check
  names the corrected form) and the ``corrected`` form.
* The findings table gives each claim of a paper, as the paper names it (Theorem 4.3), a
  **status** as printed and corrected (:data:`CLAIM_STATUS`).
* An erratum has a **status** (:data:`ERRATUM_STATUS`): how it is known
  (:data:`~pflbounds.symbolic.result.ERRATUM_KNOWN`) and whether its check ran and gave the
  verdicts it expects; and a severity (:data:`~pflbounds.symbolic.result.ERRATUM_SEVERITIES`).
* The **ratio** (:data:`RATIO`) says by how much a bound holds or fails.

``CONFIRMED`` and ``NOT_CONFIRMED`` (:class:`~pflbounds.checking.kinds.Verdict`) stay internal:
they are what an erratum check expects, and are shown as the claim verdicts they stand for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pflbounds.checking.kinds import CheckKind, Verdict

__all__ = [
    "CHECK_KINDS",
    "CLAIM_STATUS",
    "CLAIM_VERDICTS",
    "ERRATUM_STATUS",
    "KIND_STATISTICS",
    "RATIO",
    "ROLES",
    "claim_forms",
    "claims_of",
    "claims_text",
    "derive_claims",
    "erratum_status",
    "expected_claims",
    "form_names",
    "printed_side",
    "summary_line",
]

CLAIM_VERDICTS: dict[str, str] = {
    "HOLDS": "the claim holds on every instance its check ran (Monte Carlo: the whole "
             "confidence interval is on the right side)",
    "VIOLATED": "the claim fails on an instance that meets its hypotheses (Monte Carlo: the "
                "whole confidence interval is on the wrong side)",
    "INCONCLUSIVE": "the evidence does not decide (an interval straddles the bound; more "
                    "replicas may decide)",
    "ERROR": "the check could not produce or read its evidence",
}
"""The verdict of a check on one claim (a result in one form)."""

CLAIM_STATUS: dict[str, str] = {
    "holds": "every check of the claim in this form HOLDS",
    "holds post hoc": "HOLDS only as narrowed after a run was seen: not a confirmed prediction",
    "fails": "a check finds it VIOLATED; the ratio or statistic and where are given",
    "not unit-consistent": "its two sides do not carry the same unit (dimension analysis)",
    "inconclusive": "a check is INCONCLUSIVE and none is VIOLATED",
    "error": "a check could not produce its evidence",
    "not run": "a check of it exists but is not in this run",
    "not checked": "no check tests it; the reason is given",
    "no corrected form": "no erratum changes the claim, so there is no corrected form",
}
"""The status of a claim of a paper in the findings, as printed and as corrected."""

ERRATUM_STATUS: dict[str, str] = {
    "shown by a run": "its check ran on instances that meet the hypotheses and gave the "
                      "verdicts it expects",
    "shown by a counterexample": "an exact counterexample (a closed-form or certified "
                                 "instance): its check gave the verdicts it expects",
    "argued from the text": "the paper's own text shows it; no computation can",
    "not run": "its check is not in this run",
    "check disagrees": "its check ran but did not give the verdicts it expects (a regression "
                       "of pflbounds, listed on the first page)",
}
"""How an erratum is known, combined with what its check gave in this run."""

ROLES: dict[str, str] = {
    "claim": "the verdict is about a claim of the paper",
    "control": "a planted claim or a power check: the verdict is about the checker, and is "
               "listed apart from the findings",
}
"""What a check's verdict is about (:attr:`~pflbounds.checking.check.Check.role`)."""

RATIO = ("measured/bound for an upper bound, bound/measured for a lower bound, at the "
         "instance where it is largest: below 1 the bound holds there, above 1 it fails; "
         "3 significant figures, shown as >1e6 or <1e-6 beyond those")
"""The one margin the report shows for a bound."""

KIND_STATISTICS: dict[str, str] = {
    "rate": "the fitted slope (or contraction factor) against the predicted one and its "
            "tolerance",
    "scaling": "the fitted log-log slope of a cost against the predicted exponent and its "
               "tolerance",
    "identity": "the largest |residual| of the identity against its tolerance",
    "holds_with_probability": "the share of draws in which the bound fails, with its "
                              "Clopper-Pearson interval, against the allowed delta",
    "comparison": "the mean paired difference between two methods over the draws, with its "
                  "t interval, against 0 (the claimed side above)",
}
"""Checks that do not compare a value with a bound report their own statistic instead of a
ratio."""

CHECK_KINDS: dict[str, str] = {
    "bound_holds": "upper bound: E[metric] <= bound at every recorded K",
    "lower_bound_respected": "lower bound: E[metric] >= bound everywhere",
    "rate": "rate: the fitted slope of the metric matches the prediction",
    "scaling": "scaling: the slope of a cost across a swept parameter matches the prediction",
    "identity": "identity: an exact equality, up to a stated tolerance",
    "erratum": "erratum: the printed side and the corrected form, on one instance",
    "holds_with_probability": "with probability: a per-draw bound fails in at most a share "
                              "delta of the draws",
    "comparison": "comparison: one method's metric below (or above) another's, or a row of a "
                  "table in the printed order, judged on paired differences over independent "
                  "draws",
}
"""Check kinds as the report names them (the kind's value, with its meaning)."""


def form_names() -> dict[str, str]:
    """Every form name a result may use, with its meaning (declared with the Result model)."""
    from pflbounds.symbolic.result import FORM_NAMES

    return dict(FORM_NAMES)


def printed_side(form: str | None) -> str:
    """The printed side an erratum check tests: its form, or ``printed`` when it names the
    corrected form (or none)."""
    return "printed" if form in (None, "", "corrected") else str(form)


def claim_forms(kind: CheckKind | str, form: str | None) -> tuple[str, ...]:
    """The forms whose claims a check of ``kind`` on ``form`` gives verdicts for."""
    if CheckKind(kind) is CheckKind.ERRATUM:
        return (printed_side(form), "corrected")
    return (form or "printed",)


def claims_of(kind: CheckKind | str, form: str | None, verdict: Verdict | str,
              printed: Verdict | str | None = None,
              corrected: Verdict | str | None = None) -> dict[str, Verdict]:
    """Claim verdicts of one check: ``{form: verdict}``; for an erratum check, the verdicts of
    its printed side and of the corrected form (``printed`` and ``corrected``; when not given,
    both take ``verdict`` if it is a claim verdict, e.g. ERROR)."""
    forms = claim_forms(kind, form)
    v = Verdict(verdict)
    if len(forms) == 1:
        return {forms[0]: v}
    if v is Verdict.CONFIRMED and printed is None and corrected is None:
        printed, corrected = Verdict.VIOLATED, Verdict.HOLDS
    fallback = v if v.value in CLAIM_VERDICTS else Verdict.INCONCLUSIVE
    return {forms[0]: Verdict(printed or fallback), forms[1]: Verdict(corrected or fallback)}


_ERRATUM_DETAIL = re.compile(r"printed bound (\w+)\b.*corrected bound (\w+)\b", re.S)


def derive_claims(kind: CheckKind | str, form: str | None, verdict: Verdict | str,
                  detail: str = "") -> dict[str, Verdict]:
    """Claim verdicts of an outcome saved before outcomes carried them: from its verdict and,
    for an erratum check, from the two verdicts its detail states."""
    if CheckKind(kind) is CheckKind.ERRATUM:
        m = _ERRATUM_DETAIL.search(detail or "")
        if m and m.group(1) in CLAIM_VERDICTS and m.group(2) in CLAIM_VERDICTS:
            return claims_of(kind, form, verdict, m.group(1), m.group(2))
    return claims_of(kind, form, verdict)


def expected_claims(kind: CheckKind | str, form: str | None,
                    expected: Verdict | str) -> dict[str, str]:
    """The claim verdicts a check expects: an erratum check that expects CONFIRMED expects its
    printed side VIOLATED and the corrected form HOLDS; NOT_CONFIRMED, its printed side
    HOLDS; INCONCLUSIVE, neither decided."""
    forms = claim_forms(kind, form)
    e = Verdict(expected)
    if len(forms) == 1:
        return {forms[0]: e.value}
    if e is Verdict.CONFIRMED:
        return {forms[0]: "VIOLATED", forms[1]: "HOLDS"}
    if e is Verdict.NOT_CONFIRMED:
        return {forms[0]: "HOLDS"}
    return {forms[0]: "INCONCLUSIVE"}


def claims_text(claims: Mapping[str, Any]) -> str:
    """``printed VIOLATED, corrected HOLDS``."""
    return ", ".join(f"{form} {getattr(v, 'value', v)}" for form, v in claims.items())


def erratum_status(known: str, check_id: str | None, ran: bool, as_expected: bool) -> str:
    """The status of an erratum (a key of :data:`ERRATUM_STATUS`): how it is known, and
    what its check gave in this run."""
    if known == "text":
        return "argued from the text"
    if not check_id:
        return "shown by a counterexample" if known == "counterexample" else \
            "argued from the text"
    if not ran:
        return "not run"
    if not as_expected:
        return "check disagrees"
    return "shown by a counterexample" if known == "counterexample" else "shown by a run"


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def summary_line(outcomes: Any, skipped: Mapping[str, str] | None = None) -> str:
    """The one-line verdict summary that ends ``validate`` and ``report``: how many checks,
    how many show their claim holding, failing as printed (as expected), inconclusive as
    expected, the regressions (a verdict other than the expected one) and the checks
    skipped for a missing extra, e.g. ``130 checks: 90 claims hold, 29 fail as printed (as
    expected), 0 regressions``."""
    outcomes = list(outcomes)
    skipped = dict(skipped or {})
    hold = fail = inconclusive = error = regressions = 0
    for o in outcomes:
        v = Verdict(o.verdict)
        if not o.as_expected:
            regressions += 1
        elif v in (Verdict.HOLDS, Verdict.NOT_CONFIRMED):
            hold += 1
        elif v in (Verdict.VIOLATED, Verdict.CONFIRMED):
            fail += 1
        elif v is Verdict.INCONCLUSIVE:
            inconclusive += 1
        else:
            error += 1
    parts = [_n(hold, "claim holds", "claims hold"),
             f"{fail} fail as printed (as expected)"]
    if inconclusive:
        parts.append(f"{inconclusive} inconclusive (as expected)")
    if error:
        parts.append(f"{error} errors (as expected)")
    parts.append(_n(regressions, "regression", "regressions"))
    if skipped:
        extras = sorted({re.sub(r".*: ", "", why) for why in skipped.values()})
        parts.append(f"{len(skipped)} skipped for a missing extra ({'; '.join(extras)})")
    return f"{_n(len(outcomes) + len(skipped), 'check', 'checks')}: " + ", ".join(parts)
