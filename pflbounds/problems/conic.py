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

SUPERNODAL: dict[str, Any] = {"direct_solve_method": "faer", "max_threads": 1}
"""Clarabel options for problems whose KKT factor fills in densely (every pair of clients
coupled, as in :mod:`pflbounds.problems.pairwise_constraints`): faer's supernodal LDL^T
factorisation, which works on dense blocks, in one thread so that a solve gives the same bits
every time. On n = 30 clients of dimension 50 it is about 5x faster than Clarabel's default
QDLDL (``benchmarks/bench_conic.py``), and it reaches tight tolerances a little less often
(:func:`solve_clarabel_dense`)."""


def solve_clarabel(prob: cp.Problem, **options: Any) -> str:
    """``prob.solve(solver=CLARABEL, **options)`` without cvxpy's inaccuracy warning; returns
    the status (``optimal``, ``optimal_inaccurate``, ...), which the caller records."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Solution may be inaccurate")
        prob.solve(solver=cp.CLARABEL, **options)
    return str(prob.status)


def solve_clarabel_dense(prob: cp.Problem, **options: Any) -> str:
    """:func:`solve_clarabel` with :data:`SUPERNODAL` first; a solve that does not end
    ``optimal`` (faer stops at ``optimal_inaccurate`` on some instances where QDLDL reaches
    the tolerance) is solved again with Clarabel's default factorisation, whose status is
    returned. The point is the supernodal one when it is optimal, else QDLDL's."""
    status = solve_clarabel(prob, **options, **SUPERNODAL)
    if status == "optimal":
        return status
    return solve_clarabel(prob, **options)
