"""Conic solves record the solver's status instead of letting cvxpy warn."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np

from pflbounds.problems.conic import solve_clarabel


def test_the_status_is_returned_and_the_inaccuracy_warning_never_shown(monkeypatch):
    x = cp.Variable(2)
    prob = cp.Problem(cp.Minimize(cp.sum_squares(x - np.array([1.0, 2.0]))), [x >= 0])

    def inaccurate(self, *args, **kwargs):
        warnings.warn("Solution may be inaccurate. Try another solver, adjusting the solver "
                      "settings, or solve with verbose=True for more information.",
                      UserWarning, stacklevel=1)
        self._status = "optimal_inaccurate"
        return 0.0

    monkeypatch.setattr(cp.Problem, "solve", inaccurate)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert solve_clarabel(prob) == "optimal_inaccurate"


def test_other_warnings_still_reach_the_caller(monkeypatch):
    x = cp.Variable(1)
    prob = cp.Problem(cp.Minimize(cp.sum_squares(x)))

    def other(self, *args, **kwargs):
        warnings.warn("something else", UserWarning, stacklevel=1)
        self._status = "optimal"

    monkeypatch.setattr(cp.Problem, "solve", other)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert solve_clarabel(prob) == "optimal"
    assert [str(w.message) for w in caught] == ["something else"]


def test_a_real_solve_reports_optimal():
    x = cp.Variable(2)
    prob = cp.Problem(cp.Minimize(cp.sum_squares(x - np.array([1.0, -2.0]))), [x >= 0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert solve_clarabel(prob, tol_gap_abs=1e-10) == "optimal"
    assert np.allclose(x.value, [1.0, 0.0], atol=1e-6)
