"""pflbounds: encode, compute and check the theory of personalized federated learning.

The Python interface (:mod:`pflbounds.api`) is reachable from here, loaded on first use so
that the command line starts fast::

    import pflbounds
    pflbounds.result("even2022.theorem2").eval(form="explicit", eta=0.25, mu=1, L=2, K=10,
                                                Delta0=1, sigma2=1, V=0.5, B=0.1)
"""

from typing import Any

from pflbounds.version import __version__

_API = ("result", "results", "complexity", "check", "validate")
"""``pflbounds.papers`` is the package of the papers: the list of papers is
:func:`pflbounds.api.papers`."""
__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        from pflbounds import api

        return getattr(api, name)
    raise AttributeError(f"module 'pflbounds' has no attribute {name!r}")
