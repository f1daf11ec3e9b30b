"""Dykstra's sweeps compiled with JAX (CPU, float64): the ``backend="jax"`` of
:func:`pflbounds.problems.dykstra.dykstra_project`.

Same algorithm, same sweep order and same stopping rule as the numpy loop, so both give the
same iterates up to rounding (the norms are summed in another order). What changes is the
layout. The circle method pairs the players at positions k and N - 1 - k of a list and then
rotates every position but the first by one; keeping the clients' blocks in that *position*
order makes every matching the same two contiguous halves (the second reversed) and the move
to the next matching a fixed rotation of the rows, with no gather or scatter by pair index.
The blocks are held as two arrays U (positions 0..N/2-1) and V (positions N-1 down to N/2),
each (N/2, R, d), so the pairs of a matching are U[k], V[k] and the rotation moves whole rows.
The n - 1 matchings (n for odd n, with a dummy client whose pairs have an infinite radius:
byes) are one body, run by ``lax.fori_loop`` over the matchings' increments and radii stacked
in position order (the increments updated in place), inside a ``lax.while_loop`` over sweeps
that carries the stopping test. After N - 1 rotations the rows are back in their places,
where the balls are projected.

The increments are stored per matching with the sign of the position order (the block at the
first-half position gets +p): swapping the two blocks of a pair negates the increment and
gives bitwise the same projection, so the mapping to and from the pair order of
:func:`pflbounds.problems.pairwise_constraints.pair_index` is a signed gather.

Importing this module imports JAX and turns on float64 (``jax_enable_x64``), as the other
JAX modules of the package do; :mod:`pflbounds.problems.dykstra` imports it only when the jax
backend is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from pflbounds.problems.pair_sets import pair_index  # noqa: E402

__all__ = ["COMPILER_OPTIONS", "position_layout", "run_sweeps"]

COMPILER_OPTIONS = {"xla_cpu_use_fusion_emitters": False,
                    "xla_cpu_enable_concurrency_optimized_scheduler": False}
"""XLA options of the sweep loop. XLA's older loop emitters run its loops about 2x faster than
the fusion emitters (jax 0.10, x86 CPU, n = 30, d = 50, R = 24, one core: 1.7-2.2 against
4.0 ms per sweep); without the scheduler that orders independent loops to run concurrently,
the loop uses about 17% less CPU on two cores (and about as much more wall time). An XLA
that no longer knows an option compiles with its defaults."""


@lru_cache(maxsize=64)
def position_layout(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The circle schedule in position order for n clients (N = n + n % 2 players).

    Returns ``pair`` and ``sign`` of shape (N - 1, N/2): the pair index (:func:`pair_index`
    order) met at positions (k, N - 1 - k) of round t and +1 if the first-half player is the
    pair's i (the smaller client), -1 if it is j, 0 for the dummy client's bye (``pair`` 0
    there); and ``where`` of shape (n(n-1)/2,): the flat (t * N/2 + k) slot of each pair.
    The rounds are those of :func:`pflbounds.problems.dykstra.round_robin_matchings`.
    """
    n = int(n)
    N = n + (n % 2)
    M = N // 2
    i, j = pair_index(n)
    idx = np.full((max(n, 1), max(n, 1)), -1, dtype=np.int64)
    idx[i, j] = np.arange(i.size)
    pair = np.zeros((N - 1, M), dtype=np.int64)
    sign = np.zeros((N - 1, M))
    where = np.zeros(i.size, dtype=np.int64)
    players = list(range(N))
    for t in range(N - 1):
        for k in range(M):
            a, b = players[k], players[N - 1 - k]
            if a < n and b < n:
                g = idx[min(a, b), max(a, b)]
                pair[t, k], sign[t, k] = g, (1.0 if a < b else -1.0)
                where[g] = t * M + k
        players = [players[0], players[-1], *players[1:-1]]
    return pair, sign, where


def _round(UV: tuple[jax.Array, jax.Array], pr: tuple[jax.Array, jax.Array]
           ) -> tuple[tuple[jax.Array, jax.Array], jax.Array]:
    """One matching: the blocks at positions k (``U[k]``) and N - 1 - k (``V[k]``), each
    (N/2, R, d), projected onto {||a - b|| <= r} with their increments ``p`` (N/2, R, d)
    (as :func:`pflbounds.problems.dykstra.project_pairs`), then the circle rotation of the
    positions."""
    U, V = UV
    p, r = pr
    M = U.shape[0]
    a = U + p
    b = V - p
    diff = a - b
    q = jnp.sqrt(jnp.sum(diff * diff, axis=-1, keepdims=True))
    excess = jnp.maximum(q - r, 0.0)
    move = jnp.where(excess > 0, 0.5 * excess / jnp.where(q > 0, q, 1.0), 0.0) * diff
    a2, b2 = a - move, b + move
    if M == 1:  # two players: one matching, nothing to rotate
        return (a2, b2), a - a2
    # positions [0, N-1, 1, ..., N-2]: U' = (a2_0, b2_0, a2_1..a2_{M-2}), V' = (b2_1.., a2_{M-1})
    U2 = jnp.concatenate([a2[:1], b2[:1], a2[1:M - 1]], axis=0)
    V2 = jnp.concatenate([b2[1:], a2[M - 1:]], axis=0)
    return (U2, V2), a - a2


