"""The philippenko2025 testbeds of digest §6.0, built on the shared problem families.

* TB-Q (isotropic clustered quadratics with additive noise) is
  :class:`pflbounds.problems.quadratic.QuadraticFamily` with h = a 1 (:func:`tb_q`; clusters
  along one axis: :func:`two_clusters`; with jittered optima, TB-Qv: :func:`tb_qv`).
* TB-A / TB-P are :class:`pflbounds.problems.client_quadratics.ClientQuadratics` with scale
  1/2 (TB-A) or 1 (the normalisation of Property 1, TB-P): :func:`tb_a`.
* TB-NC is :class:`pflbounds.problems.cosine_clusters.CosineClusters` (:func:`tb_nc`).
* TB-LSR, the least-squares stream of Appendix A, is
  :class:`pflbounds.problems.least_squares_stream.LeastSquaresStream`
  (:func:`appendix_a_stream`).

* The worst-case searches' families (:mod:`pflbounds.tightness` models named by
  ``instances:ATTRIBUTE`` in ``audit.py``): :data:`IDENTICAL_CONSTANT`,
  :data:`IDENTICAL_DECREASING` (one cluster of identical clients) and
  :data:`STEP_RATIO_BINARY`, :data:`STEP_RATIO_CONTINUOUS` (Remark 3's step ratio); see
  the section "Worst-case families" below.

Every family draws its random parts from the generator it is given, in a fixed order, so a
check's instance depends on its grid point's seed only.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from pflbounds.problems.client_quadratics import ClientQuadratics, random_spd
from pflbounds.problems.cosine_clusters import CosineClusters
from pflbounds.problems.least_squares_stream import LeastSquaresStream
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.tightness.models import (
    InstanceError,
    Measurement,
    Model,
    g3,
    integer,
    placed,
    summarise,
    within,
)


def tb_q(labels: np.ndarray, centres: np.ndarray, a: float, sigma2: float | np.ndarray
         ) -> QuadraticFamily:
    """TB-Q (digest §6.0): R_k(theta) = a/2 ||theta - theta^{*,c(k)}||^2, g_k = grad R_k + sigma_k
    zeta with zeta ~ N(0, I_d/d): beta = mu = a, c_ik = 0, b_ik = a ||theta_i^* - theta_k^*||
    (tight). ``sigma2``: one value or one per client."""
    labels = np.asarray(labels)
    centres = np.asarray(centres, dtype=np.float64)
    d = centres.shape[1]
    s2 = np.broadcast_to(np.asarray(sigma2, dtype=np.float64), labels.shape)
    s = np.repeat(s2[:, None] / d, d, axis=1)
    return QuadraticFamily(h=np.full(d, float(a)), m=centres[labels], s=s)


def two_clusters(N: int, d: int, gap: float, a: float = 1.0, sigma2: float | np.ndarray = 1.0,
                 K: int = 2) -> tuple[QuadraticFamily, np.ndarray]:
    """TB-Q with K clusters on the first axis: client i in cluster i mod K, centres 0, gap e_1,
    2 gap e_1, ...; returns the family and the labels."""
    labels = np.arange(N) % K
    centres = np.zeros((K, d))
    centres[:, 0] = gap * np.arange(K)
    return tb_q(labels, centres, a, sigma2), labels


def tb_qv(N: int, d: int, gap: float, a: float, sigma2: float, v: float,
          rng: np.random.Generator) -> tuple[QuadraticFamily, np.ndarray, np.ndarray]:
    """TB-Qv: TB-Q with two clusters at distance ``gap`` and every optimum moved by v N(0, I_d)
    (TB-Q itself when v = 0, which draws nothing). Returns the family, its tight b
    (a ||theta_i^* - theta_k^*||, c = 0) and the labels."""
    labels = np.arange(N) % 2
    centres = np.zeros((2, d))
    centres[1, 0] = gap
    fam = tb_q(labels, centres, a, sigma2)
    if v > 0:
        fam = fam.with_optima(fam.m + v * rng.standard_normal((N, d)))
    return fam, fam.bias_matrix(), labels


def tb_a(N: int, d: int, lo: float, hi: float, spread: float, scale: float,
         rng: np.random.Generator) -> ClientQuadratics:
    """TB-A (``scale`` 1/2) or TB-P (``scale`` 1, Property 1's normalisation): per-client
    quadratics with Hessians of eigenvalues in [lo, hi], optima ``spread`` N(0, I_d) and
    noise variances uniform in [0.2, 2] (drawn in that order)."""
    A = random_spd(N, d, lo, hi, rng)
    m = spread * rng.standard_normal((N, d))
    return ClientQuadratics(A, m, rng.uniform(0.2, 2.0, N), scale=scale)


def tb_nc(n: int, d: int, gap: float, rho: float, sigma2: float) -> CosineClusters:
    """TB-NC (non-convex, no PL): two clusters of n clients at distance ``gap`` along every
    coordinate."""
    u = np.zeros((2 * n, d))
    u[1::2] = gap
    return CosineClusters(u, rho, sigma2)


def appendix_a_stream(d: int, rng: np.random.Generator, N: int = 20, batch: int = 2
                      ) -> tuple[LeastSquaresStream, np.ndarray]:
    """TB-LSR, the synthetic least squares of Appendix A (digest §5.2 recipe): two cluster
    optima theta^{*,0}, theta^{*,1} ~ U(-5, 5)^d (the authors' code; the paper does not say),
    client i in cluster i mod 2, batch b = 2. Returns the stream and the labels."""
    centres = rng.uniform(-5, 5, (2, d))
    labels = np.arange(N) % 2
    return LeastSquaresStream(centres[labels], batch=batch), labels


# ------------------------------------------------------------------ worst-case families
# The instance family philippenko2025's worst-case searches run on (:mod:`pflbounds.tightness`).
#
# N identical clients (one cluster: every r_ik^t = 1, Assumption 3 with b_ik = c_ik = 0) with
# the same quadratic R(theta) = 1/2 (theta - theta^*)^T H (theta - theta^*), H = diag(h), h in
# [mu, L]^d (so beta = L), each with additive Gaussian gradient noise N(0, diag(s)), sum(s) <=
# sigma^2, started together at R(theta^0) - R^* <= Delta0. All-for-one with Definition-1 weights:
# r_ik = 1 gives alpha_ik = phi(1) (sigma_{i,psi}/sigma)^2 = 1/N for both criteria (sigma_psi^2
# = sigma^2/(N psi(1)), psi(1) = lambda (binary) or 1 (continuous)), so every client runs SGD
# with the noise variance divided by N; the step ratio (sigma_phi/sigma_psi)^2 is 1. The
# effective and sufficient variances are sigma^2/(N psi(1)) (the constant ``psi1``), and
# Definition 2's sufficient cluster is the N clients (x_ik = 1).
#
# Two step schedules: a constant step ``eta`` (:class:`ConstantStep`) and Theorem 2's shifted
# decreasing step eta_t = C/(mu (t + gamma0)), t = 1, 2, ... (:class:`DecreasingStep`). In H's
# eigenbasis each coordinate evolves alone, m_j(t) = (1 - eta_t h_j)^2 m_j(t - 1) +
# eta_t^2 s_j/N with m_j = E[e_j^2], so every measure is exact (no sampling):
#
# * ``last``: E[R(theta^K)] - R^* = 1/2 sum_j h_j m_j(K);
# * ``avg_grad2``: (1/K) sum_{t=1}^K E||grad R(theta^{t-1})||^2 = (1/K) sum_t sum_j h_j^2
#   m_j(t - 1) (Theorem 3's left side);
# * ``steps``: the first t <= K with E[R(theta^t)] - R^* <= eps (K + 1 if none): the cost a
#   sufficient count (Corollary 1) claims to cover.
#
# Parameters: ``spectrum`` h (d,), ``noise`` s (d,), ``x0``: u with theta^0 - theta^* =
# H^{-1/2} u, so R(theta^0) - R^* = ||u||^2/2. The constants the bounds read (beta, eps0, T,
# sigma_suf2, sigma_eff2, S_eff, ...) are derived from the model's (:meth:`derived`), so a
# case cannot give the bound other values than the instance has.


class _IdenticalClients(Model):
    """N identical clients of one cluster with Definition-1 weights (the comment above)."""

    kind = "exact"
    parameters = ("spectrum", "noise", "x0")
    measures = ("last", "avg_grad2", "steps")
    schedule: tuple[str, ...] = ()

    def __init__(self) -> None:
        self.constants = ("mu", "L", "K", "sigma2", "d", "Delta0", "N", "psi1",
                          *self.schedule)

    def steps_of(self, c: Mapping[str, float]) -> np.ndarray:  # pragma: no cover
        """eta_1, ..., eta_K."""
        raise NotImplementedError

    def derived(self, c: Mapping[str, float]) -> dict[str, float]:
        var = float(c["sigma2"]) / (float(c["N"]) * float(c["psi1"]))
        return {"beta": float(c["L"]), "eps0": float(c["Delta0"]), "T": float(c["K"]),
                "sigma_suf2": var, "sigma_eff2": var, "sigma_eff2_avg": var,
                "Nstar": float(c["N"]), "psi_min": float(c["psi1"]), "kappa_w": 1.0}

    def default(self, c: Mapping[str, float]) -> dict[str, np.ndarray]:
        d = integer(c, "d")
        h = np.geomspace(c["mu"], c["L"], d)
        h[0], h[-1] = c["mu"], c["L"]
        return {"spectrum": h, "noise": np.full(d, float(c["sigma2"]) / d),
                "x0": np.full(d, np.sqrt(2.0 * float(c["Delta0"]) / d))}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        d = integer(c, "d")
        integer(c, "K")
        integer(c, "N")
        within("psi1", float(c["psi1"]), 0.0, 1.0, "psi(1) is lambda in (0, 1] or 1")
        for k in self.parameters:
            if np.shape(inst[k]) != (d,):
                raise InstanceError(f"{k} has shape {np.shape(inst[k])}, expected ({d},)")
        h, s, u = (np.asarray(inst[k], dtype=np.float64) for k in self.parameters)
        for i, v in enumerate(h):
            within(f"spectrum[{i}]", v, c["mu"], c["L"],
                   "the Hessian's eigenvalues must lie in [mu, beta]")
        if np.any(s < 0):
            raise InstanceError(f"noise has a negative variance {s.min():.6g}")
        within("sum(noise)", float(s.sum()), 0.0, c["sigma2"],
               "each client's noise variance must be <= sigma2")
        within("R(theta0) - R*", float(u @ u) / 2, 0.0, c["Delta0"],
               "the initial excess loss must be <= Delta0")

    def trajectory(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray]) -> np.ndarray:
        """m_j(t) = E[e_j(t)^2] for t = 0..K, shape (K + 1, d)."""
        h = np.asarray(inst["spectrum"], dtype=np.float64)
        s = np.asarray(inst["noise"], dtype=np.float64) / float(c["N"])
        u = np.asarray(inst["x0"], dtype=np.float64)
        m = u**2 / h
        out = [m]
        for eta in self.steps_of(c).tolist():
            m = (1.0 - eta * h) ** 2 * m + eta * eta * s
            out.append(m)
        return np.array(out)

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        h = np.asarray(inst["spectrum"], dtype=np.float64)
        m = self.trajectory(c, inst)
        if measure == "avg_grad2":
            return Measurement(float(np.mean(m[:-1] @ h**2)))
        gaps = 0.5 * (m @ h)
        if measure == "steps":
            if "eps" not in c:
                raise InstanceError("the measure steps needs the precision eps (fix it)")
            below = np.flatnonzero(gaps[1:] <= float(c["eps"]))
            return Measurement(float(below[0] + 1 if below.size else gaps.size))
        return Measurement(float(gaps[-1]))

    def describe(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray]) -> str:
        h = np.asarray(inst["spectrum"], dtype=np.float64)
        u = np.asarray(inst["x0"], dtype=np.float64)
        s = np.asarray(inst["noise"], dtype=np.float64)
        return (f"{int(c['N'])} identical clients; eigenvalues {summarise(h)}; "
                f"{placed('initial error', u**2, h)}, {placed('noise', s, h)}; "
                f"first step x beta = {g3(self.steps_of(c)[0] * float(c['L']))}")


class ConstantStep(_IdenticalClients):
    """A constant step ``eta``; also derives S_eff = sigma_eff^2 sum_{t=1}^T (1 - eta mu)^(T-t)
    (Theorem 1's discounted effective variance: sigma_eff^t is constant here)."""

    name = "philippenko2025_identical_constant"
    schedule = ("eta",)
    description = ("N identical clients of one cluster (Definition-1 weights 1/N), SGD on a "
                   "diagonal quadratic with spectrum in [mu, beta], constant step eta")

    def steps_of(self, c: Mapping[str, float]) -> np.ndarray:
        return np.full(integer(c, "K"), float(c["eta"]))

    def derived(self, c: Mapping[str, float]) -> dict[str, float]:
        out = super().derived(c)
        K, q = integer(c, "K"), 1.0 - float(c["eta"]) * float(c["mu"])
        out["S_eff"] = out["sigma_eff2"] * float(np.sum(q ** np.arange(K)))
        return out


class DecreasingStep(_IdenticalClients):
    """Theorem 2's shifted decreasing step eta_t = C/(mu (t + gamma0))."""

    name = "philippenko2025_identical_decreasing"
    schedule = ("C", "gamma0")
    description = ("N identical clients of one cluster (Definition-1 weights 1/N), SGD on a "
                   "diagonal quadratic with spectrum in [mu, beta], step C/(mu (t + gamma0))")

    def steps_of(self, c: Mapping[str, float]) -> np.ndarray:
        t = np.arange(1, integer(c, "K") + 1, dtype=np.float64)
        return float(c["C"]) / (float(c["mu"]) * (t + float(c["gamma0"])))


IDENTICAL_CONSTANT = ConstantStep()
IDENTICAL_DECREASING = DecreasingStep()


class StepRatio(Model):
    """Remark 3's step ratio (sigma_{i,phi}/sigma_{i,psi})^2 = sum_k psi(r_ik)/sigma_k^2 /
    sum_k phi(r_ik)/sigma_k^2 of client i (r_ii = 1), a closed form of the similarity ratios
    and the variances (no run).

    ``binary`` (lambda = ``lam``): parameters ``ratios`` (N - 1,) of the selected peers (r in
    [lambda, 1]; a peer below lambda has phi = psi = 0 and changes nothing) and ``variances``
    sigma_k^2 (N,), client i first. ``continuous``: parameters ``ratios`` (N - 1,) in [0, 1]
    and ``precisions`` sigma_i^2/sigma_k^2 of the peers (N - 1,), >= 0 and summing to
    SinvSum - 1 (SinvSum = sigma_i^2 sum_k sigma_k^-2, the constant Remark 3's corrected
    bound reads; a precision 0 is a peer of unbounded variance, the limit of the family)."""

    kind = "exact"
    measures = ("ratio",)

    def __init__(self, criterion: str) -> None:
        self.criterion = criterion
        self.name = f"philippenko2025_step_ratio_{criterion}"
        if criterion == "binary":
            self.constants, self.parameters = ("N", "lam"), ("ratios", "variances")
        else:
            self.constants, self.parameters = ("N", "SinvSum"), ("ratios", "precisions")
        self.description = (f"Remark 3's step ratio of one client, {criterion} criterion, "
                            "over the similarity ratios and the variances")

    def default(self, c: Mapping[str, float]) -> dict[str, np.ndarray]:
        n = integer(c, "N", 2) - 1
        if self.criterion == "binary":
            return {"ratios": np.ones(n), "variances": np.ones(n + 1)}
        return {"ratios": np.ones(n), "precisions": np.full(n, (float(c["SinvSum"]) - 1) / n)}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        n = integer(c, "N", 2) - 1
        r = np.asarray(inst["ratios"], dtype=np.float64)
        if r.shape != (n,):
            raise InstanceError(f"ratios has shape {r.shape}, expected ({n},)")
        lo = float(c["lam"]) if self.criterion == "binary" else 0.0
        for k, v in enumerate(r):
            within(f"ratios[{k}]", v, lo, 1.0, "a selected peer's ratio lies in [lambda, 1] "
                   "(binary) or [0, 1] (continuous)")
        other = np.asarray(inst[self.parameters[1]], dtype=np.float64)
        if self.criterion == "binary":
            if other.shape != (n + 1,) or np.any(other <= 0):
                raise InstanceError("variances must be N values > 0")
        else:
            if other.shape != (n,) or np.any(other < 0):
                raise InstanceError("precisions must be N - 1 values >= 0")
            within("1 + sum(precisions)", 1.0 + float(other.sum()), float(c["SinvSum"]),
                   float(c["SinvSum"]), "sigma_i^2 sum_k sigma_k^-2 must equal SinvSum")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        r = np.concatenate([[1.0], np.asarray(inst["ratios"], dtype=np.float64)])
        if self.criterion == "binary":
            w = 1.0 / np.asarray(inst["variances"], dtype=np.float64)
            phi = np.where(r >= float(c["lam"]), float(c["lam"]), 0.0)
        else:
            w = np.concatenate([[1.0], np.asarray(inst["precisions"], dtype=np.float64)])
            phi = r
        return Measurement(float(np.sum(w * r * phi) / np.sum(w * phi)))


STEP_RATIO_BINARY = StepRatio("binary")
STEP_RATIO_CONTINUOUS = StepRatio("continuous")
