"""The audit page of a report, and the overview's sentence on Monte Carlo error control.

The page is built from the JSON files the ``pflbounds audit`` commands write into an audit
folder (``mutants-PAPER.json``, ``tightness-PAPER.json``, ``false-alarms-SUITE.json``):

* checker power: per result and form, the mutants, the stronger ones, how many the checks
  caught or still refute, and every survivor with its formula and why it survived;
* false alarms: per Monte Carlo check the observed rate of false VIOLATED verdicts, and the
  share of runs with any per paper, at per-check levels and with the paper's error family;
* tightness: the encoded bound beside PEPit's worst case, with the report's ratio (worst case
  over bound: below 1 the bound holds) plotted against K.

Verdicts are claim verdicts and margins the report's ratio
(:mod:`pflbounds.checking.vocabulary`), as in the rest of the report.

Nothing here imports the audits themselves: the page reads their plain JSON documents.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pflbounds.checking.ratio import format_ratio
from pflbounds.reporting.escape import escape_markup, typst_string
from pflbounds.reporting.model import PlotSpec, Series

__all__ = ["TIGHTNESS_FORMAT", "AuditPage", "audit_typst", "error_control_sentence",
           "load_audit", "tightness_plot"]

TIGHTNESS_FORMAT = "pflbounds.tightness-audit/1"
"""The format of ``tightness-PAPER.json`` (:mod:`pflbounds.tightness.paper_audit`)."""


@dataclass
class AuditPage:
    """The audit documents of a report and the figures drawn from them."""

    mutants: list[dict[str, Any]] = field(default_factory=list)
    tightness: list[dict[str, Any]] = field(default_factory=list)
    false_alarms: list[dict[str, Any]] = field(default_factory=list)
    plots: list[PlotSpec | None] = field(default_factory=list)
    """One per tightness document (None: no PEPit comparison to draw)."""

    def __bool__(self) -> bool:
        return bool(self.mutants or self.tightness or self.false_alarms)


MAX_BYTES = 100_000_000
"""The largest audit file read (the audits write a few hundred kB)."""


def _read(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ValueError(f"larger than {MAX_BYTES // 10**6} MB")
        doc = json.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise ValueError(f"audit file {path} cannot be read (it nests too deeply); run the "
                         "audit again") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise ValueError(f"audit file {path} cannot be read ({reason}); run the audit again") \
            from None
    if not isinstance(doc, dict):
        raise ValueError(f"audit file {path} does not hold an audit document")
    return doc


def _checked(path: Path, kind: str) -> dict[str, Any]:
    """An audit document, read and drawn once on its own, so that a file pflbounds did not
    write (a missing or mistyped field) is named now, not deep inside the report."""
    doc = _read(path)
    page = AuditPage(**{kind: [doc]})
    try:
        page.plots = [tightness_plot(d) for d in page.tightness]
        audit_typst(page, {id(p): p.name for p in page.plots if p is not None})
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        what = f"field {e}" if isinstance(e, KeyError) else str(e)
        raise ValueError(f"audit file {path} is not an audit document that pflbounds wrote "
                         f"(missing or bad {what}); run the audit again") from None
    return doc


def load_audit(folder: str | Path) -> AuditPage:
    """The audit documents found in ``folder``; ``ValueError`` naming a missing folder, a
    folder without audit files, or an unreadable file."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"audit folder {str(folder)!r} is a file; expected the folder that "
                         "`pflbounds audit mutants|tightness|false-alarms` writes (default "
                         "reports/audit)")
    if not folder.is_dir():
        raise ValueError(f"audit folder {str(folder)!r} does not exist; `pflbounds audit "
                         "mutants|tightness|false-alarms` writes it (default reports/audit)")
    page = AuditPage(
        mutants=[_checked(p, "mutants") for p in sorted(folder.glob("mutants-*.json"))],
        tightness=[_checked(p, "tightness") for p in sorted(folder.glob("tightness-*.json"))],
        false_alarms=[_checked(p, "false_alarms")
                      for p in sorted(folder.glob("false-alarms-*.json"))],
    )
    if not page:
        raise ValueError(f"audit folder {str(folder)!r} holds no audit file (mutants-*.json, "
                         "tightness-*.json, false-alarms-*.json)")
    page.plots = [tightness_plot(d) for d in page.tightness]
    return page


