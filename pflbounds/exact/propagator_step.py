"""Kernels of the exact propagator: one step of the mean and covariance, and the repeated
squaring of a single draw's affine map (see :mod:`pflbounds.exact.propagator`).

One step, by the law of total covariance over the draw j:

    u_j = A_j m + c_j,   m' = sum_j p_j u_j,
    C' = sum_j p_j A_j C A_j^T + sum_j p_j Sigma_j + sum_j p_j (u_j - m')(u_j - m')^T.

Row structure. Block sampling changes few rows of the state per draw: A_j equals the
identity outside a row set R_j (|R_j| = r). Then, with Y_j = A_j[R_j, :] C (r x n),

    (A_j C A_j^T)[R_j, R_j^c] = Y_j[:, R_j^c],   (A_j C A_j^T)[R_j, R_j] = Y_j A_j[R_j, :]^T,
    (A_j C A_j^T)[R_j^c, R_j^c] = C[R_j^c, R_j^c],

so sum_j p_j A_j C A_j^T = C + Delta + Delta^T + E with Delta the p_j-weighted row changes
(Y_j - C[R_j, :]) scattered to rows R_j and E the (R_j, R_j) corrections
Y_j A_j[R_j, :]^T - Y_j[:, R_j] - Y_j[:, R_j]^T + C[R_j, R_j]. This costs about 2 J r n^2
flops instead of 4 J n^3, exactly (any superset of the changed rows gives the same result,
so every R_j is padded with unchanged rows to a common size r and the J draws are handled
as one batch; the scatter is a sorted segment sum, no loop over draws).
"""

from __future__ import annotations

import numpy as np

from pflbounds.exact.propagator_draws import LinearDraws

__all__ = ["Prepared", "step", "Doubling", "doubling_pays", "sym"]


def sym(C: np.ndarray) -> np.ndarray:
    """The symmetric part of a stack of square matrices."""
    return 0.5 * (C + np.swapaxes(C, -1, -2))


class _SegmentSum:
    """Sum rows of (B, L, ...) data that share a target index (given once, L targets), as
    sorted segments: np.add.reduceat, no Python loop."""

    def __init__(self, targets: np.ndarray) -> None:
        self.order = np.argsort(targets, kind="stable")
        self.unique, self.starts = np.unique(targets[self.order], return_index=True)

    def __call__(self, data: np.ndarray) -> np.ndarray:
        return np.add.reduceat(data[:, self.order], self.starts, axis=1)


