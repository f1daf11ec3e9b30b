"""P8 (b) of erickson2025 (digest §7): Proposition 3.4 on empirical ridge clients, every
quantity exact.

Client i holds N_i samples xi = (x, y) in R^d x R (sizes differ, so W1 between two clients'
empirical measures is the HiGHS transport LP of :func:`pflbounds.problems.transport.w1_exact`),
loss l(theta, xi) = (y - x^T theta)^2/2 + (lambda/2)||theta||^2 and f_i its empirical mean:

* theta_i* = (X_i^T X_i/N_i + lambda I)^{-1} X_i^T y_i/N_i, and f_i is gamma_i-strongly convex
  with gamma_i = lambda_min(X_i^T X_i/N_i) + lambda (Assumption 3.1 with gamma = min_i gamma_i);
* on Theta = {||theta|| <= R}, R = max_i ||theta_i*||, and the data box {||x|| <= B_x, |y| <=
  B_y} (B_x, B_y the pooled maxima; it is convex and holds every sample), grad_xi l = (y -
  x^T theta)(-theta, 1), so l(theta, .) is L_X-Lipschitz in the Euclidean metric of the joint
  space with L_X = sqrt(1 + R^2)(B_y + B_x R) (Assumption 3.2; digest §7 P8 (b)).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.problems.pairwise_constraints import pair_index
from pflbounds.problems.transport import w1_exact
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate


def ridge_clients(rng: np.random.Generator, n: int, d: int, sizes: tuple[int, int],
                  lam: float, shift: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """n clients (X_i, y_i): x ~ N(shift u_i, I_d), y = x^T beta_i + N(0, 0.25) with beta_i =
    beta + 0.5 N(0, I_d)/sqrt(d), N_i uniform in ``sizes`` (inclusive)."""
    beta = rng.standard_normal(d)
    out = []
    for _ in range(n):
        N = int(rng.integers(sizes[0], sizes[1] + 1))
        X = shift * rng.standard_normal(d) + rng.standard_normal((N, d))
        b = beta + 0.5 * rng.standard_normal(d) / np.sqrt(d)
        out.append((X, X @ b + 0.5 * rng.standard_normal(N)))
    return out


def simulate_p8_ridge(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P8 (b): for every pair, ||theta_i* - theta_j*||^2 against (3) (with gamma = min_k
    gamma_k), the client-specific refinement 4 L_X W1/(gamma_i + gamma_j) (digest §3.3) and
    (2) (with gamma = min_k gamma_k), W1 of the joint (x, y) samples by the LP. Residual: the
    largest relative excess (lhs - bound)_+/lhs over pairs and the three bounds; evidence:
    each bound's smallest bound/lhs over pairs (its tightness) and L_X, gamma."""
    rng = np.random.default_rng(seed)
    n, d, lam = int(p["n"]), int(p["d"]), float(p["lam"])
    clients = ridge_clients(rng, n, d, tuple(p["sizes"]), lam, float(p["shift"]))
    grams = [X.T @ X / len(X) for X, _ in clients]
    theta = np.array([np.linalg.solve(G + lam * np.eye(d), X.T @ y / len(X))
                      for G, (X, y) in zip(grams, clients, strict=True)])
    gam = np.array([np.linalg.eigvalsh(G)[0] + lam for G in grams])
    Rb = float(np.linalg.norm(theta, axis=1).max())
    Bx = max(float(np.linalg.norm(X, axis=1).max()) for X, _ in clients)
    By = max(float(np.abs(y).max()) for _, y in clients)
    LX = np.sqrt(1 + Rb**2) * (By + Bx * Rb)

    def f(k: int, th: np.ndarray) -> float:
        X, y = clients[k]
        return float(0.5 * np.mean((y - X @ th) ** 2) + 0.5 * lam * th @ th)

    i, j = pair_index(n)
    lhs = ((theta[i] - theta[j]) ** 2).sum(axis=1)
    W1 = np.array([w1_exact(np.column_stack(clients[a]), np.column_stack(clients[b]))
                   for a, b in zip(i, j, strict=True)])
    gap = np.array([f(a, theta[b]) - f(b, theta[b]) + f(b, theta[a]) - f(a, theta[a])
                    for a, b in zip(i, j, strict=True)])
    g = float(gam.min())
    eq3 = np.asarray(evaluate(get("erickson2025.proposition3_4_eq3"), "printed", gap=gap,
                              gamma=g).value, dtype=float)
    eq2 = np.asarray(evaluate(get("erickson2025.proposition3_4"), "printed", L_X=LX, gamma=g,
                              W1=W1).value, dtype=float)
    pairwise = 4 * LX * W1 / (gam[i] + gam[j])
    bounds = {"eq3": eq3, "pairwise": pairwise, "eq2": eq2}
    res = max(float(np.max(np.maximum(lhs - b, 0.0) / lhs)) for b in bounds.values())
    return {"residual": np.asarray(res), "L_X": np.asarray(LX), "gamma": np.asarray(g),
            **{f"tightness_{k}": np.asarray(float(np.min(b / lhs))) for k, b in bounds.items()}}


CHECKS = [
    Check(
        "erickson2025.P8_ridge", "Proposition 3.4 on empirical ridge clients (W1 by LP)",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p8_ridge,
        grid=(dict(n=5, d=3, sizes=[15, 30], lam=0.1, shift=1.0),
              dict(n=4, d=2, sizes=[20, 40], lam=0.01, shift=0.3)),
        quick_grid=(dict(n=4, d=2, sizes=[10, 20], lam=0.1, shift=1.0),),
        engine="exact", tolerance=1e-12, result_id="erickson2025.proposition3_4",
        form="printed",
        description="Empirical ridge risks, gamma_i = lambda_min(X_i^T X_i/N_i) + lambda, L_X "
                    "= sqrt(1 + R^2)(B_y + B_x R) over the pooled data, W1 of the joint (x, "
                    "y) samples by the HiGHS LP (unequal sizes): (3), the pairwise "
                    "4 L_X W1/(gamma_i + gamma_j) and (2) hold at every pair; the evidence "
                    "keeps each bound's tightness (smallest bound/lhs)."),
]
