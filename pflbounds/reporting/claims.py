"""Findings: the claims of a paper as the paper names them, with their status.

A paper's claim is what its text names (``Theorem 4.3``, ``Lemma C.5``, ``Table 1``); the
encoding may split it into several results (``Theorem 4.3 at eta = 3/(8L)``, ``Theorem 4.3:
iterations for a target``), which :func:`claim_name` groups back by their labels. Each claim
gets a status as printed (the paper's own forms: printed, explicit, proof, ...) and as
corrected (the corrected and rederived forms), in the words of
:data:`pflbounds.checking.vocabulary.CLAIM_STATUS`, a one-line reason, and the status of its
errata. Only checks whose role is ``claim`` count; controls are listed apart.

Everything here reads the plain report model (:mod:`pflbounds.reporting.model`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pflbounds.checking.ratio import format_ratio
from pflbounds.reporting.claim_names import NAMED as _NAMED
from pflbounds.reporting.claim_names import claim_name
from pflbounds.reporting.model import (
    ClaimVerdict,
    ErratumBlock,
    PaperSection,
    Report,
    ResultBlock,
    VerdictRow,
)

__all__ = [
    "CORRECTED_FORMS",
    "LONG_QUANTITY",
    "ClaimFinding",
    "Status",
    "claim_name",
    "controls",
    "default_unchecked",
    "one_line",
    "paper_findings",
    "regressions",
]

LONG_QUANTITY = 30
"""A quantity given in words longer than this is written Q in the formulas, and said once
above them (a quoted phrase in display math cannot break across lines)."""

CORRECTED_FORMS = ("corrected", "rederived")
"""Forms that are not the paper's own: their status is the claim's status as corrected."""

def _depth_zero(text: str) -> list[bool]:
    """For each position of ``text``: whether it lies outside every bracket and norm bars."""
    depth, bars, out = 0, 0, []
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == "|" and text[i:i + 2] == "||":
            bars ^= 1
        out.append(depth == 0 and bars == 0)
    return out


def one_line(text: str, width: int = 120) -> str:
    """``text`` cut to about ``width`` characters (with an ellipsis) at a clause or word
    boundary outside brackets, so that no formula is cut in half."""
    text = " ".join(str(text).split())
    if len(text) <= width:
        return text
    ok = _depth_zero(text)
    clause = [i for i in range(width // 2, min(width, len(text)))
              if text[i] in ".;:," and ok[i] and (i + 1 == len(text) or text[i + 1] == " ")]
    if clause:
        return text[: clause[-1]].rstrip() + "…"
    words = [i for i in range(width // 3, min(width, len(text))) if text[i] == " " and ok[i]]
    if words:
        return text[: words[-1]].rstrip(" ,;:") + "…"
    return text[:width] + "…" if all(ok[:width]) else text


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (a full stop followed by a space and a capital)."""
    text = " ".join(str(text).split())
    m = re.search(r"(?<=[a-z0-9)\]'])\.\s+(?=[A-Z(])", text)
    return text[: m.start() + 1] if m else text


_DEFAULT_UNCHECKED = {
    "identity": "a definition or exact identity of the paper: no check yet",
    "step-size rule": "a step-size rule: no check yet (it enters the results that use it)",
    "complexity": "a count derived from other results: no check yet",
}


def default_unchecked(kind: str) -> str:
    """What to say of a result without a check when its encoding says nothing."""
    return _DEFAULT_UNCHECKED.get(kind, "no check yet")


_SHORT_UNCHECKED = {"identity": "a definition", "step-size rule": "a step-size rule",
                    "complexity": "a derived count"}


def short_unchecked(results: Sequence[ResultBlock]) -> str:
    """Why a claim has no check, in a few words for the findings table: the encoding's own
    reason (cut short), else its kind's."""
    own = next((r.unchecked for r in results if r.unchecked), "")
    if own:
        return one_line(first_sentence(own), 48)
    kinds = {r.kind for r in results}
    if len(kinds) == 1:
        return _SHORT_UNCHECKED.get(kinds.pop(), "no check yet")
    return "no check yet"


