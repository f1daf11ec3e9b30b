"""The catalog of results: look results up by id and list them by paper.

Papers register their results when imported. The catalog finds the paper packages through
:mod:`pflbounds.symbolic.loader`, so the engines never import a paper by name.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from pflbounds.symbolic import loader
from pflbounds.symbolic.result import Assumption, InstanceRelation, Result

_RESULTS: dict[str, Result] = {}
_ASSUMPTIONS: dict[str, Assumption] = {}
_PAPERS: dict[str, dict[str, str]] = {}
_ALGORITHMS: dict[str, tuple[str, ...]] = {}
_RELATIONS: dict[str, list[InstanceRelation]] = {}
"""Instance relations by declaring paper (``""``: the core's)."""


def register_paper(paper_id: str, title: str, citation: str, digest: str = "") -> None:
    _PAPERS[paper_id] = {"id": paper_id, "title": title, "citation": citation, "digest": digest}


def forget_paper(paper_id: str) -> None:
    """Remove a paper, its results, assumptions, constants and complexity table (tests)."""
    from pflbounds.symbolic.constants import forget_paper_constants

    _PAPERS.pop(paper_id, None)
    _COMPLEXITY.pop(paper_id, None)
    for rid in [k for k, r in _RESULTS.items() if r.paper == paper_id]:
        del _RESULTS[rid]
    for aid in [k for k in _ASSUMPTIONS if k.startswith(paper_id + ".")]:
        del _ASSUMPTIONS[aid]
    for rid in [k for k in _ALGORITHMS if k.startswith(paper_id + ".")]:
        del _ALGORITHMS[rid]
    _RELATIONS.pop(paper_id, None)
    forget_paper_constants(paper_id)


def register(result: Result) -> Result:
    if result.id in _RESULTS and _RESULTS[result.id] is not result:
        raise ValueError(f"result {result.id} registered twice")
    _RESULTS[result.id] = result
    return result


def register_relation(rel: InstanceRelation) -> InstanceRelation:
    """Record a relation between constants that every instance of ``rel.paper`` satisfies
    (idempotent: the same relation declared again is kept once)."""
    found = _RELATIONS.setdefault(rel.paper, [])
    if rel not in found:
        found.append(rel)
    return rel


def instance_relations(paper: str) -> list[InstanceRelation]:
    """The relations every input point of ``paper`` must satisfy: the paper's own, and the
    core's whose symbols are all core constants for this paper (a paper that gives ``L`` its
    own meaning does not inherit ``mu <= L``)."""
    from pflbounds.symbolic.constants import CORE, find_constant

    core = [r for r in _RELATIONS.get("", [])
            if all((c := find_constant(n, paper)) is not None and c.paper == CORE
                   for n in r.symbols)]
    return core + list(_RELATIONS.get(paper, [])) if paper else core


def register_algorithms(mapping: dict[str, tuple[str, ...]]) -> None:
    """Record which functions (dotted names) implement the method of each result id."""
    for rid, funcs in mapping.items():
        _ALGORITHMS[rid] = tuple(dict.fromkeys((*_ALGORITHMS.get(rid, ()), *funcs)))


def algorithms_of(result_id: str) -> tuple[str, ...]:
    """Dotted names of the functions implementing the method of ``result_id``."""
    load_papers()
    return loaded_algorithms_of(result_id)


def loaded_algorithms_of(result_id: str) -> tuple[str, ...]:
    """:func:`algorithms_of` from the papers loaded so far (no loading): a paper names the
    methods of its own results only, so its own load is enough."""
    return _ALGORITHMS.get(result_id, ())


def register_assumption(a: Assumption) -> Assumption:
    _ASSUMPTIONS[a.id] = a
    return a


def load_papers() -> None:
    """Import every paper package (idempotent); raises
    :class:`~pflbounds.symbolic.loader.PaperLoadError` naming a paper that fails."""
    loader.load_papers()


def get(result_id: str) -> Result:
    if result_id in _RESULTS:
        return _RESULTS[result_id]
    loader.load_for_result(result_id)
    if result_id not in _RESULTS:
        load_papers()  # every paper, for the suggestions
    try:
        return _RESULTS[result_id]
    except KeyError:
        import difflib  # only for an unknown id

        close = difflib.get_close_matches(result_id, list(_RESULTS), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(f"unknown result {result_id!r}{hint}") from None


@contextlib.contextmanager
def replaced(result: Result) -> Iterator[Result]:
    """Serve ``result`` in place of the registered result with the same id while the block
    runs (e.g. a mutated form, to measure whether the checks notice); the original comes back
    afterwards, even on an error. Lookups through :func:`get` see the replacement."""
    original = get(result.id)
    _RESULTS[result.id] = result
    try:
        yield result
    finally:
        _RESULTS[result.id] = original


def _paper_rank() -> dict[str, int]:
    """Position of each paper id in the loader's order (the order of a full load)."""
    return {n.rsplit(".", 1)[-1]: i for i, n in enumerate(loader.paper_packages())}


def _in_load_order(results: list[Result]) -> list[Result]:
    """``results`` in the order a full load registers them, whatever was loaded first (``eval``
    may have loaded one module of a paper): by paper in the loader's order, then, for a paper
    that defers its results, in the order of its result index (its manifest's modules, each
    in declaration order: :func:`pflbounds.symbolic.loader.result_modules`), else as
    registered."""
    rank = _paper_rank()
    index: dict[str, int] = {}
    for name in loader.paper_packages():
        if name not in sys.modules:
            continue
        for i, key in enumerate(loader.result_modules(name)):
            index[f"{name.rsplit('.', 1)[-1]}.{key}"] = i
    pos = {r.id: i for i, r in enumerate(results)}
    return sorted(results, key=lambda r: (rank.get(r.paper, len(rank)),
                                          index.get(r.id, len(index) + pos[r.id])))


def _load(paper: str | None) -> None:
    """Every paper, or only ``paper`` (every paper when it is not a package: for the
    message that lists the known ones)."""
    if paper is None or not loader.load_paper(paper):
        load_papers()


def in_load_order(results: list[Result]) -> list[Result]:
    """``results`` in the order a full load registers them (see :func:`results`)."""
    return _in_load_order(results)


def results(paper: str | None = None) -> list[Result]:
    _load(paper)
    if paper is not None and paper not in _PAPERS:
        raise KeyError(f"unknown paper {paper!r}; known: {', '.join(sorted(_PAPERS))}")
    return _in_load_order([r for r in _RESULTS.values() if paper is None or r.paper == paper])


def loaded_results() -> list[Result]:
    """The results of the papers loaded so far (no loading: ``eval`` loads only its own)."""
    return list(_RESULTS.values())


def assumptions(paper: str | None = None) -> list[Assumption]:
    _load(paper)
    rank = _paper_rank()
    found = [a for a in _ASSUMPTIONS.values() if paper is None or a.id.startswith(paper + ".")]
    return sorted(found, key=lambda a: rank.get(a.id.split(".", 1)[0], len(rank)))


def papers() -> dict[str, dict[str, str]]:
    load_papers()
    return loaded_papers()


def loaded_papers() -> dict[str, dict[str, str]]:
    """The papers loaded so far, in the loader's order (no loading)."""
    rank = _paper_rank()
    return dict(sorted(_PAPERS.items(), key=lambda kv: rank.get(kv[0], len(rank))))


_COMPLEXITY: dict[str, object] = {}


def register_complexity(paper_id: str, func) -> None:
    """Register a method-comparison table builder for a paper without a manifest (a paper
    with one declares ``complexity=True`` and defines ``table`` in its ``complexity.py``).

    ``func(values, matrices, objective=None, algorithm=None)`` returns a
    :class:`~pflbounds.symbolic.complexity.ComplexityTable`, or (before its paper is
    converted) a dict with keys ``question``, ``rows`` (method, result, form, the counts,
    hidden_constants, error) and optionally ``columns``, ``cheapest``, ``best``, ``notes``.
    """
    _COMPLEXITY[paper_id] = func


def complexity_function(paper_id: str):
    """The table builder of ``paper_id``'s calculator (its ``complexity.table``, or one
    registered with :func:`register_complexity`); ``KeyError`` for a paper without one,
    naming those with one. :func:`pflbounds.symbolic.complexity.complexity_table` calls it.
    Only the paper's package and its calculator load (the calculator imports the results it
    evaluates), unless there is no such package or it has no calculator (then every paper,
    to name those that have one)."""
    func = _complexity_of(paper_id) if loader.packages_of(paper_id) else None
    if func is not None:
        return func
    load_papers()
    func = _complexity_of(paper_id)
    if func is None:
        known = ", ".join(sorted(_complexity_papers())) or "none"
        raise KeyError(f"no complexity comparison for paper {paper_id!r}; available: {known}")
    return func


def _complexity_of(paper_id: str):
    """The table builder of ``paper_id`` (its package and calculator imported), or None."""
    func = _COMPLEXITY.get(paper_id)
    if func is None:
        mod = loader.paper_module(paper_id, "complexity")  # imports the package first
        func = getattr(mod, "table", None) if paper_id in _PAPERS else None
    return func


def _complexity_papers() -> list[str]:
    """The papers with a complexity calculator."""
    found = set(_COMPLEXITY)
    for name in loader.paper_packages():
        if name in sys.modules:
            man = loader.manifest_of(name)
            if man is not None and man.complexity:
                found.add(name.rsplit(".", 1)[-1])
    return sorted(found)


def applicable_relations(result: Result, form: str | None = None,
                         part: str | None = None) -> list[InstanceRelation]:
    """The instance relations of ``result``'s paper whose symbols are all inputs of the form
    (or of one part of it)."""
    needed = set(result.inputs(form, part))
    return [r for r in instance_relations(result.paper) if r.symbols <= needed]


def _declare_core_relations() -> None:
    import sympy as sp

    from pflbounds.symbolic.constants import L, mu

    register_relation(InstanceRelation(
        sp.Le(mu, L), "a mu-strongly convex function with L-Lipschitz gradient has mu <= L "
        "(no instance has mu > L)"))


_declare_core_relations()
