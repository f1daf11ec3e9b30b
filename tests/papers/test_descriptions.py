"""Check descriptions say what is claimed and how it is measured; measured numbers come from the
evidence into the report, never typed by hand (they drift from run to run).

A number that looks measured is a decimal with three or more significant digits (``8.05``,
``0.331``, ``1.073``) that is none of the check's own design values (its grid, tolerance,
prediction, levels, draw plan), no numeric constant of its paper's formulas, and no constant
of the paper declared below with where it comes from. No paper's descriptions have one: a new
one fails the test.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy as sp

from pflbounds.checking import Check, CheckKind, Verdict, registry
from pflbounds.symbolic import catalog

NUMBER = re.compile(r"(?<![\w.])(\d*\.\d+|\d+\.\d*)([eE][-+]?\d+)?(?![\w])")
"""A decimal number (with an optional exponent), not part of a name or a version."""

CONSTANTS: dict[str, dict[str, str]] = {
    "even2022": {
        "8.79": "the Fano bound KL <= 8.79 delta^2 of Theorem 1's proof (Instance A); the "
                "explicit K_LB holds it as 25/7911 = 1/(8.79 * 900)",
    },
}
"""Constants of a paper quoted in descriptions, by paper: the number as written, and its
source in the paper."""

PENDING: dict[str, tuple[str, ...]] = {}
"""Numbers that look measured in a description and are allowed for now, by check: none (a
new one fails the test)."""
CLEAN = ("even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024")
"""Papers whose descriptions carry no pending number."""


def significant(text: str) -> int:
    """The significant digits of a decimal as written (``0.0128`` has 3, ``1.50`` 2)."""
    digits = re.sub(r"[eE].*$", "", text).replace(".", "").lstrip("0").rstrip("0")
    return len(digits)


def _numbers(value: Any) -> Iterator[float]:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float, np.integer, np.floating)):
        yield float(value)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _numbers(v)
    elif isinstance(value, (list, tuple, np.ndarray)):
        for v in np.asarray(value, dtype=object).ravel():
            yield from _numbers(v)


def design_values(check: Check) -> set[float]:
    """The numbers a check is designed with: grids, tolerance, prediction, levels, plan."""
    out = set(_numbers([dict(p) for p in (*check.grid, *(check.quick_grid or ()))]))
    out |= set(_numbers([check.tolerance, check.predicted, check.delta, check.confidence,
                         check.rel_tol, check.abs_tol]))
    if check.plan is not None:
        out |= set(_numbers([check.plan.effect, check.plan.sd, check.plan.target_power]))
    return out


def paper_constants(paper: str) -> set[float]:
    """The numeric constants of every formula of ``paper``'s results."""
    out: set[float] = set()
    for r in catalog.results(paper):
        for f in r.forms.values():
            for e in f.exprs.values():
                out |= {float(a) for a in e.atoms(sp.Number) if a.is_finite}
    return out


def matches(text: str, values: Iterable[float]) -> bool:
    """Whether the decimal ``text`` is one of ``values`` written to its precision."""
    x = float(text)
    mantissa = re.sub(r"[eE].*$", "", text)
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    exp = int(re.search(r"[eE]([-+]?\d+)", text).group(1)) if re.search(r"[eE]", text) else 0
    half = 0.5 * 10.0 ** (exp - decimals)
    return any(math.isclose(abs(v), x, rel_tol=0.0, abs_tol=half * (1 + 1e-9))
               for v in values)


def offenders(check: Check, constants: set[float] | None = None) -> list[str]:
    """The numbers of ``check``'s description that look measured (module docstring)."""
    allowed = design_values(check) | (constants if constants is not None
                                      else paper_constants(check.paper))
    declared = CONSTANTS.get(check.paper, {})
    out = []
    for m in NUMBER.finditer(check.description):
        text = m.group(0).rstrip(".")
        if significant(text) < 3 or text in declared or matches(text, allowed):
            continue
        out.append(text)
    return out


def _sim(p, n, ss):  # pragma: no cover - never run
    return {}


def test_the_scan_flags_measured_numbers_and_nothing_else():
    c = Check("scan.x", "t", CheckKind.BOUND_HOLDS, Verdict.HOLDS, _sim,
              grid=({"kappa": 1.25, "eps": [0.0125, 2.0]},), tolerance=0.125,
              description="kappa = 1.25, eps = 0.0125, tolerance 0.125, step 0.5, 2000 "
                          "replicas, measured 0.8512 against 2.5 (and 3.1416 from the "
                          "paper); version 1.2.3 of a tool; 1e-10; 12.0.")
    assert offenders(c, constants={math.pi}) == ["0.8512"]
    assert offenders(c, constants=set()) == ["0.8512", "3.1416"]
    assert significant("0.0128") == 3 and significant("1.50") == 2 and significant("35.3") == 3
    planted = dataclasses.replace(c, id="even2022.scan", description="gap 1.073 eps")
    assert offenders(planted) == ["1.073"]


PAPERS = sorted(p.name for p in (Path(__file__).resolve().parents[2] / "pflbounds" / "papers")
                .iterdir() if (p / "__init__.py").is_file())


@pytest.mark.parametrize("paper", PAPERS)
def test_descriptions_carry_no_measured_number(paper):
    checks = registry.all_checks(paper)
    constants = paper_constants(paper)
    found = {c.id: offenders(c, constants) for c in checks}
    new = {cid: [n for n in nums if n not in PENDING.get(cid, ())]
           for cid, nums in found.items()}
    new = {cid: nums for cid, nums in new.items() if nums}
    assert not new, ("measured-looking numbers typed into descriptions (take them from the "
                     f"evidence, or declare a constant of the paper in CONSTANTS): {new}")
    if paper in CLEAN:
        assert not [c for c in PENDING if c.startswith(paper + ".")]
