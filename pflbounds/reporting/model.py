"""The data a report is made from.

These dataclasses are the contract between the rest of pflbounds and the reporting layer:
the checking engine and the paper modules fill them with plain values (strings, numbers,
lists), and :mod:`pflbounds.reporting.pdf` turns them into a PDF. Nothing here imports the
rest of the package but the vocabulary (:mod:`pflbounds.checking.vocabulary`, for the claim
verdicts and erratum statuses it derives), so a report can be built, tested and regenerated
from plain data.

Conventions
-----------
* **Prose** fields (titles, statements, details, notes, evidence, captions) are plain text in
  the notation of the papers' digests (``E[f_i(x_i^K)]``, ``b_ij^2/(2 mu)``). The document
  typesets the notation as math and escapes the rest
  (:func:`pflbounds.reporting.plainmath.to_typst`), so any character is safe; no Typst
  markup is interpreted.
* **Math** fields (``FormBlock.typst``, ``ResultBlock.conditions``) hold Typst math source,
  the inside of ``$ ... $``, as produced by :func:`pflbounds.symbolic.typst_printer.typst_math`.
  They are inserted verbatim.
* **Identifiers** (``check_id``, ``result_id``, ``config_hash``, ...) are shown in a monospace
  font and kept verbatim in the ``.typ`` source so that they can be searched for.
* Verdicts are strings. The report shows claim verdicts only (``HOLDS``, ``VIOLATED``,
  ``INCONCLUSIVE``, ``ERROR``: :data:`pflbounds.checking.vocabulary.CLAIM_VERDICTS`), one per
  claim a check tests (:class:`ClaimVerdict`); a check's own verdict (``CONFIRMED`` for an
  erratum check) is only matched against its expectation, and a verdict is marked only when
  it differs from it.
* Numbers in prose are printed to 4 significant digits; ratios to 3
  (:func:`pflbounds.checking.ratio.format_ratio`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pflbounds.reporting.claim_names import claim_name
from pflbounds.reporting.figure_model import PlotSpec, RefLine, Series, ValueTable

__all__ = [
    "VERDICTS",
    "AssumptionRow",
    "ClaimVerdict",
    "ErratumBlock",
    "FormBlock",
    "PaperSection",
    "PlotSpec",
    "Provenance",
    "ProvenanceRow",
    "RefLine",
    "Report",
    "ResultBlock",
    "Series",
    "ValueTable",
    "VerdictRow",
]

#: Claim verdicts, as the report colours them: HOLDS green, VIOLATED red, INCONCLUSIVE amber,
#: ERROR grey (:data:`pflbounds.checking.vocabulary.CLAIM_VERDICTS`).
VERDICTS: tuple[str, ...] = ("HOLDS", "VIOLATED", "INCONCLUSIVE", "ERROR")

@dataclass
class ClaimVerdict:
    """The verdict of a check on one claim (a form of its result).

    Attributes:
        form: the form, e.g. ``printed`` or ``corrected``.
        verdict: ``HOLDS``, ``VIOLATED``, ``INCONCLUSIVE`` or ``ERROR``.
        expected: the claim verdict the check expects ("" when it expects none for this form).
        ratio: measured/bound (bound/measured for a lower bound) where largest, for bound
            kinds; None otherwise.
        where: where the ratio (or the kind statistic) was found (``K = 30, n = 3``).
    """

    form: str
    verdict: str
    expected: str = ""
    ratio: float | None = None
    where: str = ""


@dataclass
class VerdictRow:
    """The outcome of one check.

    Attributes:
        check_id: e.g. ``even2022.theorem3.bound_holds_clusters``.
        title: one line saying what is checked.
        kind: check kind (``bound_holds``, ``rate``, ``scaling``, ``lower_bound_respected``,
            ``identity``, ``erratum``).
        result_id: the result checked, e.g. ``even2022.theorem3``.
        form: the form checked (``printed``, ``explicit`` or ``corrected``).
        verdict: ``HOLDS``, ``VIOLATED``, ``INCONCLUSIVE``, ``CONFIRMED`` or another string.
        expected: the verdict the check declares it expects.
        as_expected: whether ``verdict`` matches ``expected``; rows where it does not are
            marked in every table.
        margin: smallest bound/measured ratio (how tight the bound is), if any.
        replicas: Monte Carlo replicas, or ``None`` for an exact (closed-form) engine.
        detail: one sentence with the key numbers.
        config_hash: hash of the canonical configuration (cache key).
        seed: root seed of the run, if random.
        plots: figures shown with the check.
        tables: value tables shown with the check (in place of figures without information).
        claims: the claim verdicts (:class:`ClaimVerdict`); empty: one claim, ``form``,
            with ``verdict``.
        role: ``claim`` or ``control`` (a planted claim or a power check).
        statistic: the kind statistic of a rate, scaling, identity or probability check.
        errata_ids: the errata this check demonstrates.
        post_hoc: empty for a prediction fixed before its run; else how and why the claim was
            narrowed after a run had been seen (:attr:`pflbounds.checking.Check.post_hoc`).
    """

    check_id: str
    title: str
    kind: str
    result_id: str
    form: str
    verdict: str
    expected: str
    as_expected: bool
    margin: float | None = None
    replicas: int | None = None
    detail: str = ""
    config_hash: str = ""
    seed: int | None = None
    plots: list[PlotSpec] = field(default_factory=list)
    tables: list[ValueTable] = field(default_factory=list)
    claims: list[ClaimVerdict] = field(default_factory=list)
    role: str = "claim"
    statistic: str = ""
    errata_ids: list[str] = field(default_factory=list)
    post_hoc: str = ""

    def __post_init__(self) -> None:
        if not self.claims:
            from pflbounds.checking.vocabulary import claims_of, expected_claims

            try:
                got = claims_of(self.kind, self.form, self.verdict)
                want = expected_claims(self.kind, self.form, self.expected)
            except ValueError:  # a kind or verdict pflbounds does not know: shown as given
                got, want = {self.form or "printed": self.verdict}, {}
            self.claims = [ClaimVerdict(f, str(getattr(v, "value", v)), want.get(f, ""))
                           for f, v in got.items()]

    @property
    def unexpected(self) -> bool:
        """The verdict differs from what the check expects (a regression of the tool)."""
        return not self.as_expected


@dataclass
class FormBlock:
    """One form of a result, rendered as display math.

    Attributes:
        name: ``printed`` (as stated in the paper), ``explicit`` (constants from the proof)
            or ``corrected`` (errata applied).
        typst: Typst math source, the inside of ``$ ... $``.
        note: one sentence shown under the formula (prose), optional.
        hidden_constants: one entry per hidden-constant marker in the form, e.g.
            ``"Õ(·): up to constant and logarithmic factors"`` (prose). The report explains
            each marker once per paper, not under every form.
        conditions: side conditions of this form, as Typst math.
        marked: the same math with what changed from the form ``compared_with`` marked
            (``#added``/``#removed`` helpers of the document); empty when nothing is marked.
        compared_with: the form the marks refer to.
        dimension: "" when the form is unit-consistent (or its units are not checked), else
            what is wrong.
        marked_changed: ``marked`` restricted to the parts that change (a form with several
            parts); empty when every part changes.
    """

    name: str
    typst: str
    note: str = ""
    hidden_constants: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    marked: str = ""
    compared_with: str = ""
    dimension: str = ""
    marked_changed: str = ""


@dataclass
class ResultBlock:
    """A lemma, theorem, corollary or proposition.

    Attributes:
        id: result id, e.g. ``even2022.theorem2``.
        label: the paper's label, e.g. ``Theorem 2``.
        kind: ``upper bound``, ``lower bound``, ``complexity``, ``step-size rule``,
            ``identity``.
        quantity: what it bounds (prose), e.g. ``E[f_i(x_i^K)] - f_i^*`` for agent i.
        statement: short prose statement.
        hypotheses: named assumptions (prose), e.g. ``Assumption 1 (noise)``.
        conditions: side conditions as Typst math, e.g. ``eta <= frac(1, 2 L)``.
        forms: the forms to display, in order.
        errata_ids: ids of errata that concern this result.
        quantity_typst: the quantity as Typst math, when known (shown instead of
            ``quantity``).
        claim: the paper's name of the claim the result belongs to (``Theorem 4.3``);
            derived from ``label`` when empty.
        unchecked: why no check tests it (empty: the kind's default is said).
        checks: every registered check of the result, run or not.
        exercised_by: ``(check ids, how)``: checks of other results that exercise it, and
            how (``its hanzely2023.erratum13``, ``same claim: Theorem 2``).
        notes: remarks of the encoding (prose).
        tightness: the tightness audit's entries of the result (empty: not searched).
    """

    id: str
    label: str
    kind: str
    quantity: str
    statement: str = ""
    hypotheses: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    forms: list[FormBlock] = field(default_factory=list)
    errata_ids: list[str] = field(default_factory=list)
    quantity_typst: str = ""
    claim: str = ""
    unchecked: str = ""
    checks: list[str] = field(default_factory=list)
    exercised_by: list[tuple[list[str], str]] = field(default_factory=list)
    notes: str = ""
    tightness: list[dict[str, Any]] = field(default_factory=list)
    """The tightness audit's entries of this result (worst ratio, instance in words, how it
    was found: :mod:`pflbounds.reporting.tightness_text`); empty when not searched."""

    def __post_init__(self) -> None:
        if not self.claim:
            self.claim = claim_name(self.label)


@dataclass
class AssumptionRow:
    """One assumption of a paper: id (e.g. ``A1``), short name and statement (prose)."""

    id: str
    name: str
    statement: str


@dataclass
class ErratumBlock:
    """A documented error in a paper and the check that demonstrates it.

    Attributes:
        id: erratum id, e.g. ``even2022.E3``.
        where: location in the paper, e.g. ``Corollary 1``.
        what: what is wrong (prose).
        fix: the correction (prose).
        check_id: the check that demonstrates it.
        verdict: that check's verdict, ``expected`` the verdict it expects (empty when the
            check did not run or there is none); internal, matched to decide ``status``.
        evidence: one sentence with numbers.
        plots: figures shown with the erratum when its check's figures are not in the report.
        severity: ``substantive``, ``proof``, ``notation`` or ``typo``.
        known: how it is known: ``run``, ``counterexample`` or ``text``.
        status: :data:`pflbounds.checking.vocabulary.ERRATUM_STATUS`; derived when empty.
        result_ids: the results it concerns.
        claims: the claim verdicts its check gave.
    """

    id: str
    where: str
    what: str
    fix: str
    check_id: str = ""
    verdict: str = ""
    evidence: str = ""
    plots: list[PlotSpec] = field(default_factory=list)
    expected: str = ""
    severity: str = "substantive"
    known: str = ""
    status: str = ""
    result_ids: list[str] = field(default_factory=list)
    claims: list[ClaimVerdict] = field(default_factory=list)

    def __post_init__(self) -> None:
        from pflbounds.checking.vocabulary import erratum_status

        if not self.known:
            self.known = "run" if self.check_id else "text"
        if not self.status:
            ran = bool(self.verdict) and self.verdict != "not run"
            self.status = erratum_status(self.known, self.check_id, ran,
                                         self.verdict == (self.expected or "CONFIRMED"))


@dataclass
class PaperSection:
    """Everything the report shows about one paper."""

    paper_id: str
    title: str
    citation: str = ""
    assumptions: list[AssumptionRow] = field(default_factory=list)
    results: list[ResultBlock] = field(default_factory=list)
    verdicts: list[VerdictRow] = field(default_factory=list)
    errata: list[ErratumBlock] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    """Checks of the run that were skipped, with why (an extra that is not installed)."""


@dataclass
class ProvenanceRow:
    """Seed and configuration hash of one check run."""

    check_id: str
    seed: int | None
    config_hash: str


@dataclass
class Provenance:
    """How to regenerate every number in the report.

    Attributes:
        version: pflbounds version.
        command: the command line that wrote the report.
        data_command: the ``pflbounds validate`` command that produced the results (and
            regenerates them bitwise).
        created: ISO 8601 time of creation.
        python: Python version.
        platform: platform string.
        rows: one ``(check_id, seed, config_hash)`` per check; plain tuples are accepted
            and converted to :class:`ProvenanceRow`.
        suite: name of the validation suite, if any.
        commit: the git commit of the pflbounds source, or why there is none.
        packages: ``(name, version)`` of the libraries the numbers depend on ("not
            installed" for a missing one).
        runtime: how long the checks took.
        seed: the root seed of the run (all of them when several).
    """

    version: str
    command: str
    created: str
    python: str = ""
    platform: str = ""
    rows: list[ProvenanceRow] = field(default_factory=list)
    suite: str = ""
    data_command: str = ""
    commit: str = ""
    packages: list[tuple[str, str]] = field(default_factory=list)
    runtime: str = ""
    seed: str = ""

    def __post_init__(self) -> None:
        self.rows = [r if isinstance(r, ProvenanceRow) else ProvenanceRow(*r) for r in self.rows]


@dataclass
class Report:
    """A whole report: a title, one section per paper, and the provenance appendix."""

    title: str
    sections: list[PaperSection] = field(default_factory=list)
    provenance: Provenance | None = None
    audit: Any = None
    """The audit chapter (:class:`pflbounds.reporting.audit_page.AuditPage`), or None."""
    error_control: str = ""
    """How the Monte Carlo verdicts control false alarms: one sentence for the overview."""
    detail: str = "quick"
    """``quick``: findings, controls, errata and a block per failing or erratum-shown claim;
    ``full``: also a block for every other claim, and each check's seed and hash."""

    def all_verdicts(self) -> list[tuple[PaperSection, VerdictRow]]:
        """Every verdict row with its section, in report order."""
        return [(s, v) for s in self.sections for v in s.verdicts]
