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

__all__ = ["pilot_of"]


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
