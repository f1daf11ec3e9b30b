"""Personalized FL objectives in the (w, beta) form, built from per-client base losses, with
exact optima and certified constants.

The form (hanzely2023 Eq. (1)): F(w, beta) = (1/M) sum_m f_m(w, beta_m), w in R^{d0} shared,
beta_m in R^{d1} local. Every objective here is built from base client losses
f'_m(x) = (1/n) sum_j f'_{m,j}(x), x in R^d, through linear maps of z_m = (w, beta_m):

    f_m(z) = sum_t c_t f'_m(P_{t,m} z) + (1/2) z^T R z,      c_t >= 0,

and the components f_{m,j} likewise with f'_{m,j}. The structures (:func:`structure`), with
s = M^{-1/2} when w is rescaled (hanzely2023 §1.5) and s = 1 otherwise:

* ``global``   f_m = f'_m(w)                                (d1 = 0; Eq. (4))
* ``local``    f_m = f'_m(beta_m)                           (d0 = 0; Eq. (5))
* ``multitask``  Lambda f'_m(s w) + f'_m(beta_m) + (lambda/2)||beta_m - s w||^2   (Eqs. (7), (8))
* ``mixture``  f'_m(beta_m) + (lambda/2)||s w - beta_m||^2   (Eq. (11))
* ``interpolation``  Lambda f'_m(s w) + f'_m((1 - alpha_m) beta_m + alpha_m s w)  (Eq. (14))
* ``sharing``  f'_m([s w, beta_m]), w the first d_w coordinates   (Eqs. (15), (16))

Base losses: :class:`QuadraticLosses` (least squares, f'_{m,j}(x) = (a^T x - b)^2/2 + r||x||^2/2:
every Hessian is constant, so the constants below are exact) and :class:`LogisticLosses`
(cross-entropy with labels in {0, 1} and a ridge r: Hessians lie between r I and
(1/4) a a^T + r I, so the constants are certified bounds).

Certified constants (Assumptions 1-2 of hanzely2023, in its normalisation): mu = lambda_min of
the Hessian of F (a lower bound for logistic: built with r I for every base Hessian; the map
from base Hessians to F's is monotone since c_t >= 0); L^w = max_m lambda_max of the ww-block
of f_m's Hessian; L^beta = max_m lambda_max(beta beta-block)/M; Lcal^w and Lcal^beta the same
over components f_{m,j} (upper bounds for logistic, exact for quadratics). The base constants
mu' = min_m lambda_min(grad^2 f'_m), L' = max_m lambda_max, Lcal' = max_{m,j} lambda_max of the
components come with them.

Optima: closed form for quadratics (a linear solve); a damped Newton method with the exact
Hessian for logistic, whose final gradient norm is reported as the accuracy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from scipy.special import expit

__all__ = [
    "KINDS",
    "Coupling",
    "LogisticLosses",
    "PFLObjective",
    "QuadraticLosses",
    "structure",
]

KINDS = ("global", "local", "multitask", "mixture", "interpolation", "sharing")


# ------------------------------------------------------------------------------ base losses
@dataclass(frozen=True, eq=False)
class QuadraticLosses:
    """Least-squares client losses f'_{m,j}(x) = (a_{mj}^T x - b_{mj})^2/2 + (r/2)||x||^2.

    ``a`` (M, n, d), ``b`` (M, n), ``ridge`` r >= 0. f'_m has the constant Hessian
    A_m = (1/n) sum_j a a^T + r I.
    """

    a: np.ndarray
    b: np.ndarray
    ridge: float = 0.0
    exact = True

    def __post_init__(self) -> None:
        _check_data(self.a, self.b, self.ridge)

    @property
    def M(self) -> int:
        return self.a.shape[0]

    @property
    def n(self) -> int:
        return self.a.shape[1]

    @property
    def d(self) -> int:
        return self.a.shape[2]

    @cached_property
    def A(self) -> np.ndarray:
        """Hessians of f'_m, (M, d, d)."""
        return (np.einsum("mji,mjk->mik", self.a, self.a) / self.n
                + self.ridge * np.eye(self.d)[None])

    @cached_property
    def bbar(self) -> np.ndarray:
        """(1/n) sum_j b_mj a_mj, (M, d): f'_m(x) = x^T A_m x/2 - bbar_m^T x + const_m."""
        return np.einsum("mj,mji->mi", self.b, self.a) / self.n

    def value(self, X: np.ndarray) -> np.ndarray:
        """f'_m(X_m) for X (..., M, d): shape (..., M)."""
        r = np.einsum("mji,...mi->...mj", self.a, X) - self.b
        return 0.5 * (r**2).mean(-1) + 0.5 * self.ridge * (X**2).sum(-1)

    def grad(self, X: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
        """grad f'_m(X_m) (idx None) or grad f'_{m, idx_m}(X_m), X (R, M, d), idx (R, M)."""
        if idx is None:
            return np.einsum("mik,rmk->rmi", self.A, X) - self.bbar
        a, b = _gather(self.a, self.b, idx)
        res = np.einsum("rmi,rmi->rm", a, X) - b
        return a * res[..., None] + self.ridge * X

    def hess(self, X: np.ndarray) -> np.ndarray:
        """grad^2 f'_m at X (M, d): A_m."""
        return self.A

    def hess_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(lower, upper) bounds on every grad^2 f'_m, (M, d, d) each (equal: exact)."""
        return self.A, self.A

    def component_scale(self) -> float:
        """grad^2 f'_{m,j} <= scale a a^T + r I (equality for least squares)."""
        return 1.0

    @classmethod
    def random(cls, M: int, d: int, n: int, mup: float, Lp: float, rng: np.random.Generator,
               *, spread: float = 1.0, noise: float = 0.1, ridge: float = 0.0,
               isotropic: bool = False) -> QuadraticLosses:
        """Clients whose Hessians A_m have their spectrum in [mu', L'], both ends attained by
        every client (exactly, up to rounding), with a_{mj} = sqrt(n) (V S^{1/2})^T u_j for
        orthonormal columns u (so (1/n) sum a a^T = V S V^T). Client optima are
        spread * N(0, I); b adds N(0, noise^2) to a^T x_m^*, so that components disagree.
        ``isotropic``: A_m = mu' I (needs n >= d)."""
        if not 0 <= ridge <= mup <= Lp or n < d:
            raise ValueError(f"need 0 <= ridge <= mu' <= L' and n >= d, got ridge={ridge}, "
                             f"mu'={mup}, L'={Lp}, n={n}, d={d}")
        if isotropic:
            spec = np.full((M, d), mup)
        else:
            spec = np.sort(rng.uniform(mup, Lp, size=(M, d)), axis=1)
            spec[:, 0], spec[:, -1] = mup, Lp
        S = spec - ridge
        V = np.linalg.qr(rng.standard_normal((M, d, d)))[0]
        U = np.linalg.qr(rng.standard_normal((M, n, d)))[0]  # orthonormal columns
        a = np.sqrt(n) * np.einsum("mjk,mik,mk->mji", U, V, np.sqrt(S))
        x_opt = spread * rng.standard_normal((M, d))
        b = np.einsum("mji,mi->mj", a, x_opt) + noise * rng.standard_normal((M, n))
        return cls(a, b, ridge)


@dataclass(frozen=True, eq=False)
class LogisticLosses:
    """Cross-entropy client losses with a ridge: f'_{m,j}(x) = -y log s(a^T x) - (1 - y)
    log(1 - s(a^T x)) + (r/2)||x||^2, s the sigmoid, labels y in {0, 1}, r > 0.

    Hessians: r I <= grad^2 f'_{m,j} <= (1/4) a a^T + r I (s' <= 1/4).
    """

    a: np.ndarray
    y: np.ndarray
    ridge: float
    exact = False

    def __post_init__(self) -> None:
        _check_data(self.a, self.y, self.ridge)
        if self.ridge <= 0:
            raise ValueError(f"logistic losses need a ridge r > 0 (strong convexity), got "
                             f"{self.ridge}")
        if not np.all((self.y == 0) | (self.y == 1)):
            raise ValueError("labels must be 0 or 1")

    M = QuadraticLosses.M
    n = QuadraticLosses.n
    d = QuadraticLosses.d

    def value(self, X: np.ndarray) -> np.ndarray:
        t = np.einsum("mji,...mi->...mj", self.a, X)
        loss = np.logaddexp(0.0, t) - self.y * t  # -y log s(t) - (1-y) log(1-s(t))
        return loss.mean(-1) + 0.5 * self.ridge * (X**2).sum(-1)

    def grad(self, X: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
        if idx is None:
            t = np.einsum("mji,rmi->rmj", self.a, X)
            return (np.einsum("rmj,mji->rmi", expit(t) - self.y, self.a) / self.n
                    + self.ridge * X)
        a, y = _gather(self.a, self.y, idx)
        t = np.einsum("rmi,rmi->rm", a, X)
        return a * (expit(t) - y)[..., None] + self.ridge * X

    def hess(self, X: np.ndarray) -> np.ndarray:
        """grad^2 f'_m at X (M, d): (M, d, d)."""
        s = expit(np.einsum("mji,mi->mj", self.a, X))
        return (np.einsum("mj,mji,mjk->mik", s * (1 - s), self.a, self.a) / self.n
                + self.ridge * np.eye(self.d)[None])

    def hess_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        low = np.broadcast_to(self.ridge * np.eye(self.d), (self.M, self.d, self.d))
        up = (np.einsum("mji,mjk->mik", self.a, self.a) / (4 * self.n)
              + self.ridge * np.eye(self.d)[None])
        return np.array(low), up

    def component_scale(self) -> float:
        return 0.25


def _check_data(a: np.ndarray, b: np.ndarray, ridge: float) -> None:
    if a.ndim != 3 or b.shape != a.shape[:2]:
        raise ValueError(f"a must be (M, n, d) and the targets (M, n); got {a.shape} and "
                         f"{b.shape}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))) or ridge < 0:
        raise ValueError("data must be finite and the ridge >= 0")


def _gather(a: np.ndarray, b: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """a[m, idx[r, m]] and b[m, idx[r, m]] for idx (R, M) (or (R,): one index per replica,
    shared by every client)."""
    idx = np.asarray(idx)
    M = a.shape[0]
    if idx.ndim == 1:
        idx = np.broadcast_to(idx[:, None], (idx.shape[0], M))
    m = np.arange(M)[None, :]
    return a[m, idx], b[m, idx]


# ------------------------------------------------------------------------------ structure
@dataclass(frozen=True, eq=False)
class Coupling:
    """How f_m(w, beta_m) is built from f'_m: f_m(z) = sum_t c_t f'_m(P_{t,m} z) + z^T R z/2.

    ``coef`` (T,) >= 0, ``maps`` (T, M, d, s) with s = d0 + d1, ``R`` (s, s) PSD.
    """

    kind: str
    d0: int
    d1: int
    coef: np.ndarray
    maps: np.ndarray
    R: np.ndarray
    rescaled: bool
    params: dict = field(default_factory=dict)

    @property
    def s(self) -> int:
        return self.d0 + self.d1


def structure(kind: str, M: int, d: int, *, lam: float = 0.0, Lam: float = 1.0,
              alpha: float | Sequence[float] | np.ndarray | None = None,
              rescale: bool = True, d_w: int | None = None) -> Coupling:
    """The coupling of one objective kind (module docstring; hanzely2023 Eqs. (4)-(16))."""
    if kind not in KINDS:
        raise ValueError(f"unknown objective kind {kind!r}; choose from {', '.join(KINDS)}")
    if lam < 0 or Lam < 0:
        raise ValueError(f"lam and Lam must be >= 0, got {lam}, {Lam}")
    sc = M ** -0.5 if rescale else 1.0
    eye, zero = np.eye(d), np.zeros((d, d))
    params = {"lam": lam, "Lam": Lam, "rescale": rescale}

    def same(*blocks: np.ndarray) -> np.ndarray:
        return np.broadcast_to(np.hstack(blocks), (M, d, sum(b.shape[1] for b in blocks)))

    pen = lam * np.block([[sc * sc * eye, -sc * eye], [-sc * eye, eye]])
    if kind == "global":
        return Coupling(kind, d, 0, np.ones(1), same(eye)[None], np.zeros((d, d)), False,
                        params)
    if kind == "local":
        return Coupling(kind, 0, d, np.ones(1), same(eye)[None], np.zeros((d, d)), False,
                        params)
    if kind == "multitask":
        maps = np.stack([same(sc * eye, zero), same(zero, eye)])
        return Coupling(kind, d, d, np.array([Lam, 1.0]), maps, pen, rescale, params)
    if kind == "mixture":
        return Coupling(kind, d, d, np.ones(1), same(zero, eye)[None], pen, rescale, params)
    if kind == "interpolation":
        al = np.broadcast_to(np.asarray(0.5 if alpha is None else alpha, dtype=float), (M,))
        if np.any((al < 0) | (al > 1)):
            raise ValueError(f"alpha must lie in [0, 1], got {al}")
        mix = np.concatenate([al[:, None, None] * sc * eye[None],
                              (1 - al)[:, None, None] * eye[None]], axis=2)
        maps = np.stack([same(sc * eye, zero), mix])
        params["alpha"] = al.copy()
        return Coupling(kind, d, d, np.array([Lam, 1.0]), maps, np.zeros((2 * d, 2 * d)),
                        rescale, params)
    dw = d // 2 if d_w is None else int(d_w)
    if not 0 < dw < d:
        raise ValueError(f"d_w must lie in (0, {d}), got {dw}")
    P = np.diag(np.r_[np.full(dw, sc), np.ones(d - dw)])
    params["d_w"] = dw
    return Coupling(kind, dw, d - dw, np.ones(1), same(P)[None], np.zeros((d, d)), rescale,
                    params)


# ------------------------------------------------------------------------------ objective
class PFLObjective:
    """F(w, beta) = (1/M) sum_m f_m(w, beta_m) from base losses and a coupling (module
    docstring), with its optimum and certified constants.

    Iterates: w (R, d0) or per-client copies W (R, M, d0); beta (R, M, d1).
    """

    def __init__(self, losses: QuadraticLosses | LogisticLosses, coupling: Coupling,
                 *, newton_tol: float = 1e-12) -> None:
        if coupling.maps.shape[1:3] != (losses.M, losses.d):
            raise ValueError(f"coupling built for (M, d) = {coupling.maps.shape[1:3]}, losses "
                             f"have ({losses.M}, {losses.d})")
        self.losses, self.c = losses, coupling
        self.M, self.n = losses.M, losses.n
        self.d0, self.d1 = coupling.d0, coupling.d1
        self.N = self.d0 + self.M * self.d1
        self._newton_tol = newton_tol

    # ---------------------------------------------------------------- structure helpers
    def _z(self, W: np.ndarray, beta: np.ndarray) -> np.ndarray:
        """z_m = (w_m, beta_m), (R, M, s), from W (R, d0) or (R, M, d0)."""
        R = beta.shape[0]
        if W.ndim == 2:
            W = np.broadcast_to(W[:, None, :], (R, self.M, self.d0))
        return np.concatenate([W, beta], axis=-1)

    def _client_hess(self, base: np.ndarray) -> np.ndarray:
        """sum_t c_t P_t^T B_m P_t + R for base Hessians B (..., M, d, d): (..., M, s, s)."""
        out = np.broadcast_to(self.c.R, (*base.shape[:-2], self.c.s, self.c.s)).copy()
        for t, c in enumerate(self.c.coef):
            P = self.c.maps[t]  # (M, d, s)
            out += c * (np.swapaxes(P, -1, -2) @ base @ P)
        return out

    def split(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The full vector x = (w, beta_1, ..., beta_M) (..., N) as (w, beta)."""
        return x[..., : self.d0], x[..., self.d0:].reshape(*x.shape[:-1], self.M, self.d1)

    def join(self, w: np.ndarray, beta: np.ndarray) -> np.ndarray:
        return np.concatenate([w, beta.reshape(*beta.shape[:-2], -1)], axis=-1)

    def _assemble(self, Hm: np.ndarray) -> np.ndarray:
        """Hessian of F (N, N) from client Hessians (M, s, s) (hanzely2023 Eq. (1))."""
        d0, d1, M = self.d0, self.d1, self.M
        H = np.zeros((self.N, self.N))
        H[:d0, :d0] = Hm[:, :d0, :d0].mean(0)
        for_b = d0 + d1 * np.arange(M)[:, None] + np.arange(d1)[None]  # (M, d1)
        H[np.arange(d0)[:, None, None], for_b[None]] = np.moveaxis(Hm[:, :d0, d0:], 0, 1) / M
        H[for_b[:, :, None], for_b[:, None, :]] = Hm[:, d0:, d0:] / M
        H[d0:, :d0] = H[:d0, d0:].T
        return H

    # ---------------------------------------------------------------- values and gradients
    def value(self, w: np.ndarray, beta: np.ndarray) -> np.ndarray:
        """F(w, beta) for w (R, d0), beta (R, M, d1): shape (R,)."""
        return self.client_values(w, beta).mean(-1)

    def client_values(self, W: np.ndarray, beta: np.ndarray) -> np.ndarray:
        """f_m(w_m, beta_m), (R, M)."""
        z = self._z(W, beta)
        X = np.einsum("tmis,rms->trmi", self.c.maps, z)
        base = sum(c * self.losses.value(X[t]) for t, c in enumerate(self.c.coef))
        return base + 0.5 * np.einsum("rms,sk,rmk->rm", z, self.c.R, z)

    def client_grads(self, W: np.ndarray, beta: np.ndarray, idx: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
        """(grad_w f_m, grad_beta f_m) at (w_m, beta_m) for every client, or of the component
        f_{m, idx} (idx (R,) shared by the clients, or (R, M)): shapes (R, M, d0), (R, M, d1).
        W is (R, d0) (one w) or (R, M, d0) (local copies)."""
        z = self._z(W, beta)
        X = np.einsum("tmis,rms->trmi", self.c.maps, z)
        g = np.einsum("rms,sk->rmk", z, self.c.R)
        for t, c in enumerate(self.c.coef):
            g = g + c * np.einsum("tmis,rmi->rms", self.c.maps[t:t + 1],
                                  self.losses.grad(X[t], idx))
        return g[..., : self.d0], g[..., self.d0:]

    def grad_F(self, w: np.ndarray, beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The gradient of F: ((1/M) sum_m grad_w f_m (R, d0), (1/M) grad_beta f_m (R, M, d1))."""
        gw, gb = self.client_grads(w, beta)
        return gw.mean(1), gb / self.M

    # BlockGradientOracle (pflbounds.algorithms.protocols), F = (1/M) sum_m f_m
    def grad_w(self, w: np.ndarray, beta: np.ndarray, rng=None) -> np.ndarray:
        return self.grad_F(w, beta)[0]

    def grad_beta(self, w: np.ndarray, beta: np.ndarray, rng=None) -> np.ndarray:
        return self.grad_F(w, beta)[1]

    # ---------------------------------------------------------------- optimum
    @cached_property
    def optimum(self) -> dict[str, np.ndarray | float]:
        """``w``, ``beta``, ``x`` (the full vector), ``F`` (F^*) and ``grad_norm`` (||grad F||
        there): closed form for quadratics, damped Newton otherwise."""
        if self.losses.exact:
            Hm, gm = self.client_quadratics()
            g = self.join(gm[:, : self.d0].mean(0), gm[:, self.d0:] / self.M)
            x = np.linalg.solve(self._assemble(Hm), g)
        else:
            x = self._newton()
        w, beta = self.split(x[None])
        gw, gb = self.grad_F(w, beta)
        gn = float(np.sqrt((gw**2).sum() + (gb**2).sum()))
        return {"w": w[0], "beta": beta[0], "x": x, "F": float(self.value(w, beta)[0]),
                "grad_norm": gn}

    def client_quadratics(self) -> tuple[np.ndarray, np.ndarray]:
        """(H_m, g_m), (M, s, s) and (M, s), with f_m(z) = z^T H_m z/2 - g_m^T z + const
        (quadratic losses only)."""
        if not self.losses.exact:
            raise ValueError("client_quadratics needs quadratic losses (constant Hessians)")
        gm = np.einsum("t,tmis,mi->ms", self.c.coef, self.c.maps, self.losses.bbar)
        return self._client_hess(self.losses.A), gm

    def _newton(self) -> np.ndarray:
        x = np.zeros(self.N)
        for _ in range(100):
            w, beta = self.split(x[None])
            gw, gb = self.grad_F(w, beta)
            g = self.join(gw, gb)[0]
            if np.linalg.norm(g) <= self._newton_tol:
                break
            Xm = np.einsum("tmis,ms->tmi", self.c.maps, self._z(w, beta)[0])
            Hm = sum(c * (np.swapaxes(self.c.maps[t], -1, -2) @ self.losses.hess(Xm[t])
                          @ self.c.maps[t]) for t, c in enumerate(self.c.coef)) + self.c.R[None]
            step = np.linalg.solve(self._assemble(Hm), g)
            f0, t_ = float(self.value(w, beta)[0]), 1.0
            while t_ > 1e-10:  # backtracking (Armijo)
                wn, bn = self.split((x - t_ * step)[None])
                if self.value(wn, bn)[0] <= f0 - 1e-4 * t_ * g @ step:
                    break
                t_ /= 2
            x = x - t_ * step
        return x

    def excess(self, w: np.ndarray, beta: np.ndarray) -> np.ndarray:
        """F(w, beta) - F^*, (R,)."""
        return self.value(w, beta) - self.optimum["F"]

    def distance2(self, w: np.ndarray, beta: np.ndarray) -> np.ndarray:
        """||w - w^*||^2 + sum_m ||beta_m - beta_m^*||^2, (R,)."""
        o = self.optimum
        return ((w - o["w"]) ** 2).sum(-1) + ((beta - o["beta"]) ** 2).sum((-1, -2))

    # ---------------------------------------------------------------- constants
    @cached_property
    def hessian(self) -> np.ndarray:
        """Hessian of F (N, N) for quadratic losses; for logistic, its lower bound."""
        return self._assemble(self._client_hess(self.losses.hess_bounds()[0]))

    @cached_property
    def constants(self) -> dict[str, float]:
        """mu, Lw, Lb, Lcw, Lcb (module docstring), exact for quadratic losses and certified
        bounds for logistic ones (mu a lower bound, the others upper bounds)."""
        low, up = self.losses.hess_bounds()
        mu = float(np.linalg.eigvalsh(self._assemble(self._client_hess(low)))[0])
        Hu = self._client_hess(up)
        out = {"mu": mu, "Lw": _blockmax(Hu, 0, self.d0),
               "Lb": _blockmax(Hu, self.d0, self.c.s) / self.M}
        lw = lb = 0.0
        a, sc, r = self.losses.a, self.losses.component_scale(), self.losses.ridge
        for j0 in range(0, self.n, 256):  # component Hessians, in chunks of indices
            aj = a[:, j0:j0 + 256]  # (M, J, d)
            base = sc * np.einsum("mji,mjk->jmik", aj, aj) + r * np.eye(self.losses.d)
            Hc = self._client_hess(base)  # (J, M, s, s)
            lw = max(lw, _blockmax(Hc, 0, self.d0))
            lb = max(lb, _blockmax(Hc, self.d0, self.c.s))
        out.update(Lcw=lw, Lcb=lb / self.M)
        return out

    @cached_property
    def base_constants(self) -> dict[str, float]:
        """mu' (lower bound), L' and Lcal' (upper bounds; exact for quadratics)."""
        low, up = self.losses.hess_bounds()
        a = self.losses.a
        return {"mup": float(np.linalg.eigvalsh(low)[:, 0].min()),
                "Lp": float(np.linalg.eigvalsh(up)[:, -1].max()),
                "Lcp": float(self.losses.component_scale() * (a**2).sum(-1).max()
                             + self.losses.ridge)}

    @property
    def certified(self) -> str:
        """'exact' (quadratic losses) or 'bound' (logistic)."""
        return "exact" if self.losses.exact else "bound"

    def heterogeneity(self) -> float:
        """zeta_*^2 = (1/M) sum_m ||grad f_m(w^*, beta_m^*)||^2 (hanzely2023 Theorem 1)."""
        o = self.optimum
        gw, gb = self.client_grads(o["w"][None], o["beta"][None])
        return float(((gw**2).sum(-1) + (gb**2).sum(-1)).mean())


def _blockmax(H: np.ndarray, lo: int, hi: int) -> float:
    """Largest eigenvalue of the [lo:hi, lo:hi] blocks of a stack of symmetric matrices."""
    if hi <= lo:
        return 0.0
    B = H[..., lo:hi, lo:hi]
    return float(np.linalg.eigvalsh(0.5 * (B + np.swapaxes(B, -1, -2)))[..., -1].max())


