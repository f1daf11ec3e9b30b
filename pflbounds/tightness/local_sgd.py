"""Local SGD (periodic averaging) of N clients on quadratics with their own Hessians.

The family: f_i(x) = 1/2 (x - m_i)^T H_i (x - m_i), i = 1..N, on R^d, with H_i = Q_i
diag(h_i) Q_i^T, h_i in [mu, L]^d (every client mu-strongly convex and L-smooth; the
rotations Q_i set how the clients' eigenvectors align), F = (1/N) sum_i f_i with minimiser
x* = 0 (without loss of generality), heterogeneity at the optimum (1/N) sum_i ||grad
f_i(x*)||^2 <= zeta2 (the gradients g_i = grad f_i(x*) sum to 0, and m_i = -H_i^{-1} g_i),
stochastic gradients with noise N(0, diag(s_i)), sum_c s_ic <= sigma^2. The method: every
client starts at x_0 with ||x_0 - x*||^2 <= R0 and takes tau steps x_i <- x_i - eta g_i(x_i)
per round, then the server replaces every x_i by their average; K = R tau steps.

Instance parameters: ``spectra`` (N, d), ``rotations`` (N, d, d), ``noise`` (N, d),
``gradients`` (N, d) (the g_i), ``x0`` (d,) (x_0 - x*).

Measure (exact): ``last`` E[F(xbar_K) - F*] after the K/tau rounds, through
:func:`pflbounds.exact.propagate` on the stacked clients (n = N d): one round is one draw
(A, c, Sigma) = (M A_1^tau, M sum_{t<tau} A_1^t c_1, M (sum_{t<tau} A_1^t Sigma_1 A_1^tT)
M^T), with the step A_1 = blockdiag(I - eta H_i), c_1 = eta H_i m_i, Sigma_1 = eta^2
blockdiag(diag s_i), and the averaging M = (1/N) 1 1^T (x) I_d; the rounds are composed by
repeated squaring. F(xbar) - F* = 1/2 xbar^T Hbar xbar with Hbar = (1/N) sum_i H_i.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy.linalg import block_diag

from pflbounds.exact.propagator import LinearDraws, propagate
from pflbounds.exact.propagator_metrics import QuadraticMetrics
from pflbounds.tightness.models import (
    InstanceError,
    Measurement,
    Model,
    integer,
    register_model,
    within,
)

__all__ = ["LocalSGDClients"]


class LocalSGDClients(Model):
    """Local SGD of N quadratic clients (module docstring)."""

    name = "local_sgd_clients"
    kind = "exact"
    constants = ("mu", "L", "eta", "K", "tau", "sigma2", "d", "N", "R0", "zeta2")
    parameters = ("spectra", "rotations", "noise", "gradients", "x0")
    measures = ("last",)
    description = ("local SGD of N clients, tau local steps per round then averaging, K "
                   "steps, on quadratics with Hessians Q_i diag(h_i) Q_i^T (h_i in [mu, L]^d), "
                   "(1/N) sum_i ||grad f_i(x*)||^2 <= zeta2, noise <= sigma2 per client, "
                   "||x0 - x*||^2 <= R0; measured: E[F(xbar_K) - F*]")

    def default(self, c: Mapping[str, float]) -> dict[str, np.ndarray]:
        d, N = integer(c, "d"), integer(c, "N")
        h = np.geomspace(c["mu"], c["L"], d)
        h[0], h[-1] = c["mu"], c["L"]
        g = np.zeros((N, d))
        g[:, 0] = np.arange(N) - (N - 1) / 2
        ms = float((g**2).sum()) / N
        g *= np.sqrt(float(c["zeta2"]) / ms) if ms > 0 else 0.0
        return {"spectra": np.tile(h, (N, 1)), "rotations": np.tile(np.eye(d), (N, 1, 1)),
                "noise": np.full((N, d), float(c["sigma2"]) / d), "gradients": g,
                "x0": np.full(d, np.sqrt(float(c["R0"]) / d))}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        d, N, K, tau = (integer(c, k) for k in ("d", "N", "K", "tau"))
        if K % tau:
            raise InstanceError(f"K={K} is not a multiple of tau={tau}: the measure is the "
                                "average after K/tau rounds")
        shapes = {"spectra": (N, d), "rotations": (N, d, d), "noise": (N, d),
                  "gradients": (N, d), "x0": (d,)}
        for k, shape in shapes.items():
            if np.shape(inst[k]) != shape:
                raise InstanceError(f"{k} has shape {np.shape(inst[k])}, expected {shape} "
                                    f"(N = {N}, d = {d})")
        h = np.asarray(inst["spectra"], dtype=np.float64)
        for (i, j), v in np.ndenumerate(h):
            within(f"spectra[{i}, {j}]", v, c["mu"], c["L"],
                   "every client's eigenvalues must lie in [mu, L]")
        Q = np.asarray(inst["rotations"], dtype=np.float64)
        err = float(np.abs(np.swapaxes(Q, 1, 2) @ Q - np.eye(d)).max())
        if err > 1e-10:
            raise InstanceError(f"rotations are not orthogonal (|Q^T Q - I| = {err:.3g})")
        s = np.asarray(inst["noise"], dtype=np.float64)
        if np.any(s < 0):
            raise InstanceError(f"noise has a negative variance {s.min():.6g}")
        for i in range(N):
            within(f"sum(noise[{i}])", float(s[i].sum()), 0.0, c["sigma2"],
                   "each client's noise variance must be <= sigma2")
        g = np.asarray(inst["gradients"], dtype=np.float64)
        scale = max(float(np.abs(g).max()), 1e-300)
        if float(np.abs(g.sum(axis=0)).max()) > 1e-10 * scale * N:
            raise InstanceError("the gradients at x* must sum to 0 (x* minimises the average)")
        within("(1/N) sum ||grad f_i(x*)||^2", float((g**2).sum()) / N, 0.0, c["zeta2"],
               "the heterogeneity at the optimum must be <= zeta2")
        x0 = np.asarray(inst["x0"], dtype=np.float64)
        within("||x0 - x*||^2", float(x0 @ x0), 0.0, c["R0"], "the initial distance must be "
               "<= R0")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        d, N, K, tau = (integer(c, k) for k in ("d", "N", "K", "tau"))
        eta = float(c["eta"])
        h = np.asarray(inst["spectra"], dtype=np.float64)
        Q = np.asarray(inst["rotations"], dtype=np.float64)
        H = np.einsum("nij,nj,nkj->nik", Q, h, Q)
        H = 0.5 * (H + np.swapaxes(H, 1, 2))
        g = np.asarray(inst["gradients"], dtype=np.float64)
        m = -np.linalg.solve(H, g[..., None])[..., 0]
        n = N * d
        A1 = np.eye(n) - eta * block_diag(*H)
        c1 = eta * np.einsum("nij,nj->ni", H, m).reshape(n)
        S1 = eta**2 * np.diag(np.asarray(inst["noise"], dtype=np.float64).reshape(n))
        A, cr, S = np.eye(n), np.zeros(n), np.zeros((n, n))
        for _ in range(tau):  # one round: tau steps composed
            A, cr, S = A1 @ A, A1 @ cr + c1, A1 @ S @ A1.T + S1
        M = np.kron(np.full((N, N), 1.0 / N), np.eye(d))
        draws = LinearDraws(p=[1.0], A=(M @ A)[None], c=(M @ cr)[None],
                            Sigma=(M @ S @ M.T)[None], check=False)
        Hbar = H.mean(axis=0)
        Qm = np.kron(np.full((N, N), 1.0 / N**2), Hbar)
        x0 = np.tile(np.asarray(inst["x0"], dtype=np.float64), N)
        prop = propagate(draws, x0, [K // tau], QuadraticMetrics(Q=Qm[None, None]))
        return Measurement(float(prop.metrics[-1, 0]))


register_model(LocalSGDClients())