@dataclass
class Status:
    """A claim's status in one column: a word of ``CLAIM_STATUS`` and the text shown."""

    word: str
    text: str = ""

    def __post_init__(self) -> None:
        if not self.text:
            self.text = self.word


@dataclass
class ClaimFinding:
    """One claim of a paper: its results, the checks and errata on them, and its status."""

    paper_id: str
    name: str
    results: list[ResultBlock]
    rows: list[VerdictRow] = field(default_factory=list)
    errata: list[ErratumBlock] = field(default_factory=list)
    printed: Status = field(default_factory=lambda: Status("not checked"))
    corrected: Status = field(default_factory=lambda: Status("no corrected form", "—"))
    reason: str = ""
    home: list[ErratumBlock] = field(default_factory=list)
    """The errata whose check tests a result of this claim (or, without one, that name this
    claim first): their block prints them in full, the others refer to it."""

    @property
    def anchor(self) -> str:
        """The label of the claim's block."""
        from pflbounds.reporting.escape import label_name

        return label_name("claim", self.paper_id, self.name)

    @property
    def unexpected(self) -> list[VerdictRow]:
        return [r for r in self.rows if r.unexpected]

    @property
    def errata_shown(self) -> list[ErratumBlock]:
        """Its own errata (:attr:`home`) that a check shows."""
        return [e for e in self.home if e.status.startswith("shown")]

    @property
    def fails(self) -> bool:
        return self.printed.word in ("fails", "not unit-consistent") or \
            self.corrected.word in ("fails", "not unit-consistent")

    @property
    def post_hoc(self) -> bool:
        """It holds only through checks narrowed after a run (:attr:`VerdictRow.post_hoc`)."""
        return "holds post hoc" in (self.printed.word, self.corrected.word)

    @property
    def undecided(self) -> bool:
        return any(s.word in ("inconclusive", "error") for s in (self.printed, self.corrected))

    @property
    def in_quick(self) -> bool:
        """Whether the quick report gives the claim a block: it fails, is undecided, holds
        only post hoc, has an erratum shown, or a check or erratum that disagrees with its
        expectation."""
        return bool(self.fails or self.undecided or self.post_hoc or self.errata_shown
                    or self.unexpected or any(e.status == "check disagrees" for e in self.errata))

    @property
    def rank(self) -> int:
        """Order in the findings table: failures first, then regressions, undecided claims
        and claims that hold only post hoc, then errata shown, other errata, and the rest."""
        if self.fails:
            return 0
        if self.unexpected or self.undecided or self.post_hoc:
            return 1
        if self.errata_shown:
            return 2
        if self.errata:
            return 3
        return 4

    @property
    def tabled(self) -> bool:
        """A row of its own in the findings table (else a name in a summary line)."""
        return self.rank < 4


def _is_paper_form(form: str) -> bool:
    return form not in CORRECTED_FORMS


def _measure(row: VerdictRow, cv: ClaimVerdict, show_form: bool = True) -> str:
    """``ratio 1.07 at K = 30 (explicit)`` or the kind statistic."""
    if cv.ratio is not None:
        text = f"ratio {format_ratio(cv.ratio)}" + (f" at {cv.where}" if cv.where else "")
    else:
        text = _short_statistic(row.statistic)
    if show_form and cv.form not in ("printed", "corrected"):
        text += f" ({cv.form})"
    return text.strip()


def _short_statistic(stat: str) -> str:
    """A kind statistic without its tail (``(worst of 3)``)."""
    return re.sub(r"\s*\(worst of \d+\)$", "", stat or "")


