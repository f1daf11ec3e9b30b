"""A catalog form evaluated on a grid: what a check compares its measurements with.

:func:`bound` is the one way a check evaluates a result's form. It looks the result up in
the catalog by id on every call, so that the mutation audit, which serves a mutated result in
place of the registered one (:func:`pflbounds.symbolic.catalog.replaced`), sees its checks
evaluate the mutant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.symbolic.result import Result


def bound(result_id: str | Result, form: str | None = None, *,
          matrices: Mapping[str, Any] | None = None,
          **values: Any) -> np.ndarray | dict[str, np.ndarray]:
    """The form ``form`` (default ``printed``) of the catalog result ``result_id`` at
    ``values``, as a float array broadcast over the array inputs (``K=ks[:, None]``,
    ``mu=mus``); a form with parts gives ``{part: array}``.

    The hypotheses are enforced as :func:`pflbounds.symbolic.evaluate.evaluate` enforces
    them: every input in its domain, the paper's instance relations, the side conditions
    (``HypothesisError`` names the one that fails); a missing input is an ``InputError``.
    Inputs the form does not take are ignored (a grid point carries the inputs of several
    forms). ``matrices`` feed the result's derivations (``b``, ``Lambda``). A
    :class:`Result` is looked up again by its id (the catalog's current one is evaluated).
    """
    from pflbounds.symbolic.catalog import get
    from pflbounds.symbolic.evaluate import evaluate

    rid = result_id.id if isinstance(result_id, Result) else result_id
    value = evaluate(get(rid), form, matrices=matrices, strict=False, **values).value
    if isinstance(value, dict):
        return {part: np.asarray(v, dtype=float) for part, v in value.items()}
    return np.asarray(value, dtype=float)
