"""The ``Check`` record: a claim, the simulation that produces its evidence, and a grid."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.checking.draws import DrawPlan
from pflbounds.checking.jsonsafe import canonical_json
from pflbounds.checking.kinds import (
    BOUND_MODES,
    COSTS,
    ENGINES,
    ORDERS,
    RATE_AXES,
    SIDES,
    CheckKind,
    Verdict,
)

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome

Simulate = Callable[[Mapping[str, Any], int, np.random.SeedSequence], dict[str, np.ndarray]]
"""``simulate(params, n_replicas, seed_sequence) -> evidence block``."""


@dataclass(frozen=True, eq=False)
class Check:
    """A checkable claim with the simulation that produces its evidence.

    ``simulate(params, n_replicas, seed_sequence)`` is called once per grid point and
    replica block and returns a dict of arrays (the *evidence block*; conventions in
    :mod:`pflbounds.checking.evidence`). Grid points must be JSON-like mappings (numbers,
    strings, booleans, lists, nested dicts, numpy arrays): they enter seeds and config hashes.

    Kind-specific fields: ``predicted`` and ``tolerance`` for rate and scaling (``predicted`` is
    the exponent for ``rate_axis="loglog"`` and scaling, and the contraction factor per unit of
    the x-axis for ``rate_axis="semilog"``; ``side`` makes the claim one-sided); ``x_param``
    for scaling; ``tolerance`` for
    identity. ``rel_tol`` and ``abs_tol`` apply to deterministic (exact, symbolic) bound
    comparisons: a bound holds at a point when ``measured - bound <= rel_tol*|bound| + abs_tol``.
    ``confidence`` is the one-sided level of the Monte Carlo limits after a Bonferroni
    correction over all comparisons of the check (grid points x recorded K, or fits).
    ``bound_mode`` (bound_holds, Monte Carlo): ``expectation``, ``paired`` or ``per_replica``
    (:data:`pflbounds.checking.kinds.BOUND_MODES`); per-replica bounds come as
    ``bound_samples``. ``delta`` (holds_with_probability): the failure probability the claim
    allows. ``methods``, ``order`` and ``plan`` (comparison): the methods in the claimed order
    of their metric, ``increasing`` or ``decreasing`` along them, and the draws chosen before
    the run (:class:`~pflbounds.checking.draws.DrawPlan`; ``replicas`` is its draw count).

    Checks compare by identity; two checks are the same claim when their ids are equal.
    """

    id: str
    title: str
    kind: CheckKind
    expected: Verdict
    simulate: Simulate
    grid: tuple[Mapping[str, Any], ...]
    quick_grid: tuple[Mapping[str, Any], ...] | None = None
    engine: str = "exact"
    replicas: int = 1
    block_size: int = 500
    result_id: str | None = None
    form: str | None = None
    confidence: float = 0.99
    rel_tol: float = 1e-9
    abs_tol: float = 0.0
    predicted: float | None = None
    tolerance: float | None = None
    rate_axis: str = "loglog"
    side: str = "both"
    """Rate and scaling claims: ``both``, the estimate lies in predicted ± tolerance;
    ``at_most`` (``at_least``), a one-sided claim: the estimate is at most predicted +
    tolerance (at least predicted - tolerance), with no value predicted inside."""
    x_param: str | None = None
    bound_mode: str = "expectation"
    delta: float | None = None
    description: str = ""
    role: str = "claim"
    """``claim``: the verdict is about the paper's claim (its result and form); ``control``:
    a planted claim or a power check, whose verdict is about the checker (the report lists
    controls apart from the findings)."""
    requires: tuple[str, ...] = ()
    """Extras the check needs beyond the core install (``("jax",)``; the keys of
    :data:`pflbounds.extras.EXTRAS`): without them ``check`` refuses it in one line naming the
    ``pip install`` to run, and ``validate`` reports it skipped with that reason."""
    cost: str | None = None
    """How long a run of its full grid takes on 2 cores: ``cheap`` (under a minute),
    ``minutes`` (up to about a quarter of an hour) or ``long`` (more); None: derived by
    :func:`pflbounds.checking.cost.cost_of`."""
    methods: tuple[str, ...] = ()
    order: str = "increasing"
    plan: DrawPlan | None = None
    post_hoc: str = ""
    """Empty for a prediction fixed before its run. Otherwise the claim was narrowed after a
    run had been seen (its grid, side or tolerance chosen from the data), and this says how
    and why: the report labels the check *post hoc* and leaves its HOLDS out of the claims that
    hold (:data:`pflbounds.checking.vocabulary.CLAIM_STATUS`); the original prediction stays a
    check of its own."""
    plot: Callable[[Outcome], list[dict]] | None = None
    xlabel: str = ""
    ylabel: str = ""
    """Axis labels of the default figures (e.g. ``"K (oracle calls)"``, ``"E[F^K]"``)."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "kind", CheckKind(self.kind))
        set_(self, "expected", Verdict(self.expected))
        set_(self, "grid", _grid(self.id, "grid", self.grid))
        set_(self, "requires", tuple(self.requires))
        set_(self, "methods", tuple(str(m) for m in self.methods))
        if self.kind is CheckKind.COMPARISON and self.plan is not None and self.replicas == 1:
            set_(self, "replicas", int(self.plan.draws))  # the draws are the replicas
        if self.quick_grid is not None:
            set_(self, "quick_grid", _grid(self.id, "quick_grid", self.quick_grid))
        problems = list(_problems(self))
        if problems:
            raise ValueError(f"check {self.id!r}: " + "; ".join(problems))

    @property
    def paper(self) -> str:
        """The paper id: the part of the check id before the first dot."""
        return self.id.split(".", 1)[0]

    @property
    def deterministic(self) -> bool:
        """True for the exact and symbolic engines (no sampling noise)."""
        return self.engine != "mc"

    def grid_for(self, quick: bool = False) -> tuple[Mapping[str, Any], ...]:
        """The grid to run: ``quick_grid`` when ``quick`` and one is given, else ``grid``."""
        if quick and self.quick_grid is not None:
            return self.quick_grid
        return self.grid


