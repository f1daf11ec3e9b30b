"""How long a check takes, in three classes, for ``pflbounds list --checks``.

A check may declare its class (``Check(cost=...)``); otherwise it is derived from what the
check runs, and the basis is given with it:

* ``cheap`` (under a minute): a symbolic check; an exact check on at most
  :data:`EXACT_CHEAP` grid points; a Monte Carlo check of at most :data:`MC_CHEAP`
  replica-points (replicas times grid points);
* ``minutes`` (up to about a quarter of an hour on 2 cores): a check that trains networks (it
  needs JAX: scott2024's took 20 s to 5 min of worker time each in its suite, see
  ``benchmarks/README.md``); every check not in the other two classes;
* ``long`` (more): a Monte Carlo check of more than :data:`MC_LONG` replica-points, and the
  checks that declare it (erickson2025's §5.1 experiments: 25 minutes of one worker).

``--quick`` runs a check's quick grid; every check of the quick suite runs its quick grid
there, and the whole suite takes under 2 minutes on 2 cores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pflbounds.checking.kinds import COSTS

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.check import Check

__all__ = ["COSTS", "EXACT_CHEAP", "MC_CHEAP", "MC_LONG", "cost_of"]

EXACT_CHEAP = 20
MC_CHEAP = 20_000
MC_LONG = 2_000_000


def cost_of(check: Check) -> tuple[str, str]:
    """``(class, basis)``: the cost class of a run of the check's full grid and why."""
    if check.cost is not None:
        return check.cost, "declared"
    points = len(check.grid)
    if "jax" in check.requires:
        return "minutes", "trains networks (JAX)"
    if check.engine == "symbolic":
        return "cheap", "symbolic"
    if check.engine == "exact":
        return ("cheap" if points <= EXACT_CHEAP else "minutes"), f"exact, {points} points"
    work = points * int(check.replicas)
    what = f"Monte Carlo, {check.replicas} replicas x {points} points"
    if work <= MC_CHEAP:
        return "cheap", what
    return ("long" if work > MC_LONG else "minutes"), what
