"""Holm's step-down correction over the Monte Carlo comparisons of a suite: how the checks of a
paper that declares no error family are judged in a suite.

Papers declare their error family (:mod:`pflbounds.running.multiplicity`); until a paper does,
its Monte Carlo checks are judged as before error families existed, so that their outcomes
do not move: one check run alone at its own ``1 - confidence`` (Bonferroni over its
comparisons), and in a suite by Holm's correction over every Monte Carlo comparison of the
suite (the checks of declaring papers count in that family as they did, but their own
verdicts use their paper's family). Those limits depend on what the suite holds.

Each Monte Carlo check corrects its own comparisons (Bonferroni at ``1 - confidence``), so a
suite of m Monte Carlo checks of true bounds can show a false VIOLATED in up to about
m x (1 - confidence) of its runs. Holm's procedure over the family of all comparisons of the
suite keeps the probability of any false rejection (the family-wise error) at
``level = 1 - confidence``.

The weighted form of Holm's procedure (Holm 1979) is used, with the level shared equally
among the Monte Carlo checks and, inside a check, equally among its comparisons: comparison
j of check c has weight w_j = 1/(n m_c) (n checks, m_c comparisons in check c), so a check
with many recorded K does not dilute a check with a single fit. Ordered by p_j / w_j, Holm
rejects while p_j <= level w_j / W, W the total weight of the hypotheses not yet rejected.
The rejected set is therefore {j : p_j <= level w_j / W} for the final W: one per-comparison
level per check reproduces the procedure. It is found as the fixed point of
``alpha_c = level / (n m_c W)``, ``W = 1 - sum of w_j over rejections``, starting from W = 1
(weighted Bonferroni); a rejection at level alpha is ``p <= alpha``, i.e. a one-sided
interval at level 1 - alpha lying wholly on the violating side, so only the verdict
functions' own limits are needed, for every kind (bounds, fits, identities, paired bounds,
Clopper-Pearson rates), without a separate p-value formula.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pflbounds.checking.check import Check
from pflbounds.checking.evidence import combine_blocks
from pflbounds.checking.verdicts import evaluate
from pflbounds.running.tasks import TaskResult


@dataclass(frozen=True)
class SuiteLevel:
    """The outcome of the suite-level correction: the family-wise ``level`` it guarantees,
    the per-comparison level of each Monte Carlo check (``alphas``), its comparisons, and the
    family's size and rejections."""

    level: float
    alphas: Mapping[str, float]
    comparisons: Mapping[str, int]
    rejections: int

    @property
    def checks(self) -> tuple[str, ...]:
        return tuple(self.alphas)

    @property
    def total(self) -> int:
        """The number of comparisons in the family."""
        return int(sum(self.comparisons.values()))

    def record(self, check_id: str) -> dict[str, Any]:
        """The entry of a Monte Carlo outcome's config (its verdict depends on it)."""
        return {"method": "holm", "family_level": self.level, "alpha": self.alphas[check_id],
                "check_comparisons": self.comparisons[check_id], "comparisons": self.total,
                "rejections": self.rejections, "checks": len(self.alphas)}


def holm_alphas(rejections_at: Callable[[Mapping[str, float]], Mapping[str, int]],
                comparisons: Mapping[str, int], level: float
                ) -> tuple[dict[str, float], int]:
    """Weighted Holm: the per-comparison level of each group (check) and the rejections.

    ``comparisons``: the number of comparisons of each group (each group gets weight 1/n,
    shared equally by its comparisons). ``rejections_at(alphas)`` counts, per group, the
    comparisons rejected at the given one-sided levels; it must grow with the levels.
    Returns ``(alphas, R)``: ``alphas[c] = level / (n m_c W)`` with ``W`` the weight left
    after the ``R`` rejections (``level / (n m_c)`` and 0 rejections when nothing is
    rejected: the weighted Bonferroni levels).
    """
    groups = {c: int(m) for c, m in comparisons.items() if int(m) > 0}
    if not groups:
        raise ValueError("Holm's correction needs at least one comparison")
    if not 0.0 < level < 1.0:
        raise ValueError(f"the family-wise level must lie in (0, 1), got {level}")
    n = len(groups)
    weight = {c: 1.0 / (n * m) for c, m in groups.items()}
    rejected = dict.fromkeys(groups, 0)
    while True:
        left = 1.0 - sum(weight[c] * r for c, r in rejected.items())
        if left <= 1e-12:  # every comparison rejected: Holm's last thresholds
            return {c: min(level, level * weight[c] / max(left, weight[c]))
                    for c in groups}, sum(rejected.values())
        alphas = {c: level * weight[c] / left for c in groups}
        now = {c: int(r) for c, r in rejections_at(alphas).items()}
        if all(now[c] <= rejected[c] for c in groups):
            return alphas, sum(rejected.values())
        rejected = {c: max(now[c], rejected[c]) for c in groups}
def _combined(check: Check, results: Sequence[TaskResult], n_points: int):
    """Combined evidence of each grid point, or None when a task failed."""
    if any(not r.ok for r in results):
        return None
    blocks: dict[int, list] = {}
    for r in sorted(results, key=lambda r: (r.task.point_index, r.task.block_index)):
        blocks.setdefault(r.task.point_index, []).append(r.evidence)
    if sorted(blocks) != list(range(n_points)):
        return None
    return [combine_blocks(blocks[p]) for p in range(n_points)]


def suite_level(
    items: Sequence[tuple[Check, Sequence[TaskResult], Sequence[Mapping[str, Any]]]],
) -> SuiteLevel | None:
    """Holm's correction over every Monte Carlo comparison of ``items`` (check, its task
    results, its grid). The family-wise level is the smallest ``1 - confidence`` of the
    Monte Carlo checks. None when the run has no Monte Carlo comparison (checks whose
    evidence cannot be evaluated are left out: their verdict is ERROR anyway)."""
    family: dict[str, tuple[Check, list, Sequence[Mapping[str, Any]]]] = {}
    sizes: dict[str, int] = {}
    for check, results, grid in items:
        if check.deterministic:
            continue
        evidence = _combined(check, results, len(grid))
        if evidence is None:
            continue
        try:
            n = evaluate(check, evidence, grid).comparisons
        except Exception:  # noqa: BLE001 - bad evidence: the check's outcome says ERROR
            continue
        if n:
            family[check.id] = (check, evidence, grid)
            sizes[check.id] = n
    if not family:
        return None
    level = min(round(1.0 - c.confidence, 12) for c, _, _ in family.values())

    def rejections_at(alphas: Mapping[str, float]) -> dict[str, int]:
        return {cid: evaluate(c, ev, grid, alpha=alphas[cid]).rejections
                for cid, (c, ev, grid) in family.items()}

    alphas, r = holm_alphas(rejections_at, sizes, level)
    return SuiteLevel(level, alphas, sizes, r)