def requiring(extras: tuple[str, ...], checks: Iterable[Check]) -> list[Check]:
    """``checks``, each declaring that it needs ``extras`` as well (:attr:`Check.requires`):
    ``CHECKS = requiring(("jax",), [...])`` for a module of checks that all train networks."""
    return [replace(c, requires=tuple(dict.fromkeys((*c.requires, *extras)))) for c in checks]


def _grid(check_id: str, name: str, grid: Any) -> tuple[dict[str, Any], ...]:
    if isinstance(grid, Mapping):
        grid = (grid,)
    points = tuple(dict(p) for p in grid)
    if not points:
        raise ValueError(f"check {check_id!r}: {name} is empty")
    for i, p in enumerate(points):
        try:
            canonical_json(p)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"check {check_id!r}: {name} point {i} is not JSON-like ({exc})"
            ) from None
    return points


def _problems(c: Check) -> list[str]:
    out: list[str] = []
    if not isinstance(c.id, str) or not c.id or any(ch.isspace() for ch in c.id):
        out.append("id must be a non-empty string without spaces")
    if not callable(c.simulate):
        out.append("simulate must be callable")
    from pflbounds.extras import EXTRAS

    bad = [e for e in c.requires if e not in EXTRAS]
    if bad:
        out.append(f"requires names unknown extras {bad}; expected some of {sorted(EXTRAS)}")
    if c.cost is not None and c.cost not in COSTS:
        out.append(f"cost must be one of {COSTS} or None, got {c.cost!r}")
    if not isinstance(c.post_hoc, str):
        out.append(f"post_hoc must be a string (how and why the claim was narrowed after a "
                   f"run), got {c.post_hoc!r}")
    if c.role not in ("claim", "control"):
        out.append(f"role must be 'claim' or 'control', got {c.role!r}")
    if c.engine not in ENGINES:
        out.append(f"engine must be one of {ENGINES}, got {c.engine!r}")
    if c.rate_axis not in RATE_AXES:
        out.append(f"rate_axis must be one of {RATE_AXES}, got {c.rate_axis!r}")
    if int(c.replicas) < 1 or int(c.block_size) < 1:
        out.append("replicas and block_size must be >= 1")
    if not 0.0 < c.confidence < 1.0:
        out.append(f"confidence must lie in (0, 1), got {c.confidence}")
    if c.rel_tol < 0 or c.abs_tol < 0:
        out.append("rel_tol and abs_tol must be >= 0")
    if c.kind in (CheckKind.RATE, CheckKind.SCALING):
        if c.predicted is None or c.tolerance is None:
            out.append(f"{c.kind.value} checks need predicted and tolerance")
        if c.side not in SIDES:
            out.append(f"side must be one of {SIDES}, got {c.side!r}")
        if c.kind is CheckKind.RATE and c.rate_axis == "semilog" and c.predicted is not None:
            if c.predicted <= 0:
                out.append("a semilog rate predicts a contraction factor > 0")
    if c.kind is CheckKind.SCALING:
        if not c.x_param:
            out.append("scaling checks need x_param (the swept grid parameter)")
        else:
            for grid in (c.grid, c.quick_grid or ()):
                for i, p in enumerate(grid):
                    if c.x_param not in p:
                        out.append(f"grid point {i} lacks x_param {c.x_param!r}")
    if c.bound_mode not in BOUND_MODES:
        out.append(f"bound_mode must be one of {BOUND_MODES}, got {c.bound_mode!r}")
    elif c.bound_mode != "expectation" and (c.kind is not CheckKind.BOUND_HOLDS
                                            or c.engine != "mc"):
        out.append(f"bound_mode {c.bound_mode!r} needs a Monte Carlo bound_holds check")
    if c.kind is CheckKind.HOLDS_WITH_PROBABILITY:
        if c.delta is None or not 0.0 < c.delta < 1.0:
            out.append(f"holds_with_probability needs delta in (0, 1), got {c.delta}")
        if c.engine != "mc":
            out.append("holds_with_probability counts violations over draws: engine 'mc'")
    if c.kind is CheckKind.COMPARISON:
        out.extend(_comparison_problems(c))
    elif c.methods or c.plan is not None:
        out.append("methods and plan belong to comparison checks")
    if c.kind is CheckKind.IDENTITY and c.tolerance is None:
        out.append("identity checks need tolerance")
    if c.tolerance is not None and c.tolerance < 0:
        out.append("tolerance must be >= 0")
    if c.kind is CheckKind.ERRATUM and c.expected not in (
        Verdict.CONFIRMED, Verdict.NOT_CONFIRMED, Verdict.INCONCLUSIVE
    ):
        out.append("an erratum check expects CONFIRMED, NOT_CONFIRMED or INCONCLUSIVE")
    if c.kind is not CheckKind.ERRATUM and c.expected in (
        Verdict.CONFIRMED, Verdict.NOT_CONFIRMED
    ):
        out.append(f"only erratum checks can expect {c.expected.value}")
    return out


def _comparison_problems(c: Check) -> list[str]:
    out: list[str] = []
    if c.engine != "mc":
        out.append("a comparison is judged over independent draws: engine 'mc'")
    if len(c.methods) < 2 or len(set(c.methods)) != len(c.methods):
        out.append(f"a comparison needs two or more distinct methods, got {c.methods}")
    if c.order not in ORDERS:
        out.append(f"order must be one of {ORDERS}, got {c.order!r}")
    if c.plan is None:
        out.append("a comparison declares its draws before the run: plan=DrawPlan(...)")
    elif int(c.replicas) != int(c.plan.draws):
        out.append(f"replicas ({c.replicas}) must equal the plan's draws ({c.plan.draws})")
    return out