def _side_status(items: Sequence[tuple[VerdictRow, ClaimVerdict]], dims: Sequence[str],
                 has_form: bool, not_run: bool, other_side: bool, unchecked: str) -> Status:
    fails = [(r, c) for r, c in items if c.verdict == "VIOLATED"]
    if fails:
        r, c = max(fails, key=lambda rc: (rc[1].ratio is not None,
                                          rc[1].ratio if rc[1].ratio is not None else 0.0))
        measure = _measure(r, c)
        text = "fails" + ("" if not measure else " " + measure if measure[0] == "(" else
                          ": " + measure)
        if len(fails) > 1:
            text += f" (+{len(fails) - 1} more)"
        if dims:
            text += "; not unit-consistent"
        return Status("fails", text)
    if dims:
        return Status("not unit-consistent")
    words = {c.verdict for _, c in items}
    if "ERROR" in words:
        return Status("error")
    if "INCONCLUSIVE" in words:
        return Status("inconclusive")
    planned = [(r, c) for r, c in items if not r.post_hoc]
    if "HOLDS" in {c.verdict for _, c in planned}:
        ratios = [c.ratio for _, c in planned if c.ratio is not None]
        text = "holds"
        if ratios:
            worst = format_ratio(max(ratios))
            text += f": ratio {worst}" if worst[0] in "<>" else f": ratio ≤ {worst}"
        return Status("holds", text)
    if "HOLDS" in words:  # only checks narrowed after a run hold: not a confirmed prediction
        return Status("holds post hoc")
    if not has_form:
        return Status("no corrected form", "—")
    if not_run:
        return Status("not run")
    if other_side:
        return Status("not checked", "not checked directly")
    return Status("not checked", "not checked" + (f": {unchecked}" if unchecked else ""))


def _skip_reason(why: str) -> str:
    """``needs JAX (...): pip install "pflbounds[jax]"`` from a skipped check's reason."""
    return re.sub(r"^check \S+ ", "", why).replace(", which is not installed", "")


def _finding(paper_id: str, name: str, results: list[ResultBlock], rows: list[VerdictRow],
             errata: list[ErratumBlock], ran: set[str],
             skipped: Mapping[str, str] | None = None) -> ClaimFinding:
    f = ClaimFinding(paper_id, name, results, rows, errata)
    items = [(r, c) for r in rows for c in r.claims]
    paper = [(r, c) for r, c in items if _is_paper_form(c.form)]
    corr = [(r, c) for r, c in items if not _is_paper_form(c.form)]
    dims_p = [fb.dimension for r in results for fb in r.forms
              if _is_paper_form(fb.name) and fb.dimension]
    dims_c = [fb.dimension for r in results for fb in r.forms
              if not _is_paper_form(fb.name) and fb.dimension]
    has_corr = any(not _is_paper_form(fb.name) for r in results for fb in r.forms)
    not_run = any(c not in ran for r in results for c in r.checks)
    unchecked = next((r.unchecked for r in results if r.unchecked), "")
    if not unchecked and results and not any(r.checks for r in results):
        unchecked = default_unchecked(results[0].kind)
    f.printed = _side_status(paper, dims_p, True, not_run, bool(corr),
                             short_unchecked(results) if results else "")
    f.corrected = _side_status(corr, dims_c, has_corr, not_run, False, "")
    f.reason = _reason(f, paper + corr, dims_p + dims_c, unchecked, not_run)
    why = sorted({_skip_reason(skipped[c]) for r in results for c in r.checks
                  if c not in ran and c in (skipped or {})})
    if why:  # its checks were skipped for a missing extra: say which, and how to run them
        for side in (f.printed, f.corrected):
            if side.word == "not run":
                side.text = "not run: " + "; ".join(why)
        if f.reason == "its checks are not in this run":
            f.reason = "its checks were skipped: " + "; ".join(why)
    return f


