"""Conic solves by cvxpy and Clarabel whose accuracy is recorded, not warned.

cvxpy warns ``Solution may be inaccurate`` when the solver stops at reduced accuracy (status
``optimal_inaccurate``); that warning would reach the terminal in the middle of a run. The
callers here record the status (and the accuracy they measure) with their result instead:
:func:`solve_clarabel` solves without the warning and returns the status.
"""

from __future__ import annotations

import warnings
from typing import Any

import cvxpy as cp


def solve_clarabel(prob: cp.Problem, **options: Any) -> str:
    """``prob.solve(solver=CLARABEL, **options)`` without cvxpy's inaccuracy warning; returns
    the status (``optimal``, ``optimal_inaccurate``, ...), which the caller records."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Solution may be inaccurate")
        prob.solve(solver=cp.CLARABEL, **options)
    return str(prob.status)
