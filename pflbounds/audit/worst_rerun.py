"""The mutation audit's survivors, re-run on the worst instances of the tightness audit.

A stronger mutant that no check catches survives either because the paper's bound is loose
(every admissible instance stays below the mutant too) or because the checks' instances are
weak (some instance would beat the mutant, but no check runs it). The tightness audit
(``pflbounds audit tightness``, document ``tightness-PAPER.json``) records, for each bound
form it covers, the worst instance it found at each point of its sweep, with the measured
value there. Each survivor is evaluated at those points (the bound evaluated again with the
mutant served by the catalog in place of the form, at the point's constants) against the
recorded measurement, and is

* ``caught at the worst instance``: at some point the measured value beats the mutant
  (beyond the tolerance of an exact value, PEPit's attained value, or the one-sided
  confidence limit of a Monte Carlo mean): a check run there would catch it;
* ``true at the worst instance``: the mutant still holds at every point: at the worst
  instance found the paper's bound exceeds the measured value by at least bound / mutant (the
  factor recorded), a measured looseness (exact when the search is, a lower estimate
  otherwise: a worse instance may exist);
* ``unreached``: no case covers the form, or at no point searched is the mutant smaller than
  the bound (larger, for a lower bound): the case's constants leave the change untouched;
  the paper's note, if any, says why no search reaches it.

Nothing here runs a search: the points come from the tightness document.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import norm

from pflbounds.audit.mutate import mutants
from pflbounds.audit.record import FormKey, substituted
from pflbounds.symbolic import catalog
from pflbounds.symbolic.evaluate import HypothesisError, InputError, evaluate

__all__ = ["WORST_STATUSES", "load_tightness", "rerun_mutant", "worst_summary"]

WORST_STATUSES = ("caught at the worst instance", "true at the worst instance", "unreached")
EXACT_RTOL = 1e-9
TIGHTNESS_FORMAT = "pflbounds.tightness-audit/1"


def load_tightness(path: str | Path) -> dict[str, Any] | None:
    """The tightness audit document at ``path``, or None when it is missing or not one."""
    p = Path(path)
    if not p.is_file():
        return None
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("format") == TIGHTNESS_FORMAT else None


def _bound(key: FormKey, point: Mapping[str, Any]) -> float:
    """The form ``key`` (as the catalog serves it now) at a recorded point."""
    ev = point["eval"]
    vals = {k: float(v) for k, v in ev["values"].items()}
    if ev["kind"] == "pepit":
        from pflbounds.audit.tightness import deterministic_value

        return float(deterministic_value(key.result_id, key.form, vals, ev["fixed"]))
    r = catalog.get(key.result_id)
    out = evaluate(r, key.form, finite=True,
                   **{k: vals[k] for k in r.inputs(key.form) if k in vals}).value
    if isinstance(out, dict):
        out = out[key.part]
    return float(np.asarray(out))


def _beats(point: Mapping[str, Any], bound: float, sense: str) -> bool:
    """Whether the recorded measurement beats ``bound`` at the point."""
    m = float(point["measured"])
    se = float(point.get("stderr") or 0.0)
    if se > 0:
        z = float(norm.ppf(float(point.get("confidence", 0.99))))
        return m - z * se > bound if sense == "max" else m + z * se < bound
    tol = EXACT_RTOL * max(abs(bound), 1e-300)
    return m > bound + tol if sense == "max" else m < bound - tol


def rerun_mutant(key: FormKey, change: str, formula: str,
                 entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The worst-instance status of one surviving mutant of ``key`` (module docstring), with
    the point that decided, its ratio measured / mutant and the factor bound / mutant."""
    mine = [e for e in entries if (e["result"], e["form"], e.get("part", "")) ==
            (key.result_id, key.form, key.part)]
    if not mine:
        return {"status": "unreached", "why": "No worst-case search covers this form."}
    found = [m for m in mutants(key.expr()) if m.change == change and m.formula == formula]
    if not found:
        return {"status": "unreached", "why": "the mutant is not generated from the current "
                                              "formula (the audit and the catalog differ)"}
    best: dict[str, Any] | None = None
    moved = False
    with substituted(key, found[0].expr), np.errstate(all="ignore"):
        for e in mine:
            sense = e.get("sense", "max")
            for p in e["points"]:
                try:
                    mb = _bound(key, p)
                except (InputError, HypothesisError, ValueError, KeyError, ZeroDivisionError):
                    continue
                ob = float(p["bound"])
                if not math.isfinite(mb):
                    continue
                stronger = (mb < ob if sense == "max" else mb > ob) and \
                    not math.isclose(mb, ob, rel_tol=1e-12, abs_tol=1e-300)
                m = float(p["measured"])
                beats = _beats(p, mb, sense)
                if not (stronger or beats):
                    continue  # the mutant claims no more than the bound here
                moved = True
                ratio = m / mb if mb > 0 else (math.inf if m > 0 else 1.0)
                row = {"ratio_to_mutant": ratio, "bound": ob, "mutant": mb, "measured": m,
                       "factor": (ob / mb if sense == "max" else mb / ob)
                       if mb > 0 and ob > 0 else None,
                       "instance": p.get("instance", ""), "how": p.get("how", ""),
                       "worst_is": p.get("worst_is", ""), "source": e.get("source", ""),
                       "beats": beats, "sense": sense}
                closer = (best is None or (beats and not best["beats"])
                          or (beats == best["beats"] and
                              (ratio > best["ratio_to_mutant"] if sense == "max"
                               else ratio < best["ratio_to_mutant"])))
                if closer:
                    best = row
    if not moved or best is None:
        return {"status": "unreached", "why": "At no point searched does the mutant claim "
                "more than the bound (the case's constants leave its change untouched, or "
                "it cannot be evaluated there)."}
    status = "caught at the worst instance" if best.pop("beats") else \
        "true at the worst instance"
    return {"status": status, **best}


def worst_summary(stronger: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts of the stronger mutants by final status: caught or refuted by the checks, then
    the survivors by their worst-instance status; and the fraction accounted for (caught,
    refuted, caught at or true at the worst instance)."""
    n = len(stronger)
    c = {"caught": 0, "refuted": 0, **{s: 0 for s in WORST_STATUSES}, "not re-run": 0}
    for m in stronger:
        if m.get("status") in ("caught", "refuted"):
            c[m["status"]] += 1
        elif m.get("worst"):
            c[m["worst"]["status"]] += 1
        else:
            c["not re-run"] += 1
    done = c["caught"] + c["refuted"] + c[WORST_STATUSES[0]] + c[WORST_STATUSES[1]]
    return {"stronger": n, **c, "accounted": done,
            "accounted_fraction": done / n if n else None}


def attach_worst(audit: Any, doc: Mapping[str, Any] | None) -> None:
    """Re-run every survivor of ``audit`` (a :class:`pflbounds.audit.mutants.MutantAudit`)
    on the worst instances of the tightness document ``doc`` (None: no document, every
    survivor unreached). A measurement replaces the paper's note: the note is kept only for
    the survivors no search reaches."""
    entries = list(doc.get("entries", [])) if doc else []
    audit.worst_source = (f"tightness-{doc['paper']}.json" if doc else
                          f"none (run `pflbounds audit tightness --paper {audit.paper}`)")
    for m in audit.survivors:
        w = rerun_mutant(m.key, m.change, m.formula, entries)
        if not doc and w["status"] == "unreached":
            w["why"] = "No tightness records were found."
        if w["status"] != "unreached":
            m.note = ""
        m.worst = w