def _project_balls(y: jax.Array, ball: jax.Array) -> jax.Array:
    """Each block (last axis) scaled into the ball (as the numpy loop does)."""
    norm = jnp.sqrt(jnp.sum(y * y, axis=-1, keepdims=True))
    return y * jnp.minimum(1.0, ball / jnp.maximum(norm, 1e-300))


@lru_cache(maxsize=32)
def _compiled(n: int, with_ball: bool) -> tuple[Callable, Callable]:
    """The jitted sweep loop for n clients, with or without balls (JAX retraces it per (R,
    d) and keeps each trace): with :data:`COMPILER_OPTIONS` and with XLA's defaults."""
    pair, sign, where = position_layout(n)
    N, M = pair.shape[0] + 1, pair.shape[1]
    m = n * (n - 1) // 2

    def loop(X, p, pb, r, ball, tol, max_sweeps, check, start):
        R, _, d = X.shape
        if m:
            # increments (N-1, N/2, R, d) and radii in position order; byes: p = 0, r = inf
            pp = (p[:, pair.reshape(-1)] * sign.reshape(1, -1, 1)).reshape(R, N - 1, M, d)
            pp = pp.transpose(1, 2, 0, 3)
            rr = jnp.where(sign != 0, r[pair], jnp.inf)[:, :, None, None]
        else:
            pp = jnp.zeros((N - 1, M, R, d))
            rr = jnp.full((N - 1, M, 1, 1), jnp.inf)

        def to_uv(Y):  # (R, n, d) -> U, V (N/2, R, d): positions k and N - 1 - k
            Y = jnp.concatenate([Y, jnp.zeros((R, N - n, d))], axis=1).transpose(1, 0, 2)
            return Y[:M], Y[M:][::-1]

        def sweep(state):
            U, V, pp, pbU, pbV, k, _ = state

            def matching(t, carry):  # the increments are updated in place
                U, V, pp = carry
                (U, V), pt = _round((U, V), (pp[t], rr[t]))
                return U, V, pp.at[t].set(pt)

            U2, V2, pp = jax.lax.fori_loop(0, N - 1, matching, (U, V, pp))
            if with_ball:  # rows are back in their places after the N - 1 rotations
                yU, yV = U2 + pbU, V2 + pbV
                U2, V2 = _project_balls(yU, ball), _project_balls(yV, ball)
                pbU, pbV = yU - U2, yV - V2
            delta = jnp.maximum(jnp.max(jnp.abs(U2 - U)), jnp.max(jnp.abs(V2 - V)))
            return U2, V2, pp, pbU, pbV, k + 1, delta

        def more(state):
            k, delta = state[5], state[6]
            stop = (delta < tol) & (k % check == 0)
            return (k < max_sweeps) & ((k == start) | ~stop)

        init = (*to_uv(X), pp, *to_uv(pb), start, jnp.asarray(jnp.inf, dtype=X.dtype))
        U, V, pp, pbU, pbV, k, delta = jax.lax.while_loop(more, sweep, init)

        def from_uv(U, V):
            return jnp.concatenate([U, V[::-1]], axis=0).transpose(1, 0, 2)[:, :n]

        if m:
            flat = pp.transpose(2, 0, 1, 3).reshape(R, (N - 1) * M, d)
            p = flat[:, where] * sign.reshape(-1)[where][None, :, None]
        return from_uv(U, V), p, from_uv(pbU, pbV), k, delta

    return jax.jit(loop, compiler_options=COMPILER_OPTIONS), jax.jit(loop)


def run_sweeps(X: np.ndarray, p: np.ndarray, pb: np.ndarray | None, r: np.ndarray,
               ball: float | None, tol: float, max_sweeps: int, check: int, start: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, int, float]:
    """Dykstra sweeps from the iterate X (R, n, d), the pair increments p (R, n(n-1)/2, d)
    and the ball increments pb (R, n, d, or None without balls), sweep ``start`` + 1 on,
    until the largest change of an entry over a sweep is below ``tol`` at a sweep count
    divisible by ``check`` (at least one sweep is done), or ``max_sweeps`` sweeps in all.

    Returns the new X, p, pb, the sweep count and the last sweep's change. The same sweeps as
    the numpy loop of :func:`pflbounds.problems.dykstra.dykstra_project` (which checks its
    gap at such a stop and, if the gap is too large, calls again from there).
    """
    X = np.asarray(X, dtype=float)
    n = X.shape[1]
    tuned, plain = _compiled(n, pb is not None)
    pbx = np.zeros_like(X) if pb is None else pb
    args = (X, p, pbx, np.asarray(r, dtype=float), 0.0 if ball is None else float(ball),
            float(tol), int(max_sweeps), max(int(check), 1), int(start))
    try:
        out = tuned(*args)
    except jax.errors.JaxRuntimeError as err:  # an XLA without the option: its defaults
        if "compile option" not in str(err):
            raise
        out = plain(*args)
    Xo, po, pbo, k, delta = jax.device_get(out)
    return (np.array(Xo), np.array(po), None if pb is None else np.array(pbo), int(k),
            float(delta))
