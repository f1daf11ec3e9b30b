"""The one line per outcome that ``check`` and ``validate`` print."""

from __future__ import annotations

from typing import Any

from pflbounds.checking.ratio import format_ratio, kind_statistic, outcome_ratios
from pflbounds.checking.vocabulary import claims_text, derive_claims, expected_claims


def outcome_line(outcome: Any, width: int = 0) -> str:
    """One line for ``check`` and ``validate``: the claim verdicts, the expected ones only when
    they differ, the ratio or kind statistic, and the detail."""
    form = (outcome.config or {}).get("form")
    claims = outcome.claims or derive_claims(outcome.kind, form, outcome.verdict,
                                             outcome.detail)
    mark = "ok " if outcome.as_expected else "!! "
    text = claims_text(claims)
    if not outcome.as_expected:
        want = expected_claims(outcome.kind, form, outcome.expected)
        text += f" (expected {claims_text(want)})"
    extra = ""
    try:
        ratios = outcome_ratios(outcome)
        worst = [r for r in ratios.values() if r.ratio is not None]
        if worst:
            extra = "  " + "; ".join(f"{r.form} ratio {format_ratio(r.ratio)}" for r in worst)
        else:
            stat = kind_statistic(outcome)
            extra = f"  {stat}" if stat else ""
    except Exception:  # noqa: BLE001 - a summary line never stops the command
        extra = ""
    return f"{mark}{outcome.check_id:<{width}}  {text}{extra}  {outcome.detail}"
