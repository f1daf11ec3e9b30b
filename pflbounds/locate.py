"""Where everything about a result lives in the code: its formula, the method it is about,
the checks that test it and its errata (``pflbounds show``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pflbounds.symbolic.location import (
    dotted_location,
    missing_method,
    object_location,
    source_location,
)

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.check import Check
    from pflbounds.running.index.view import PaperIndex


def locate(result_id: str, index: PaperIndex | None = None) -> dict[str, Any]:
    """``{"formula", "algorithms", "checks", "errata"}`` with ``path:line`` locations, and
    ``no_method`` (why no method is named) when the result declares one.

    ``checks`` lists every registered check whose ``result_id`` is this result or which
    demonstrates one of its errata. ``index``: the papers' index to read the checks and
    methods from (:mod:`pflbounds.running.index`) instead of importing them.
    """
    from pflbounds.checking import registry
    from pflbounds.symbolic import catalog

    r = catalog.get(result_id)
    erratum_checks = {e.check_id for e in r.errata if e.check_id}
    pool = registry.all_checks(r.paper) if index is None else index.checks(r.paper)
    checks = [
        {"id": c.id, "kind": c.kind.value, "expected": c.expected.value,
         "at": simulate_location(c)}
        for c in pool
        if c.result_id == r.id or c.id in erratum_checks
    ]
    if index is None:
        algorithms = [{"name": a, "at": dotted_location(a)} for a in catalog.algorithms_of(r.id)]
    else:
        algorithms = [{"name": a["name"], "at": source_location(_source(a["source"]))}
                      for a in index.algorithms(r.id)]
    out = {
        "formula": r.extra.get("defined_at", ""),
        "algorithms": algorithms,
        "checks": checks,
        "errata": [{"id": e.id, "at": e.defined_at, "check": e.check_id} for e in r.errata],
    }
    if r.no_method:
        out["no_method"] = r.no_method
    return out


def _source(src: Any) -> tuple[str, int] | None:
    return None if not src else (str(src[0]), int(src[1]))


def simulate_location(check: Check) -> str:
    """``path:line`` of a check's ``simulate`` (recorded, for a check read from an index)."""
    from pflbounds.checking.indexed import IndexedSimulate

    sim = check.simulate
    if isinstance(sim, IndexedSimulate):
        return source_location(sim.source)
    return object_location(sim)


DIGESTS_ENV = "PFLBOUNDS_DIGESTS"
"""Folders (separated by the path separator) that hold the papers' digests."""


def paper_folder(paper: str) -> Path | None:
    """The folder of the paper package of ``paper`` (None when none is found)."""
    import importlib.util

    from pflbounds.symbolic import loader

    for name in loader.paper_packages():
        if name.rsplit(".", 1)[-1] != paper:
            continue
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.submodule_search_locations:
            return Path(next(iter(spec.submodule_search_locations)))
    return None


def digest_folders(paper: str) -> tuple[list[Path], bool]:
    """Where the digest of ``paper`` is looked for, and whether that is a place it must be
    in: the paper's own folder (a paper outside pflbounds keeps its digest there), the
    folders of ``PFLBOUNDS_DIGESTS``, and the ``shared/papers`` folder of the project beside
    an enclosing folder of the paper (a clone of the repository). A paper shipped with
    pflbounds names a digest of the project's paper collection, which is not shipped: when
    neither of the last two exists, where it is is unknown."""
    import os

    from pflbounds.symbolic import loader

    home = paper_folder(paper)
    env = [Path(p) for p in os.environ.get(DIGESTS_ENV, "").split(os.pathsep) if p]
    shared = [] if home is None else [
        d / "shared" / "papers" for d in home.resolve().parents
        if (d / "shared" / "papers").is_dir()][:1]
    folders = ([home] if home is not None else []) + env + shared
    shipped = home is not None and home.resolve().parent == Path(
        loader.__file__).resolve().parents[1] / "papers"
    return folders, bool(env or shared or not shipped)


def show_warnings(result_id: str, index: PaperIndex | None = None) -> list[str]:
    """One line for each method of the result that does not exist and for a digest of its
    paper that is not found (``pflbounds show`` prints them on stderr); ``index``: the
    papers' index that knows the methods and the paper's record (:func:`locate`)."""
    from pflbounds.symbolic import catalog

    r = catalog.get(result_id)
    out = []
    if index is None:
        methods = [(d, missing_method(d)) for d in catalog.algorithms_of(r.id)]
        record = catalog.papers().get(r.paper, {})
    else:
        methods = [(a["name"], a["missing"]) for a in index.algorithms(r.id)]
        record = index.paper_record(r.paper) or {}
    for dotted, why in methods:
        if why is not None:
            out.append(f"method {dotted} of {r.id} does not exist ({why})")
    digest = record.get("digest", "")
    if digest:
        folders, must = digest_folders(r.paper)
        p = Path(digest)
        found = p.is_file() if p.is_absolute() else any((f / p).is_file() for f in folders)
        if not found and must:
            where = ", ".join(str(f) for f in folders) or "no folder"
            out.append(f"digest {digest} of paper {r.paper} does not exist (looked in "
                       f"{where}; {DIGESTS_ENV}=DIR adds a folder)")
    return out
