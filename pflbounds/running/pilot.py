"""A pilot run of a comparison check, for planning its draws
(:func:`pflbounds.checking.pilot.plan_from_pilot`): the check's simulation at each grid point
with ``draws`` draws from a base seed other than the suite's, and per point and pair the mean
and standard deviation of the claimed paired difference.

Run it on streams the check's verdicts never use (a base seed outside the suite seed and its
stability seeds), and record the result beside the paper's declarations: the plan is then
declared before any run that decides the check.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from pflbounds.checking.check import Check
from pflbounds.checking.kinds import CheckKind
from pflbounds.checking.pilot import PilotPlan, plan_from_pilot

__all__ = ["pilot_of", "plans_from_record"]


def pilot_of(check: Check, draws: int, seed: int) -> dict[str, Any]:
    """The pilot of a comparison ``check``: ``{"seed", "draws", "seconds_per_draw",
    "pairs"}``, ``pairs`` a list (grid points, then consecutive method pairs) of ``[mean,
    sd]`` of the claimed difference (> 0: on the claimed side). Every point starts from
    ``SeedSequence(seed)``, so points that share an experiment's runs read the same draws."""
    if check.kind is not CheckKind.COMPARISON:
        raise ValueError(f"{check.id} is a {check.kind.value} check; a pilot plans the draws "
                         "of a comparison")
    if int(draws) < 3:
        raise ValueError(f"a pilot needs at least 3 draws, got {draws}")
    sign = 1.0 if check.order == "increasing" else -1.0
    pairs: list[list[float]] = []
    t0 = time.perf_counter()
    for p in check.grid:
        point = {**p, "seeds": int(draws)} if "seeds" in p else dict(p)
        ev = check.simulate(point, int(draws), np.random.SeedSequence(int(seed)))
        x = np.asarray(ev["draws"], dtype=float)
        if x.shape != (int(draws), len(check.methods)):
            raise ValueError(f"{check.id}: the simulation gave draws of shape {x.shape}, "
                             f"expected ({draws}, {len(check.methods)})")
        d = sign * np.diff(x, axis=1)
        pairs += [[float(m), float(s)] for m, s in zip(d.mean(0), d.std(0, ddof=1),
                                                      strict=True)]
    return {"seed": int(seed), "draws": int(draws),
            "seconds_per_draw": (time.perf_counter() - t0) / int(draws), "pairs": pairs}


def plans_from_record(record: dict[str, Any], paper: str) -> dict[str, tuple[PilotPlan, float]]:
    """Per check of a pilot ``record`` (``{"checks": {id: pilot_of(...)}}``, as a paper keeps
    it beside its declarations), the plan :func:`~pflbounds.checking.pilot.plan_from_pilot`
    gives and the one-sided per-comparison level it was planned at: the level a run applies
    (the check's share of ``paper``'s family-wise level, or its ``1 - confidence`` where the
    paper declares no family) over the check's comparisons on its full grid. ``ValueError``
    names a check ``paper`` does not register or a pilot whose pairs do not match the check."""
    from pflbounds.checking import registry
    from pflbounds.checking.comparison import comparisons_of
    from pflbounds.running.multiplicity import paper_family

    fam = paper_family(paper)
    out: dict[str, tuple[PilotPlan, float]] = {}
    for cid, rec in record["checks"].items():
        check = registry.find(cid)
        if check is None or check.paper != paper or check.kind is not CheckKind.COMPARISON:
            raise ValueError(f"{cid} is not a comparison check of {paper}")
        m = comparisons_of(check, len(check.grid))
        if len(rec["pairs"]) != m:
            raise ValueError(f"{cid}: the pilot holds {len(rec['pairs'])} pairs, the check "
                             f"makes {m} comparisons")
        level = (fam.level * float(fam.shares[cid]) if fam is not None and cid in fam.shares
                 else 1.0 - check.confidence)
        alpha = level / m
        out[cid] = (plan_from_pilot(rec["pairs"], int(rec["draws"]), alpha), alpha)
    return out