def _fnum(v: Any) -> float:
    return float(v) if v is not None else float("nan")


def worst_over_bound(row: Mapping[str, Any]) -> float:
    """The report's ratio for a tightness row: PEPit's worst case over the encoded bound (the
    measured value over the bound), below 1 the bound holds, above 1 it fails."""
    bound, worst = _fnum(row.get("bound")), _fnum(row.get("worst"))
    if bound > 0:
        return worst / bound
    ratio = _fnum(row.get("ratio"))  # bound / worst case, as the audit records it
    return 1.0 / ratio if ratio > 0 else float("nan")


def pepit_part(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    """The PEPit comparisons by K of a tightness document (the whole document in the older
    format, which held only them; empty when the paper declares no PEPit case)."""
    if doc.get("format") == TIGHTNESS_FORMAT:
        return doc.get("pepit") or {}
    return doc


def tightness_plot(doc: Mapping[str, Any]) -> PlotSpec | None:
    """PEPit worst case / bound against K, one curve per form and (mu, L, eta); None when
    the document has no PEPit comparison."""
    doc = {**pepit_part(doc), "paper": doc.get("paper", "paper")}
    if not doc.get("cases"):
        return None
    series = []
    for case in doc.get("cases", []):
        groups: dict[tuple, list[dict]] = {}
        for r in case.get("rows", []):
            groups.setdefault((r["form"], r["mu"], r["L"], r["eta"]), []).append(r)
        for (form, mu, L, eta), rows in groups.items():
            rows.sort(key=lambda r: r["K"])
            series.append(Series(label=f"{form}, mu={mu:g}, L={L:g}, eta={eta:.3g}",
                                 x=[r["K"] for r in rows], y=[worst_over_bound(r) for r in rows],
                                 style="measured"))
    results = ", ".join(c["result"] for c in doc.get("cases", []))
    return PlotSpec(kind="curves", title=f"{results}: PEPit worst case / encoded bound",
                    xlabel="K (iterations)", ylabel="worst case / bound", logy=True,
                    series=series, name=f"audit-tightness-{doc.get('paper', 'paper')}",
                    hlines=[(1.0, "tight")],
                    caption=f"Tightness of {results}: the exact worst case of its method "
                            "(PEPit) over the encoded bound; 1 is tight, below 1 the bound "
                            "holds, above 1 it fails")


# ---------------------------------------------------------------------------------------
# The overview sentence


def _config(o: Any) -> Mapping[str, Any]:
    cfg = getattr(o, "config", None)
    return cfg if isinstance(cfg, Mapping) else {}


def _engine(o: Any) -> str:
    return str(_config(o).get("engine", ""))


def error_control_sentence(outcomes: Iterable[Any]) -> str:
    """How the Monte Carlo verdicts of a run control false verdicts: each paper's error
    family and its family-wise level, and the per-check levels of the checks of papers that
    declare none (empty when the run has no Monte Carlo check)."""
    mc = [o for o in outcomes if _engine(o) == "mc"]
    if not mc:
        return ""
    recs = [_config(o)["multiplicity"] for o in mc
            if isinstance(_config(o).get("multiplicity"), Mapping)]
    fams: dict[str, Mapping[str, Any]] = {}
    for r in recs:
        if r.get("method") == "paper":
            fams.setdefault(str(r["family"]), r)
    parts = []
    if fams:
        each = [f"{p} at {100 * float(r['family_level']):.3g}% over its {int(r['checks'])} "
                "Monte Carlo checks" for p, r in sorted(fams.items())]
        parts.append("Each Monte Carlo check of a paper that declares its error family is "
                     "judged at a fixed share of the paper's family-wise level, split over its "
                     "own comparisons (Bonferroni), whatever else the run holds: the "
                     "probability of a verdict wrong by chance anywhere in the paper is at "
                     "most that level. Error families: " + "; ".join(each) + ".")
    bare = [o for o in mc if not isinstance(_config(o).get("multiplicity"), Mapping)]
    if parts and bare:
        n = len(bare)
        parts.append(f"The other {n} Monte Carlo check{'s' if n > 1 else ''} (of papers that "
                     "declare no error family) each correct only their own comparisons.")
    if parts:
        return " ".join(parts)
    levels = [1.0 - float(_config(o).get("confidence", 0.99)) for o in mc]
    total = min(1.0, sum(levels))
    return (f"Each of the {len(mc)} Monte Carlo checks corrects only its own comparisons "
            f"(Bonferroni at {100 * max(levels):.3g}% per check): the probability of a false "
            f"VIOLATED somewhere in the run can reach {100 * total:.3g}% (the family-wise "
            "level); `validate` without --per-check judges each check at its share of its "
            "paper's level.")


# ---------------------------------------------------------------------------------------
# Typst


def _s(text: str) -> str:
    return typst_string(str(text))


def _m(text: Any) -> str:
    return f"[{escape_markup(str(text))}]"


def _ident(text: str) -> str:
    return f"#ident({_s(text)})"


def _g(v: Any, digits: int = 4) -> str:
    if v is None:
        return "—"
    f = float(v)
    return f"{f:.{digits}g}"


def _heading(level: int, text: str) -> str:
    """An unnumbered heading (the chapter follows the numbered paper chapters)."""
    return f"#heading(level: {level}, numbering: none)[{escape_markup(text)}]"


def _short(text: str, width: int = 110) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _table(columns: str, align: str, header: Sequence[str], rows: Iterable[Sequence[str]]
           ) -> list[str]:
    out = ["#table(", f"  columns: {columns},", f"  align: {align},",
           "  table.header(" + ", ".join(f"[*{escape_markup(h)}*]" for h in header) + "),"]
    out += ["  " + ", ".join(r) + "," for r in rows]
    out += [")", ""]
    return out


_STILL = re.compile(r"(?P<check>[\w.\-]+) \((?P<grid>[\w-]+)\): still (?P<verdict>[A-Z_]+), "
                    r"margin (?P<m>[^ ]+) \(original (?P<b>[^ )]+)\)")


def explanation(text: str) -> str:
    """A survivor's explanation in the report's words: claim verdicts, and the ratio
    (measured/bound; the audit records the check's margin, bound/measured) for bound
    checks; another kind's margin is left out."""
    from pflbounds.checking import registry
    from pflbounds.checking.kinds import CheckKind
    from pflbounds.checking.ratio import format_ratio
    from pflbounds.checking.vocabulary import claims_of, claims_text

    def ratio(margin: str) -> str:
        try:
            m = float(margin)
        except ValueError:
            return "—"
        return format_ratio(float("inf") if m <= 0 else 1.0 / m)

    def repl(mt: re.Match[str]) -> str:
        check = registry.find(mt.group("check"))
        head = f"{mt.group('check')} ({mt.group('grid')}): still "
        if check is None:
            return head + mt.group("verdict").replace("CONFIRMED", "printed VIOLATED, corrected "
                                                                   "HOLDS")
        try:
            words = claims_text(claims_of(check.kind, check.form, mt.group("verdict")))
        except ValueError:
            words = mt.group("verdict")
        if check.kind in (CheckKind.BOUND_HOLDS, CheckKind.LOWER_BOUND, CheckKind.ERRATUM):
            side = "printed " if check.kind is CheckKind.ERRATUM else ""
            return (head + f"{words}, {side}ratio {ratio(mt.group('m'))} "
                    f"(original {ratio(mt.group('b'))})")
        return head + words

    return _STILL.sub(repl, text)


def _mutants(doc: Mapping[str, Any]) -> list[str]:
    t = doc["totals"]
    frac = t.get("detected_fraction")
    lines = [
        _heading(2, f"Checker power: {doc['paper']}"),
        "",
        escape_markup(
            f"Every form that a check evaluates was mutated ({t['mutants']} mutants: constant "
            "factors times 1/2 and 1/10, exponents of counts and contraction factors +-1, "
            "terms dropped, log arguments divided by e) and each mutant classified on the "
            "inputs the checks used. The stronger mutants (a bound that claims more) were run "
            f"through the checks with the mutant in place of the form (grids: {doc['grids']}, "
            f"seed {doc['seed']}). Caught: some verdict differs from its expectation; "
            "refuted: the erratum check of a form it expects to fail still refutes the "
            f"mutant. {t['caught'] + t['refuted']} of {t['stronger']} stronger mutants were "
            f"caught or refuted" + ("" if frac is None else f" ({100 * frac:.1f}%)") + "."),
        "",
    ]
    w = doc.get("worst_instances")
    if w:
        frac = w.get("accounted_fraction")
        lines += [escape_markup(
            f"The survivors were re-run on the worst instances of the tightness audit "
            f"({w['source']}): {w['caught at the worst instance']} are caught there (a check "
            f"run there would catch them), {w['true at the worst instance']} still hold there "
            f"(the paper's bound is loose there at least as much as the mutant claims), "
            f"{w['unreached']} are unreached (no search covers their form, or the searched "
            f"constants leave them untouched). Caught, refuted, or caught or true at the "
            f"worst instance: {w['accounted']} of {w['stronger']}"
            + ("" if frac is None else f" ({100 * frac:.1f}%)") + "."), ""]
    rows = []
    for r in doc["rows"]:
        form = r["form"] + (f":{r['part']}" if r.get("part") else "")
        if not r.get("bound", True):
            counts = ["[—]"] * 4
        else:
            counts = [_m(r["stronger"]), _m(r["caught"] + r["refuted"]), _m(r["survived"]),
                      _m(r["weaker"])]
        checks = ", ".join(c.split(".", 1)[-1] for c in r["checks"])
        rows.append([f"[{_ident(r['result'])} ({escape_markup(form)})]", _m(r["mutants"]),
                     *counts, _m(checks)])
    lines += _table("(1.5fr, auto, auto, auto, auto, auto, 1fr)",
                    "(left, right, right, right, right, right, left)",
                    ("Result (form)", "Mutants", "Stronger", "Caught", "Survived", "Weaker",
                     "Checks"), rows)
    if doc.get("survivors"):
        lines += [_heading(3, f"Survivors ({len(doc['survivors'])})"), "",
                  escape_markup("Grouped by form, with the paper's explanation; for each mutant "
                                "its change, its formula (in full in the audit's JSON) and "
                                "what the checks that ran it showed."),
                  ""]
        groups: dict[tuple[str, str], list[dict]] = {}
        for m in doc["survivors"]:
            groups.setdefault((m["result"], m["form"]), []).append(m)
        for (rid, form), ms in groups.items():
            note = next((m.get("note") for m in ms if m.get("note")), "")
            why = f": {escape_markup(note)}" if note else ""
            lines.append(f"- {_ident(rid)} ({escape_markup(form)}), {len(ms)}{why}")
            for m in ms:
                worst = m.get("worst")
                extra = f" \\ #muted[{escape_markup(_worst_words(worst))}]" if worst else ""
                lines.append(f"  - {escape_markup(m['change'])}: "
                             f"#text(size: 7.5pt, raw({_s(_short(m['formula']))})) \\ "
                             f"#muted[{escape_markup(explanation(m['explanation']))}]{extra}")
        lines.append("")
    if doc.get("not_evaluated"):
        lines += [escape_markup("Named by checks but never evaluated by them (their rate, "
                                "scaling or identity comparisons do not use the form's value, "
                                "so no mutant can change them): " + "; ".join(
            f"{d['result']} ({d['form']}): {', '.join(d['checks'])}"
            for d in doc["not_evaluated"])), ""]
    return lines


def _worst_words(w: Mapping[str, Any]) -> str:
    """A survivor's re-run on the worst instance, in the report's words."""
    if w.get("status") == "unreached":
        return f"Worst instance: unreached. {w.get('why', '')}".strip()
    head = ("caught at the worst instance" if w["status"].startswith("caught")
            else "true at the worst instance")
    factor = w.get("factor")
    loose = (f"; the bound is loose there by at least ×{float(factor):.3g}"
             if factor is not None and head.startswith("true") else "")
    return (f"Worst instance: {head}, measured/mutant {_g(w.get('ratio_to_mutant'), 3)} at "
            f"{_short(str(w.get('instance', '')), 120)} ({w.get('how', '')}){loose}.")


def _false_alarms(doc: Mapping[str, Any]) -> list[str]:
    runs = doc["runs"]
    per_paper = "; ".join(
        f"{p['paper']}: {p['any_per_check']} ({100 * p['rate_per_check']:.3g}%) with each "
        f"check at its own level, {p['any_family']} ({100 * p['rate_family']:.3g}%) with the "
        + ("paper's error family" if p.get("declared", True) else "per-check levels")
        + f", against its family-wise level "
        f"{100 * p['family_level']:.3g}% (binomial limit {p['limit']} of {runs}: "
        + ("within" if p["within"] else "exceeded") + ")"
        for p in doc.get("papers", []))
    lines = [
        _heading(2, f"False alarms: suite {doc['suite']}"),
        "",
        escape_markup(
            f"The {len(doc['checks'])} Monte Carlo checks of true bounds ran {runs} times with "
            f"independent seeds. Runs with a false VIOLATED, per paper: {per_paper}."),
        "",
    ]
    rows = []
    for c in doc["checks"]:
        lo, hi = c["rate_95"]
        rows.append([f"[{_ident(c['check'])}]", _m(c["runs"]), _m(c["violated"]),
                     _m(f"{c['rate']:.3f} [{lo:.3f}, {hi:.3f}]"), _m(c["violated_family"]),
                     _m(c["inconclusive_family"])])
    lines += _table("(1.4fr, auto, auto, auto, auto, auto)",
                    "(left, right, right, right, right, right)",
                    ("Check", "Runs", "VIOLATED", "Rate (95%)", "VIOLATED (family)",
                     "INCONCLUSIVE (family)"), rows)
    return lines


def tightness_ratio_text(ratio: Any, sense: str = "max") -> str:
    """A worst ratio in words: ``tight to within x1.25``, or ``counterexample x1.5``."""
    r = _fnum(ratio)
    if not r == r:  # NaN
        return "—"
    beyond = r > 1 if sense == "max" else r < 1
    if beyond:
        return f"counterexample ({format_ratio(r)})"
    if r <= 0:
        return "never approached (ratio 0)"
    return f"within ×{(1 / r if sense == 'max' else r):.3g}"


def _entries(doc: Mapping[str, Any]) -> list[str]:
    lines = [_heading(2, f"Tightness: {doc['paper']}"), "",
             escape_markup(
                 "Each declared worst-case search: the largest ratio measured/bound found over "
                 "the admissible instances (for a lower bound the smallest), where it was "
                 "found, and how: exact (a decoupled worst case), SDP (PEPit's worst case over "
                 "a function class) or searched (a seeded search: the true worst case is at "
                 "least as bad). Above 1 (below 1 for a lower bound) an admissible instance "
                 "beats the bound: a counterexample."), ""]
    rows = []
    for e in doc.get("entries", []):
        form = e["form"] + (f":{e['part']}" if e.get("part") else "")
        flag = ""
        if e.get("counterexample"):
            flag = " #badge(\"VIOLATED\")" + (" (expected)" if e.get("expected") else "")
        rows.append([f"[{_ident(e['result'])} ({escape_markup(form)})]",
                     f"[{escape_markup(_g(e['ratio']))}{flag}]",
                     _m(f"{e['search']} ({e['worst_is']})"),
                     _m(_short(e["instance"], 160)), _m(f"{float(e['seconds']):.1f} s")])
    if rows:
        lines += _table("(1.3fr, auto, 1.2fr, 2fr, auto)", "(left, right, left, left, right)",
                        ("Bound (form)", "Worst ratio", "Search", "Worst instance", "Time"),
                        rows)
    unc = doc.get("uncovered", [])
    if unc:
        lines += [escape_markup(
            f"Bound forms that checks evaluate with no worst-case search "
            f"({len(unc)}; forms {doc.get('forms_from', '')}): " + "; ".join(
                f"{u['result']} ({u['form']})" + (f": {u['why']}" if u.get("why") else "")
                for u in unc) + "."), ""]
    return lines


def _tightness(doc: Mapping[str, Any], plot: PlotSpec | None, stems: Mapping[int, str],
               figures_dir: str) -> list[str]:
    lines: list[str] = []
    if doc.get("format") == TIGHTNESS_FORMAT:
        lines += _entries(doc)
        if not doc.get("pepit"):
            return lines
    doc = {**pepit_part(doc), "paper": doc.get("paper", "paper")}
    lines += [_heading(2, f"Tightness against PEPit: {doc['paper']}"), ""]
    for case in doc.get("cases", []):
        lines += [escape_markup(
            f"{case['result']}: {case['title']}. Worst case by PEPit ({doc['solver']} through "
            f"cvxpy); a number whose relative duality gap exceeds {doc['max_gap']:g} is "
            "refused. Ratio: the worst case over the bound (below 1 the bound holds).")
            + f" Verdict of the audit: #badge({_s(doc['verdict'])}).", ""]
        rows = [[_m(r["form"]), _m(_g(r["mu"])), _m(_g(r["L"])), _m(_g(r["eta"])), _m(r["K"]),
                 _m(_g(r["bound"], 5)), _m(_g(r["worst"], 5)),
                 _m(format_ratio(worst_over_bound(r))), _m(f"{r['relative_gap']:.1e}"),
                 f"[#badge({_s(r['verdict'])})]"]
                for r in case.get("rows", [])]
        lines += _table("(auto,) * 10", "(left,) + (right,) * 8 + (left,)",
                        ("Form", "mu", "L", "eta", "K", "Bound", "Worst case",
                         "Ratio (worst/bound)", "Gap", "Verdict"), rows)
    if plot is not None and id(plot) in stems:
        stem = stems[id(plot)]
        lines += ["#figure(", f"  image({_s(f'{figures_dir}/{stem}.svg')}, width: 70%),",
                  f"  caption: [{escape_markup(plot.caption)}.],", ")", ""]
    return lines


def audit_typst(page: AuditPage, stems: Mapping[int, str], figures_dir: str = "figures"
                ) -> list[str]:
    """The Typst lines of the audit chapter (the report's preamble defines ``ident`` and
    ``muted``); ``stems`` maps ``id(plot)`` of :attr:`AuditPage.plots` to their files."""
    lines = ["= Audits: how much to trust a verdict <audits>", ""]
    for doc in page.mutants:
        lines += _mutants(doc)
    for doc in page.false_alarms:
        lines += _false_alarms(doc)
    for doc, plot in zip(page.tightness, page.plots, strict=False):
        lines += _tightness(doc, plot, stems, figures_dir.rstrip("/"))
    return lines