class Prepared:
    """A set of draws in the form :func:`step` uses.

    ``structure``: "dense" (batched products over the J draws), "rows" (only the rows that
    differ from the identity, module docstring) or "auto" ("rows" when every draw changes at
    most half the rows)."""

    def __init__(self, draws: LinearDraws, structure: str = "auto") -> None:
        self.draws = draws
        self.p, self.A, self.c = draws.p, draws.A, draws.c
        self.Sigma_bar = np.tensordot(draws.p, draws.Sigma, axes=1)
        n, J = draws.n, draws.J
        # rows where some block's u_j = A_j m + c_j may differ from m: A_j != I or c_j != 0
        changed = np.any(draws.A != np.eye(n), axis=(1, 3)) | np.any(draws.c != 0, axis=1)
        r = int(changed.sum(axis=1).max())
        if structure == "auto":
            structure = "rows" if 2 * r <= n else "dense"
        if structure not in {"dense", "rows"}:
            raise ValueError(f"structure must be 'auto', 'dense' or 'rows', got {structure!r}")
        self.structure = structure
        if structure == "dense":
            self.sA = np.sqrt(draws.p)[:, None, None, None] * draws.A
            self.sAT = np.swapaxes(self.sA, -1, -2)
            return
        r = max(r, 1)
        # changed rows first, then unchanged rows as padding: J distinct sets of r rows
        self.rows = np.sort(np.argsort(~changed, axis=1, kind="stable")[:, :r], axis=1)
        jj = np.arange(J)[:, None]
        Arows = draws.A[jj, :, self.rows]  # (J, r, Ba, n)
        self.Arows = np.moveaxis(Arows, 2, 0)  # (Ba, J, r, n)
        self.Arows_stack = self.Arows.reshape(Arows.shape[2], J * r, n)  # one product per block
        self.ArowsT = np.swapaxes(self.Arows, -1, -2)
        self.crows = np.moveaxis(np.take_along_axis(draws.c, self.rows[:, None, :], axis=2),
                                 1, 0)  # (Bc, J, r)
        self.scatter_rows = _SegmentSum(self.rows.ravel())
        self.scatter_pairs = _SegmentSum((self.rows[:, :, None] * n
                                          + self.rows[:, None, :]).ravel())
        self.pw = draws.p[None, :, None, None]

    def advance(self, mean: np.ndarray, cov: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The moments one step later, from block means (B, n) and covariances (B, n, n)."""
        if self.structure == "dense":
            return self._dense(mean, cov)
        return self._rows(mean, cov)

    def _dense(self, mean: np.ndarray, cov: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        U = np.matmul(self.A, mean[..., None])[..., 0] + self.c  # (J, B, n)
        new_mean = np.broadcast_to(np.tensordot(self.p, U, axes=1), mean.shape)
        new_cov = np.matmul(np.matmul(self.sA, cov), self.sAT).sum(axis=0) + self.Sigma_bar
        if self.p.size > 1:  # spread of the draw means
            D = np.sqrt(self.p)[:, None, None] * (U - new_mean)  # (J, B, n)
            new_cov = new_cov + np.matmul(np.moveaxis(D, 0, 2), np.moveaxis(D, 0, 1))
        return new_mean, sym(new_cov)

    def _rows(self, mean: np.ndarray, cov: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Row structure (module docstring). With u_j = m + s_j (s_j on R_j), the mean is
        m + sum_j p_j s_j and the spread sum_j p_j s_j s_j^T - (m' - m)(m' - m)^T."""
        B, n = mean.shape
        J, r = self.rows.shape
        rows = self.rows
        S = (np.matmul(self.Arows, mean[:, None, :, None])[..., 0] + self.crows
             - mean[:, rows])  # s_j on R_j, (B, J, r)
        shift = np.zeros_like(mean)
        shift[:, self.scatter_rows.unique] = self.scatter_rows(
            (self.p[None, :, None] * S).reshape(B, J * r))
        C_rows = cov[:, rows]  # (B, J, r, n)
        Y = np.matmul(self.Arows_stack, cov).reshape(B, J, r, n)  # A_j[R_j, :] C
        at_R = np.broadcast_to(rows[None, :, None, :], (B, J, r, r))
        Y_R = np.take_along_axis(Y, at_R, axis=3)
        C_RR = np.take_along_axis(C_rows, at_R, axis=3)
        Z = np.matmul(Y, self.ArowsT)  # (A_j C A_j^T)[R_j, R_j]
        pair_change = self.pw * (Z - Y_R - np.swapaxes(Y_R, -1, -2) + C_RR
                                 + S[..., :, None] * S[..., None, :])
        delta = np.zeros((B, n, n))
        delta[:, self.scatter_rows.unique] = self.scatter_rows(
            (self.pw * (Y - C_rows)).reshape(B, J * r, n))
        out = cov + delta + np.swapaxes(delta, -1, -2) + self.Sigma_bar
        out = out - shift[:, :, None] * shift[:, None, :]
        flat = out.reshape(B, n * n)
        flat[:, self.scatter_pairs.unique] += self.scatter_pairs(
            pair_change.reshape(B, J * r * r))
        return mean + shift, sym(out)


def step(mean: np.ndarray, cov: np.ndarray, d: Prepared) -> tuple[np.ndarray, np.ndarray]:
    """One exact step of the block means (B, n) and covariances (B, n, n) (module
    docstring)."""
    return d.advance(mean, cov)


def _compose(first: tuple[np.ndarray, ...], then: tuple[np.ndarray, ...]) -> tuple[np.ndarray,
                                                                                 ...]:
    """The affine map (P, g, S) of ``first`` followed by ``then``:
    (P2 P1, P2 g1 + g2, P2 S1 P2^T + S2)."""
    P1, g1, S1 = first
    P2, g2, S2 = then
    return (P2 @ P1, np.matmul(P2, g1[..., None])[..., 0] + g2,
            sym(P2 @ S1 @ np.swapaxes(P2, -1, -2) + S2))


class Doubling:
    """Maps of D steps of a single draw, (A^D, sum_{t<D} A^t c, sum_{t<D} A^t Sigma A^tT):
    the powers of two by repeated squaring, a gap D by composing its binary digits (kept,
    so evenly spaced records compose each gap once)."""

    def __init__(self, draws: LinearDraws) -> None:
        self.powers = [(draws.A[0], draws.c[0], draws.Sigma[0])]
        self.gaps: dict[int, tuple[np.ndarray, ...]] = {}

    def _map(self, steps: int) -> tuple[np.ndarray, ...]:
        if steps not in self.gaps:
            while len(self.powers) < steps.bit_length():
                self.powers.append(_compose(self.powers[-1], self.powers[-1]))
            bits = [self.powers[i] for i in range(steps.bit_length()) if steps >> i & 1]
            out = bits[0]
            for m in bits[1:]:  # powers of one map commute: any order is exact
                out = _compose(out, m)
            self.gaps[steps] = out
        return self.gaps[steps]

    def advance(self, mean: np.ndarray, cov: np.ndarray, steps: int) -> tuple[np.ndarray,
                                                                              np.ndarray]:
        """The moments ``steps`` iterations later."""
        if steps == 0:
            return mean, cov
        P, g, S = self._map(steps)
        return (np.matmul(P, mean[..., None])[..., 0] + g,
                sym(P @ cov @ np.swapaxes(P, -1, -2) + S))


def doubling_pays(ks: np.ndarray) -> bool:
    """Matrix products: recursion 2 per step; doubling 3 per squaring, 3 per composed binary
    digit of each distinct gap and 2 per record."""
    K = int(ks[-1])
    if K == 0:
        return False
    gaps = {int(g) for g in np.diff(np.concatenate([[0], ks])) if g > 0}
    composed = sum(bin(g).count("1") - 1 for g in gaps)
    return 3 * (K.bit_length() - 1) + 3 * composed + 2 * ks.size < 2 * K
