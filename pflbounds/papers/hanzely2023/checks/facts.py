"""Checks of Proposition 1 (App. B.7), the standard inequalities the proofs use, on random
instances with exact arithmetic: smoothness (32) and co-coercivity (33) on l2-regularised
logistic losses and on quadratics (where both are attained along the top eigenvector),
Young's inequality (34) (attained at v = xi u), Jensen's (36) (attained when the v_i agree),
and the polarisation identity (35)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.papers.hanzely2023.theory.facts import PROPOSITION1, PROPOSITION1_35

PARTS = ("32", "33", "34", "36")
"""The recorded entries, in blocks of ``S`` per part, in this order."""


def _logistic(rng: np.random.Generator, d: int, n: int, reg: float):
    """f(x) = (1/n) sum log(1 + exp(-y a^T x)) + reg/2 ||x||^2, its gradient and its
    smoothness L = lambda_max(A^T A)/(4n) + reg."""
    A = rng.normal(size=(n, d))
    y = rng.choice([-1.0, 1.0], n)

    def f(x):
        return float(np.logaddexp(0.0, -y * (A @ x)).mean() + reg / 2 * x @ x)

    def g(x):
        s = -y / (1.0 + np.exp(y * (A @ x)))
        return A.T @ s / n + reg * x

    return f, g, float(np.linalg.eigvalsh(A.T @ A)[-1] / (4 * n) + reg)


def _quadratic(rng: np.random.Generator, d: int):
    """f(x) = x^T H x/2 with a random spectrum in [0.1, 1], its gradient, L, the top
    eigenvector."""
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    h = np.sort(rng.uniform(0.1, 1.0, d))
    H = (Q * h) @ Q.T
    return (lambda x: float(x @ H @ x / 2)), (lambda x: H @ x), float(h[-1]), Q[:, -1]


def simulate_proposition1(p: Mapping[str, Any], R: int, seed) -> dict:
    """S random pairs per part; measured: the left sides (32), (33), (34), (36); bound: the
    catalog's right sides at the pair's quantities. Half the pairs of (32) and (33) are on
    a quadratic along its top eigenvector (both attained), the rest on a logistic loss."""
    rng = np.random.default_rng([2023, 1, int(p.get("instance", 0))])
    S, d = int(p["S"]), int(p["d"])
    meas: dict[str, list[float]] = {k: [] for k in PARTS}
    ins: dict[str, list[float]] = {k: [] for k in ("L", "dist2", "Df", "xi", "u2", "v2",
                                                   "meansq")}
    for s in range(S):
        if s % 2:
            f, g, L = _logistic(rng, d, 20, 0.01)
            x, y = rng.normal(size=d) * 3, rng.normal(size=d) * 3
        else:
            f, g, L, top = _quadratic(rng, d)
            y = rng.normal(size=d)
            x = y + rng.uniform(0.1, 3) * top
        diff = x - y
        Df = f(x) - f(y) - g(y) @ diff
        meas["32"].append(Df)
        meas["33"].append(float(np.sum((g(x) - g(y)) ** 2)))
        u, xi = rng.normal(size=d), float(np.exp(rng.uniform(-2, 2)))
        v = xi * u if s % 2 == 0 else rng.normal(size=d)
        meas["34"].append(float(2 * u @ v))
        V = np.tile(rng.normal(size=d), (5, 1)) if s % 2 == 0 else rng.normal(size=(5, d))
        meas["36"].append(float(np.sum(V.mean(0) ** 2)))
        for k, val in (("L", L), ("dist2", diff @ diff), ("Df", Df), ("xi", xi),
                       ("u2", u @ u), ("v2", v @ v), ("meansq", np.sum(V**2, 1).mean())):
            ins[k].append(float(val))
    b = bound(PROPOSITION1, "printed", **{k: np.array(v) for k, v in ins.items()})
    return {"ks": np.arange(4.0 * S), "mean": np.concatenate([meas[k] for k in PARTS]),
            "bound": np.concatenate([np.asarray(b[k], dtype=float) for k in PARTS])}


def simulate_polarisation(p: Mapping[str, Any], R: int, seed) -> dict:
    """-<u, v> against Eq. (35)'s right side at random u, v: the largest residual relative to
    ||u|| ||v||."""
    rng = np.random.default_rng([2023, 2, int(p.get("instance", 0))])
    u, v = rng.normal(size=(2, int(p["S"]), int(p["d"]))) * np.exp(rng.uniform(-3, 3, (2, 1, 1)))
    rhs = bound(PROPOSITION1_35, "printed", u2=(u**2).sum(-1), v2=(v**2).sum(-1),
                uv2=((u - v) ** 2).sum(-1))
    scale = np.sqrt((u**2).sum(-1) * (v**2).sum(-1))
    return {"residual": np.asarray(np.max(np.abs(-(u * v).sum(-1) - rhs) / scale))}


CHECKS = [
    Check(P + "P_proposition1", "Proposition 1's inequalities (32), (33), (34), (36) hold",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_proposition1,
          grid=({"S": 40, "d": 5, "instance": 0}, {"S": 40, "d": 20, "instance": 1}),
          quick_grid=({"S": 20, "d": 5, "instance": 0},), engine="exact",
          result_id=PROPOSITION1.id, form="printed", rel_tol=1e-9, abs_tol=1e-12,
          description="Random pairs: (32) and (33) on quadratics along the top eigenvector "
          "(attained) and on l2-regularised logistic losses (L = lambda_max(A^T A)/(4n) + "
          "reg); (34) at v = xi u (attained) and at random v; (36) at equal v_i (attained) "
          "and random ones. Entries in blocks per part, (32), (33), (34), (36).",
          xlabel="pair (blocks: (32), (33), (34), (36))", ylabel="left side"),
    Check(P + "P_proposition1_35", "Proposition 1's polarisation identity (35) holds",
          CheckKind.IDENTITY, Verdict.HOLDS, simulate_polarisation,
          grid=({"S": 200, "d": 7, "instance": 0},), engine="exact",
          result_id=PROPOSITION1_35.id, form="printed", tolerance=1e-12,
          description="Random u, v at scales from e^-3 to e^3: the largest |-<u, v> - (35)| "
          "relative to ||u|| ||v||.", xlabel="-", ylabel="relative residual"),
]
