"""How tight each bound is, in the report: read from the tightness audit's documents.

``pflbounds audit tightness`` writes ``tightness-PAPER.json`` into the audit folder: per
bound form, the worst ratio measured / bound found over the admissible instances searched,
the instance in words and how it was found (exact, SDP, or searched with a budget). The
report reads those documents (never runs a search): each result's block gets a line on its
tightness, and the findings table a column "tight to within". Nothing here imports the
audits: the documents are plain JSON.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["NOT_SEARCHED", "load_tightness_records", "tight_within", "tightness_lines"]

FORMAT = "pflbounds.tightness-audit/1"
NOT_SEARCHED = "not searched"


def load_tightness_records(folder: str | Path | None) -> dict[str, list[dict[str, Any]]]:
    """The entries of every tightness document in ``folder`` (``tightness-*.json`` in the
    current format), by result id; empty when the folder or the documents are missing.
    Files of another format (an older audit's) are left out."""
    out: dict[str, list[dict[str, Any]]] = {}
    if folder is None or not Path(folder).is_dir():
        return out
    for path in sorted(Path(folder).glob("tightness-*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            continue
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            continue
        for e in doc.get("entries", []):
            if isinstance(e, dict) and {"result", "form", "ratio"} <= set(e):
                out.setdefault(str(e["result"]), []).append(e)
    return out


def _ratio(e: Mapping[str, Any]) -> float:
    try:
        r = float(e["ratio"])
    except (TypeError, ValueError):
        return math.nan
    return r


def _beyond(e: Mapping[str, Any]) -> bool:
    r = _ratio(e)
    return r > 1 if e.get("sense", "max") == "max" else r < 1


def _closeness(e: Mapping[str, Any]) -> float:
    """How close to its bound the worst instance came (1: tight; larger: looser); a
    counterexample sorts first."""
    r = _ratio(e)
    if math.isnan(r) or r <= 0:
        return math.inf
    if _beyond(e):
        return 0.0
    return 1 / r if e.get("sense", "max") == "max" else r


def _how(e: Mapping[str, Any]) -> str:
    return {"exact": "exact", "sdp": "SDP"}.get(str(e.get("how")), "searched")


def _by_form(entries: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """Per form (and part), the entry whose worst instance came closest to the bound."""
    best: dict[str, Mapping[str, Any]] = {}
    for e in entries:
        key = str(e["form"]) + (f":{e['part']}" if e.get("part") else "")
        if key not in best or _closeness(e) < _closeness(best[key]):
            best[key] = e
    return best


def tight_within(entries: Sequence[Mapping[str, Any]],
                 names: Mapping[str, str] | None = None) -> str:
    """The findings table's cell: the form that comes closest (a counterexample first), as
    ``x1.4 explicit (searched)`` or ``counterexample x2 (printed)`` (``; expected`` when the
    audit declares why: an erratum, a hidden constant); ``not searched``
    without entries. When the entries are of several results (one claim of the paper split
    into several), the form is named after its result, in words: ``names`` (result id ->
    name, e.g. ``admissible s`` for one part of Theorem 4.3), else the result's id."""
    if not entries:
        return NOT_SEARCHED
    several = len({e["result"] for e in entries}) > 1
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for e in entries:
        groups.setdefault(str(e["result"]), []).append(e)
    names = names or {}
    cands = [(f"{names.get(rid) or rid.split('.', 1)[-1]} {k}" if several else k, e)
             for rid, es in groups.items() for k, e in _by_form(es).items()]
    key, e = min(cands, key=lambda kv: _closeness(kv[1]))
    c = _closeness(e)
    if c == 0.0:  # one an erratum or the paper's hidden constant explains says so
        why = "; expected" if e.get("expected") else ""
        return f"counterexample ×{_ratio(e):#.3g} ({key}{why})"
    if math.isinf(c):
        return f"never approached ({key})"
    return f"×{c:#.3g} {key} ({_how(e)})"


def tightness_lines(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """One plain sentence per form searched: its worst ratio, the instance, and how it was
    found (exact, SDP, or searched: the true worst case is at least as bad)."""
    out = []
    for key, e in sorted(_by_form(entries).items()):
        r = _ratio(e)
        if _beyond(e):
            head = f"{key}: counterexample, ratio {r:.3g}"
            if e.get("expected"):
                head += f" (expected: {e['expected']})"
        else:
            head = f"{key}: worst ratio {r:.3g} (tight to within ×{_closeness(e):#.3g})"
        how = _how(e)
        if how == "searched":
            search = str(e.get("search", "")).removeprefix("searched: ")
            how = f"searched: {search}; the true worst case is at least as bad"
        out.append(f"{head} at {e.get('instance', '')} [{how}]")
    return out
