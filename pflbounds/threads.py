"""One BLAS and OpenMP thread per process: the environment variables that say so.

Two worker processes on two cores, each with a BLAS pool of two threads, oversubscribe the
machine and run barely faster than one; some reductions also give other bits with another
number of threads. So sweeps pin every process to one thread
(:mod:`pflbounds.running.workers`), and the command line sets the same defaults before numpy
loads (:func:`prefer_one_thread`): its other work is scalar formulas, reports and plots, and
starting numpy's BLAS pool costs part of every cold start. A value the user has set wins.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

PIN_ENV = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                                  "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS",
                                  "NUMEXPR_NUM_THREADS")}
"""The variables read by OpenBLAS, MKL, BLIS, Accelerate, OpenMP and numexpr at load time."""


def prefer_one_thread(environ: MutableMapping[str, str] | None = None) -> None:
    """Default every variable of :data:`PIN_ENV` to one thread, keeping values already set
    (effective only before numpy loads its BLAS)."""
    env = os.environ if environ is None else environ
    for name, value in PIN_ENV.items():
        env.setdefault(name, value)
