"""The ``Outcome`` of running a check: verdict, margin, evidence and provenance."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from pflbounds.checking.jsonsafe import decode_array, decode_float, to_jsonable
from pflbounds.checking.kinds import CheckKind, Verdict
from pflbounds.checking.vocabulary import derive_claims

_FIT_ARRAYS = ("ks", "x", "cost")
_POINT_PLAIN = ("params", "point")


@dataclass
class Outcome:
    """Result of one check over its grid.

    ``margin``: bound kinds: the smallest bound/measured ratio (lower bounds: measured/bound),
    so values >= 1 mean the bound holds with room; rate and scaling: the largest
    |estimate - predicted|; identity: tolerance / max residual; erratum: the printed bound's
    margin; comparison: the smallest lower limit of a claimed paired difference (> 0: every
    pair on the claimed side), in the metric's units. ``evidence``: one dict per grid point
    with ``point``, ``params`` and arrays (``ks``, ``mean``, ``lo``, ``hi``, ``bound`` ...
    and any extra evidence). ``fits``: the
    slope fits of rate and scaling checks. ``elapsed``: seconds spent in the check's tasks
    (summed over workers). ``timestamp``: UTC time of aggregation (ISO 8601). ``claims``: the
    verdict of each claim the check tests, form -> verdict (two for an erratum check: its
    printed side and ``corrected``; :mod:`pflbounds.checking.vocabulary`); the report and the
    command line speak of these, ``verdict`` is what is matched against ``expected``.
    """

    check_id: str
    kind: CheckKind
    verdict: Verdict
    expected: Verdict
    margin: float | None = None
    replicas: int = 1
    seed: int = 0
    config: dict[str, Any] = field(default_factory=dict)
    config_hash: str = ""
    evidence: list[dict[str, Any]] = field(default_factory=list)
    detail: str = ""
    elapsed: float = 0.0
    version: str = ""
    error: str | None = None
    title: str = ""
    fits: list[dict[str, Any]] = field(default_factory=list)
    timestamp: str = ""
    claims: dict[str, Verdict] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.kind = CheckKind(self.kind)
        self.verdict = Verdict(self.verdict)
        self.expected = Verdict(self.expected)
        self.claims = {str(k): Verdict(v) for k, v in (self.claims or {}).items()}

    @property
    def as_expected(self) -> bool:
        """True when the verdict is the one the check declares it expects."""
        return self.verdict == self.expected

    @property
    def paper(self) -> str:
        """The paper id (prefix of the check id)."""
        return self.check_id.split(".", 1)[0]

    def _repr_html_(self) -> str:
        """The outcome in Jupyter: each claim's verdict (and the expected one where it
        differs), its ratio or the kind's statistic, and the detail."""
        import html

        from pflbounds.checking.ratio import format_ratio, kind_statistic, outcome_ratios
        from pflbounds.checking.vocabulary import expected_claims

        form = (self.config or {}).get("form")
        claims = self.claims or derive_claims(self.kind, form, self.verdict, self.detail)
        want = expected_claims(self.kind, form, self.expected)
        try:
            ratios = outcome_ratios(self)
            stat = "" if ratios else kind_statistic(self)
        except Exception:  # noqa: BLE001 - a display never fails on odd evidence
            ratios, stat = {}, ""
        e = html.escape
        rows = []
        for f, v in claims.items():
            expected = want.get(f)
            mark = "" if expected in (None, v.value) else f" (expected {e(expected)})"
            r = ratios.get(f)
            rows.append(f"<tr><td>{e(f)}</td><td><b>{e(v.value)}</b>{mark}</td>"
                        f"<td>{e(format_ratio(r.ratio)) if r is not None else e(stat)}</td>"
                        "</tr>")
        state = "as expected" if self.as_expected else "<b>differs from what it expects</b>"
        title = f" — {e(self.title)}" if self.title else ""
        return (f"<div><p><code>{e(self.check_id)}</code>{title}: {state}</p>"
                "<table><thead><tr><th>claim</th><th>verdict</th><th>ratio or statistic</th>"
                f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
                f"<p><small>{e(self.detail)}</small></p></div>")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (arrays as lists, non-finite floats as "nan"/"inf"/"-inf")."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["as_expected"] = self.as_expected
        return to_jsonable(out)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """Inverse of :meth:`to_dict` (arrays come back as numpy arrays)."""
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in data.items() if k in names}
        kw["margin"] = decode_float(kw.get("margin"))
        kw["elapsed"] = float(decode_float(kw.get("elapsed", 0.0)))
        kw["evidence"] = [_decode_point(p) for p in data.get("evidence", [])]
        kw["fits"] = [_decode_fit(f) for f in data.get("fits", [])]
        out = cls(**kw)
        if not out.claims:  # saved before outcomes carried their claim verdicts
            out.claims = derive_claims(out.kind, (out.config or {}).get("form"), out.verdict,
                                       out.detail)
        return out


def _decode_point(p: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in p.items():
        if k in _POINT_PLAIN:
            out[k] = v
        elif isinstance(v, (list, int, float)) or (isinstance(v, str) and decode_float(v) != v):
            out[k] = decode_array(v)
        else:
            out[k] = v
    return out


def _decode_fit(f: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in f.items():
        if k in _FIT_ARRAYS:
            out[k] = decode_array(v)
        elif k == "verdict":
            out[k] = Verdict(v)
        else:
            out[k] = decode_float(v)
    return out

