"""sympy's tensor module, loaded when something uses it, not at the first sum.

sympy builds every sum through ``Add.flatten``, which begins with ``from sympy.tensor.tensor
import TensExpr, TensAdd`` to ask whether a term is a tensor expression. The first sum of a
process therefore loads ``sympy.tensor.tensor`` and with it ``sympy.combinatorics``, whose
``polyhedron`` module builds the symmetry groups of the five Platonic solids as it is
imported: about 170 million instructions, 14% of ``import sympy`` and a fifth of what a cold
``pflbounds eval`` adds to it, for formulas that hold no tensor.

:func:`defer_tensor_module` puts a stand-in for the module in ``sys.modules``. It answers
``Add.flatten``'s import (and only that one: the stand-in looks at its caller) with two
classes that no object is an instance of, which is the truth while the real module is not
loaded, since only the real module makes tensor expressions. Any other use of the module
(an attribute of it read by any other code) imports the real module, which takes the
stand-in's place in ``sys.modules``; ``Add.flatten``, which imports it again at each call,
then sees the real classes. The command line defers the module for its one-shot commands
(``eval``, ``solve``); sympy's sums come out the same, object for object.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
from typing import Any

NAME = "sympy.tensor.tensor"
_ASKED = ("TensExpr", "TensAdd")
"""The names ``Add.flatten`` imports from the module."""


class _NoTensor:
    """Stands for ``TensExpr`` and ``TensAdd`` before the real module is loaded: no object is
    an instance, and none is made (calling it is an error, never a silent value)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> _NoTensor:
        raise TypeError(f"{NAME} is deferred; its classes are not loaded")


class _Deferred(types.ModuleType):
    """The stand-in for :data:`NAME` (see the module docstring)."""

    def __getattr__(self, name: str) -> Any:
        if name == "__path__":  # asked by every import from the module: not a package
            raise AttributeError(f"module {NAME!r} has no attribute '__path__'")
        if name in _ASKED and sys._getframe(1).f_code is self.__dict__["_flatten_code"]:
            return _NoTensor
        return getattr(load(), name)


def load() -> types.ModuleType:
    """The real :data:`NAME`, imported now if only the stand-in was there."""
    found = sys.modules.get(NAME)
    if isinstance(found, _Deferred):
        del sys.modules[NAME]
        try:
            importlib.import_module(NAME)
        except BaseException:
            sys.modules.setdefault(NAME, found)
            raise
    return sys.modules[NAME] if NAME in sys.modules else importlib.import_module(NAME)


def defer_tensor_module() -> bool:
    """Put the stand-in for :data:`NAME` in ``sys.modules`` (see the module docstring), unless
    the module is loaded already or sympy's layout is not the one expected. Imports sympy.
    Returns whether the stand-in is in place."""
    if NAME in sys.modules:
        return isinstance(sys.modules[NAME], _Deferred)
    import sympy.tensor
    from sympy.core.add import Add

    flatten = getattr(getattr(Add, "flatten", None), "__func__", None)
    spec = importlib.machinery.PathFinder.find_spec(NAME, sympy.tensor.__path__)
    if flatten is None or spec is None:
        return False
    stand_in = _Deferred(NAME, "Stands for sympy.tensor.tensor until it is used "
                               "(pflbounds.symbolic.deferred_tensor).")
    stand_in.__dict__.update(__spec__=spec, __loader__=spec.loader, __file__=spec.origin,
                             __package__="sympy.tensor", _flatten_code=flatten.__code__)
    sys.modules[NAME] = stand_in
    sympy.tensor.tensor = stand_in  # as the import system sets it (the real module's replaces it)
    return True