def _reason(f: ClaimFinding, items: Sequence[tuple[VerdictRow, ClaimVerdict]],
            dims: Sequence[str], unchecked: str, not_run: bool) -> str:
    fails = [(r, c) for r, c in items if c.verdict == "VIOLATED"]
    if fails:
        r, _ = max(fails, key=lambda rc: rc[1].ratio if rc[1].ratio is not None else 0.0)
        return r.title
    if dims:
        return dims[0]
    if f.unexpected:
        r = f.unexpected[0]
        return f"{r.title} (its verdict differs from what its check expects)"
    undecided = [r for r, c in items if c.verdict in ("INCONCLUSIVE", "ERROR")]
    if undecided:
        return undecided[0].title
    errata = sorted(f.errata, key=lambda e: (e.severity != "substantive",
                                             not e.status.startswith("shown")))
    if errata:
        e = errata[0]
        return f"{e.where}: {first_sentence(e.what)}"
    if items:
        n = len({r.check_id for r, _ in items})
        with_ratio = [(r, c) for r, c in items if c.ratio is not None]
        if with_ratio:
            r, _ = max(with_ratio, key=lambda rc: rc[1].ratio)
            return f"{n} check{'s' if n > 1 else ''}; tightest: {r.title}"
        return f"{n} check{'s' if n > 1 else ''}: {items[0][0].title}"
    if not_run:
        return "its checks are not in this run"
    return unchecked


def paper_findings(section: PaperSection) -> list[ClaimFinding]:
    """The claims of a paper in the order the paper's results are encoded, each with its
    results, the claim-role checks and errata on them, and its status."""
    groups: dict[str, list[ResultBlock]] = {}
    for r in section.results:
        groups.setdefault(r.claim, []).append(r)
    ran = {v.check_id for v in section.verdicts}
    errata_by_result: dict[str, list[ErratumBlock]] = {}
    for e in section.errata:
        for rid in e.result_ids:
            errata_by_result.setdefault(rid, []).append(e)
    out = []
    known = {r.id for r in section.results}
    for name, results in groups.items():
        ids = {r.id for r in results}
        rows = [v for v in section.verdicts if v.result_id in ids and v.role == "claim"]
        errata: list[ErratumBlock] = []
        for r in results:
            for e in errata_by_result.get(r.id, []):
                if e not in errata:
                    errata.append(e)
        for e in section.errata:  # errata that name a result only through their ids
            if not e.result_ids and any(eid == e.id for r in results for eid in r.errata_ids) \
                    and e not in errata:
                errata.append(e)
        out.append(_finding(section.paper_id, name, results, rows, errata, ran,
                            section.skipped))
    orphans: dict[str, list[VerdictRow]] = {}
    for v in section.verdicts:
        if v.result_id not in known and v.role == "claim":
            orphans.setdefault(_orphan_claim(v.title), []).append(v)
    for name, rows in orphans.items():
        out.append(_finding(section.paper_id, name, [], rows, [], ran))
    _homes(out)
    return out


def _homes(findings: Sequence[ClaimFinding]) -> None:
    """Give each erratum one home claim: the claim whose results its check tests, else the
    first claim that names it."""
    placed: set[str] = set()
    for f in findings:
        checks = {c for r in f.results for c in r.checks} | {v.check_id for v in f.rows}
        for e in f.errata:
            if e.check_id and e.check_id in checks and e.id not in placed:
                f.home.append(e)
                placed.add(e.id)
    for f in findings:
        for e in f.errata:
            if e.id not in placed:
                f.home.append(e)
                placed.add(e.id)


ORPHANS = "Checks of no encoded result"


def _orphan_claim(title: str) -> str:
    """The claim a check of no encoded result belongs to, named from its title."""
    name = claim_name(title)
    return name if _NAMED.match(name) else ORPHANS


def controls(report: Report) -> list[tuple[PaperSection, VerdictRow]]:
    """Every check whose role is ``control`` (planted claims, power checks)."""
    return [(s, v) for s, v in report.all_verdicts() if v.role == "control"]


def regressions(report: Report) -> list[tuple[PaperSection, VerdictRow]]:
    """Every verdict that differs from what its check expects (a regression of the tool)."""
    return [(s, v) for s, v in report.all_verdicts() if v.unexpected]


def names(findings: Iterable[ClaimFinding]) -> list[str]:
    return [f.name for f in findings]
