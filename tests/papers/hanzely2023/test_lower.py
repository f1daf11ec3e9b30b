"""hanzely2023 lower bounds (Theorem 6, Eq. (54)): the printed and appendix forms of Theorem
6, Nesterov's rate, the hard instance (its Hessian is Nesterov's tridiagonal matrix with the
stated condition number) and P3's quick verdict."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking import registry
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.papers.hanzely2023.instances import build, nesterov_losses
from pflbounds.running.executor import run_check
from pflbounds.symbolic import evaluate, get
from pflbounds.symbolic.loader import load_papers

load_papers()
FAST = ["P3"]
"""The checks of this topic cheap enough on their quick grids for the default test run."""

def _quick(check_id: str):
    check = registry.get(P + check_id)
    return check, run_check(check, quick=True, base_seed=0, progress=False)

@pytest.mark.parametrize("name", FAST)
def test_quick_verdict_is_the_expected_one(name):
    check, o = _quick(name)
    assert o.error is None, o.error
    assert o.verdict == check.expected, o.detail

def test_theorem6_printed_and_appendix_forms_differ_only_by_the_log_on_n():
    kw = dict(mu=0.01, Lw=1.0, Lcw=4.0, Lcb=2.0, n=50, Delta0=1.0, eps=np.exp(-3))
    pr = evaluate(get(P + "theorem6"), **kw).value
    ap = evaluate(get(P + "theorem6"), "appendix", **kw).value
    assert ap["grad_w"] - pr["grad_w"] == pytest.approx(50 * (3 - 1))
    assert pr["communication"] == ap["communication"] == pytest.approx(10 * 3)

def test_eq54_nesterov_rate():
    v = evaluate(get(P + "eq54"), kap=9.0, K=2, ystar2=1.0).value
    assert v == pytest.approx((2 / 4) ** 4)

def test_the_hard_instance_is_nesterovs_quadratic_on_each_block():
    d, kappa = 6, 50.0
    q = nesterov_losses(d, kappa)
    A = (q.a[0].T @ q.a[0]) / q.a.shape[1]
    c = 4 / (kappa - 1)
    T = (2 + c) * np.eye(d) - np.eye(d, k=1) - np.eye(d, k=-1)
    assert np.allclose(A, np.kron(np.eye(2), T))
    ev = np.linalg.eigvalsh(T)
    # kappa is the condition number of the infinite-dimensional operator: finite d is below
    assert 1 < ev[-1] / ev[0] < kappa
    obj = build("ws2", q, d_w=d)
    assert (obj.d0, obj.M) == (d, 1)
