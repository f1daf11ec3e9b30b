"""Building a paper's index from its modules (imported here, as a command without an index
would import them).

Each part is built from the registries of this process after the paper package is loaded
(:func:`pflbounds.symbolic.loader.load_package`): the catalog for the ``results`` part, the
check registry for the ``checks`` part. A paper that fails to import raises its
:class:`~pflbounds.symbolic.loader.PaperLoadError` here, as it would without an index.
"""

from __future__ import annotations

from typing import Any

from pflbounds.symbolic import loader


def paper_id(package: str) -> str:
    """The paper id of a package: the last component of its module name."""
    return package.rsplit(".", 1)[-1]


def within(module: str | None, package: str) -> bool:
    """Whether the module ``module`` is the package ``package`` or one of its modules."""
    return bool(module) and (module == package or module.startswith(package + "."))


def results_part(package: str) -> dict[str, Any]:
    """``paper`` (the record the package registers: id, title, citation, digest, or None),
    ``results`` (one listing row per result, in the catalog's order: id, label, kind,
    quantity, forms), ``algorithms`` (per result id, the functions that implement its
    method: dotted name, ``source`` file and line, and ``missing``, why it does not exist or
    None), and what ``complexity`` reads of every result of the paper: ``matrix_inputs``
    (the matrices its derivations read, in the order a full load declares them) and
    ``per_agent_inputs`` (the inputs that may be one value per client)."""
    from pflbounds.symbolic import catalog
    from pflbounds.symbolic.location import dotted_source, missing_method

    loader.load_package(package)
    pid = paper_id(package)
    declared = [r for r in catalog.loaded_results() if r.paper == pid]  # in declaration order
    results = catalog.in_load_order(declared)
    algorithms: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        names = catalog.loaded_algorithms_of(r.id)
        if names:
            algorithms[r.id] = [
                {"name": a, "source": list(src) if (src := dotted_source(a)) else None,
                 "missing": missing_method(a)} for a in names]
    return {
        "paper": catalog.loaded_papers().get(pid),
        "results": [{"id": r.id, "label": r.label, "kind": str(r.kind),
                     "quantity": r.quantity, "forms": list(r.forms)} for r in results],
        "algorithms": algorithms,
        "matrix_inputs": list(dict.fromkeys(
            n for r in declared for dv in r.derivations for n in dv.needs)),
        "per_agent_inputs": sorted(
            {n for r in declared for dv in r.derivations if dv.per_agent for n in dv.uses}),
    }


def checks_part(package: str) -> dict[str, Any]:
    """``paper`` (as in :func:`results_part`), ``checks``: the record
    (:func:`pflbounds.checking.indexed.record_of`) of every check the package's check modules
    register, by id, and ``family``: the paper's error family resolved against them
    (:func:`pflbounds.running.multiplicity.paper_family`; None when it declares none).
    ``checks`` is None when a check has no exact record or the family cannot be resolved
    (``unindexed`` says which): the part is then not stored, and a run resolves the family
    as it would without an index, with the same error."""
    from pflbounds.checking import registry
    from pflbounds.checking.indexed import record_of
    from pflbounds.running.fingerprint import code_record
    from pflbounds.running.multiplicity import paper_family
    from pflbounds.symbolic import catalog
    from pflbounds.symbolic.location import object_source

    loader.load_package(package, checks=True)
    pid = paper_id(package)
    record = catalog.loaded_papers().get(pid)
    records = []
    for c in registry.loaded_checks():
        module = registry.module_of(c.id)
        if not within(module, package):
            continue
        rec = record_of(c, module=module, source=object_source(c.simulate), **code_record(c))
        if rec is None:
            return {"paper": record, "checks": None, "unindexed": c.id}
        records.append(rec)
    try:
        family = paper_family(pid)
    except (TypeError, ValueError) as exc:
        return {"paper": record, "checks": None, "unindexed": f"error family: {exc}"}
    return {"paper": record, "checks": records,
            "family": None if family is None else family.to_dict()}


def build_part(package: str, part: str) -> dict[str, Any]:
    """The ``part`` (``results`` or ``checks``) of the index of ``package``."""
    if part == "results":
        return results_part(package)
    if part == "checks":
        return checks_part(package)
    raise ValueError(f"unknown index part {part!r}")


def storable(part: dict[str, Any]) -> bool:
    """Whether a built part may be stored (every check of a ``checks`` part recorded)."""
    return part.get("checks", []) is not None
