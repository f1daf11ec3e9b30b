"""The paper's objectives as numerical instances: each key of the objectives catalogue mapped
to an engine structure (:mod:`pflbounds.problems.pfl_objectives`), the values of the base
constants that the catalogue's formulas take on an instance, and the hard instance of the
lower bounds (Nesterov's tridiagonal quadratic, App. B.8)."""

from __future__ import annotations

from typing import Any

import numpy as np

from pflbounds.papers.hanzely2023.theory.objectives import NAMES, OBJECTIVES
from pflbounds.problems.pfl_objectives import PFLObjective, QuadraticLosses, structure
from pflbounds.symbolic.evaluate import numeric

KIND = {"fl": ("global", True), "full": ("local", True), "mt2": ("multitask", True),
        "mt2-unscaled": ("multitask", False), "mt-extended": ("multitask", False),
        "mx2": ("mixture", True), "mx2-unscaled": ("mixture", False),
        "apfl2": ("interpolation", True), "apfl2-unscaled": ("interpolation", False),
        "ws2": ("sharing", True), "ws2-unscaled": ("sharing", False)}
"""Objective key -> (structure kind, rescaled). The residual objective has no base losses."""


def build(key: str, losses, *, lam: float = 0.0, Lam: float = 1.0,
          alpha: float | np.ndarray | None = None, d_w: int | None = None,
          newton_tol: float = 1e-12) -> PFLObjective:
    """The objective ``key`` (hanzely2023 Section 2) on the base losses ``losses``.
    Objective (7) penalises lambda ||w - beta_m||^2, i.e. (2 lambda)/2."""
    kind, rescale = KIND[key]
    pen = 2 * lam if key == "mt-extended" else lam
    c = structure(kind, losses.M, losses.d, lam=pen, Lam=Lam, alpha=alpha, rescale=rescale,
                  d_w=d_w)
    return PFLObjective(losses, c, newton_tol=newton_tol)


def base_values(obj: PFLObjective, key: str) -> dict[str, float]:
    """The inputs of objective ``key``'s constant formulas on the instance: its certified base
    constants (mu', L', Lcal'), lambda, Lambda, alpha_max/min and M."""
    p = obj.c.params
    vals: dict[str, float] = {**obj.base_constants, "M": float(obj.M), "lam": p["lam"],
                              "Lam": p["Lam"]}
    if key == "mt-extended":
        vals["lam"] = p["lam"] / 2
    if "alpha" in p:
        vals["amax"], vals["amin"] = float(np.max(p["alpha"])), float(np.min(p["alpha"]))
    return {k: v for k, v in vals.items() if k in OBJECTIVES[key].inputs}


def encoded(key: str, values: dict[str, Any], printed: bool = False) -> dict[str, float]:
    """The catalogue's constants of objective ``key`` (best reading, or Table 2 as printed)."""
    o = OBJECTIVES[key]
    exprs = o.printed if printed else o.constants
    if exprs is None:
        raise KeyError(f"objective {key} has no printed constants")
    return {k: float(numeric(exprs[k], values)) for k in NAMES}


def nesterov_losses(d: int, kappa: float) -> QuadraticLosses:
    """One client, f'(x) = x^T A x/2 - e^T x on R^{2d}, A = diag(T, T), T tridiagonal (2 + c
    on the diagonal, -1 beside it), c = 4/(kappa - 1), e = e_1 in each half (App. B.8): with
    ``build("ws2", ..., d_w=d)`` the block-separable h(w) + h(beta) of Theorem 6's proof
    sketch (M = 1), on which Eq. (54) bounds every first-order method."""
    c = 4 / (kappa - 1)
    T = (2 + c) * np.eye(d) - np.eye(d, k=1) - np.eye(d, k=-1)
    A = np.kron(np.eye(2), T)
    e = np.zeros(2 * d)
    e[0] = e[d] = 1.0
    C = np.linalg.cholesky(A)
    n = 2 * d
    a = np.sqrt(n) * C.T[None]  # rows a_j = sqrt(n) C[:, j]: (1/n) sum a a^T = A
    b = np.sqrt(n) * np.linalg.solve(C, e)[None]
    return QuadraticLosses(a, b)
