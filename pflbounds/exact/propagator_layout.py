"""One state vector for a method whose state holds several named sequences.

The exact propagator moves one vector x (per block). A method's state is a dict of arrays
(the iteration driver's convention: a leading replica axis R, then the sequence's own shape),
e.g. ACD-PFL's {"w_y": (d0,), "w_z": (d0,), "beta_y": (M, d1), "beta_z": (M, d1)} or
ASVRCD-PFL's y, z and snapshot v (hanzely2023 digest section 4). :class:`StateLayout` fixes
the order of the sequences (the mapping's order) and the row-major flattening of each, so
that A_j, c_j and Sigma_j can be assembled by position and a driver's state compared with
the propagated mean.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

__all__ = ["StateLayout"]


class StateLayout:
    """Named sequences stacked in one vector: ``shapes`` maps each name to its shape."""

    def __init__(self, shapes: Mapping[str, tuple[int, ...]]) -> None:
        if not shapes:
            raise ValueError("a state layout needs at least one named sequence")
        self.shapes: dict[str, tuple[int, ...]] = {}
        self._slices: dict[str, slice] = {}
        start = 0
        for name, shape in shapes.items():
            shape = tuple(int(s) for s in np.atleast_1d(shape)) if shape != () else ()
            if any(s < 0 for s in shape):
                raise ValueError(f"sequence {name!r}: sizes must be >= 0, got {shape}")
            size = int(np.prod(shape, dtype=np.int64))
            self.shapes[name] = shape
            self._slices[name] = slice(start, start + size)
            start += size
        self.n = start

    def slice(self, name: str) -> slice:
        """Positions of one sequence in the vector, as a slice."""
        if name not in self._slices:
            raise ValueError(f"unknown sequence {name!r}; the layout has {list(self.shapes)}")
        return self._slices[name]

    def positions(self, name: str) -> np.ndarray:
        """Positions of one sequence in the vector, shaped like the sequence."""
        sl = self.slice(name)
        return np.arange(sl.start, sl.stop).reshape(self.shapes[name])

    def flatten(self, state: Mapping[str, np.ndarray], lead: int = 0) -> np.ndarray:
        """Stack the sequences of ``state`` (each of shape (*lead_shape, *shape), ``lead``
        leading axes, e.g. 1 for the replica axis) into (*lead_shape, n)."""
        missing = [k for k in self.shapes if k not in state]
        if missing:
            raise ValueError(f"state lacks the sequences {missing}")
        parts = []
        lead_shape = None
        for name, shape in self.shapes.items():
            arr = np.asarray(state[name], dtype=np.float64)
            if arr.ndim != lead + len(shape) or arr.shape[lead:] != shape:
                raise ValueError(f"sequence {name!r} must have shape (..., {shape}) with "
                                 f"{lead} leading axes, got {arr.shape}")
            if lead_shape is None:
                lead_shape = arr.shape[:lead]
            elif arr.shape[:lead] != lead_shape:
                raise ValueError(f"sequence {name!r} has leading axes {arr.shape[:lead]}, "
                                 f"others {lead_shape}")
            parts.append(arr.reshape(*lead_shape, -1))
        return np.concatenate(parts, axis=-1)

    def unflatten(self, x: np.ndarray) -> dict[str, np.ndarray]:
        """The inverse of :meth:`flatten`: x of shape (..., n) -> dict of (..., *shape)."""
        x = np.asarray(x)
        if x.shape[-1:] != (self.n,):
            raise ValueError(f"x must have last axis n={self.n}, got shape {x.shape}")
        return {name: x[..., sl].reshape(*x.shape[:-1], *self.shapes[name])
                for name, sl in self._slices.items()}
