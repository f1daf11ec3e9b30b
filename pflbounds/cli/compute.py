"""The computing commands: ``list``, ``show``, ``eval``, ``solve`` and ``complexity``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from pflbounds.cli.errors import CliError, with_paper_hint
from pflbounds.cli.inputs import (
    MATRIX_INPUTS,
    check_vector_inputs,
    check_vector_names,
    parse_inputs,
)
from pflbounds.cli.output import fmt_value, jsonable, print_json

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.running.index.view import PaperIndex
    from pflbounds.running.suite import CheckSource


def paper_index(args: argparse.Namespace) -> PaperIndex | None:
    """The papers' indexes ``list``, ``show`` and ``complexity`` read
    (:mod:`pflbounds.running.index`), in the task cache folder when there is one; None where
    the command line loaded the papers first (the index is off, or papers were loaded
    already in this process)."""
    if not getattr(args, "use_index", False):
        return None
    from pflbounds.running.index.store import index_root
    from pflbounds.running.index.view import PaperIndex

    return PaperIndex(index_root())


def cmd_list(args: argparse.Namespace) -> int:
    from pflbounds.symbolic import catalog

    idx = paper_index(args)
    if args.checks:
        return _list_checks(args, idx)
    try:
        if idx is not None:
            rows = idx.result_rows(args.paper)
        else:
            rows = [{"id": r.id, "label": r.label, "kind": str(r.kind), "quantity": r.quantity,
                     "forms": list(r.forms)} for r in catalog.results(args.paper)]
    except KeyError as e:
        raise CliError(str(e.args[0])) from None
    if args.json:
        print_json(rows)
        return 0
    width = max(len(r["id"]) for r in rows) if rows else 10
    for r in rows:
        print(f"{r['id']:<{width}}  {r['label']:<36}  {r['kind']:<14}  forms: "
              f"{', '.join(r['forms'])}")
    return 0


def check_rows(paper: str | None = None, source: CheckSource | None = None
               ) -> list[dict[str, Any]]:
    """One row per registered check (of one paper): its id, title, result and form, kind,
    expected verdict, role, cost class with its basis, the extras it needs (and which are
    missing) and whether the quick suite runs it. ``source``: where the checks come from
    (the papers' index; default the check registry, every paper loaded)."""
    from pflbounds.checking import registry
    from pflbounds.checking.cost import cost_of
    from pflbounds.checking.vocabulary import expected_claims
    from pflbounds.extras import missing

    quick = _quick_suite_ids(source)
    rows = []
    for c in (registry.all_checks(paper) if source is None else source.checks(paper)):
        cost, basis = cost_of(c)
        rows.append({"id": c.id, "title": c.title, "result": c.result_id, "form": c.form,
                     "kind": c.kind.value, "expected": c.expected.value,
                     "expected_claims": expected_claims(c.kind, c.form, c.expected),
                     "role": c.role, "engine": c.engine, "cost": cost, "cost_basis": basis,
                     "quick_suite": c.id in quick, "requires": list(c.requires),
                     "missing": missing(c.requires)})
    return rows


def _quick_suite_ids(source: CheckSource | None = None) -> set[str]:
    """The checks of the quick suite (empty when there is none or it cannot be read)."""
    from pflbounds.running.suite import SuiteError, find_suite, load_suite

    try:
        return {c.id for c in load_suite(find_suite("quick"), source).checks}
    except (SuiteError, OSError, KeyError, ValueError):
        return set()


def _list_checks(args: argparse.Namespace, idx: PaperIndex | None = None) -> int:
    from pflbounds.extras import install_command
    from pflbounds.symbolic import catalog

    papers = catalog.papers() if idx is None else idx.papers("checks")
    if args.paper is not None and args.paper not in papers:
        raise CliError(f"unknown paper {args.paper!r}; papers: "
                       f"{', '.join(sorted(papers))}")
    rows = check_rows(args.paper, idx)
    if args.json:
        print_json(rows)
        return 0
    from pflbounds.checking.vocabulary import claims_text

    width = max((len(r["id"]) for r in rows), default=10)
    rw = max((len(r["result"] or "-") for r in rows), default=6)
    print(f"{'check':<{width}}  {'result':<{rw}}  {'kind':<22}  {'role':<7}  {'cost':<7}  "
          f"{'quick':<5}  {'needs':<6}  expects")
    for r in rows:
        needs = ", ".join(r["requires"]) or "-"
        print(f"{r['id']:<{width}}  {r['result'] or '-':<{rw}}  {r['kind']:<22}  "
              f"{r['role']:<7}  {r['cost']:<7}  {'yes' if r['quick_suite'] else '-':<5}  "
              f"{needs:<6}  {claims_text(r['expected_claims'])}")
    print(f"{len(rows)} checks. cost of the full grid on 2 cores: cheap (under a minute), "
          "minutes (up to a quarter of an hour) or long (more); --json gives the basis. quick: "
          "in the quick suite (`pflbounds check ID --quick` runs its quick grid)")
    gone = sorted({m for r in rows for m in r["missing"]})
    if gone:
        print("not installed: " + "; ".join(
            f"{m} ({install_command(m)}) for {sum(m in r['missing'] for r in rows)} checks"
            for m in gone))
    return 0


def _result(rid: str):
    from pflbounds.symbolic import catalog

    try:
        return catalog.get(rid)
    except KeyError as e:
        ids = [r.id for r in catalog.results()]
        raise CliError(with_paper_hint(str(e.args[0]), "result", rid, ids)) from None


def _form_name(r, form: str | None, part: str | None = None) -> str:
    """The form ``--form`` names (``printed`` when absent), checked against the result, and
    ``--part`` checked against the form's parts."""
    name = "printed" if form is None else form
    if form is None and name not in r.forms:
        raise CliError(f"{r.id} has no printed form (the default); give --form with one of "
                       f"{', '.join(r.forms)}")
    if name not in r.forms:
        raise CliError(f"--form {form!r}: {r.id} has no such form; expected one of "
                       f"{', '.join(r.forms)}")
    if part is not None:
        parts = [p for p in r.forms[name].exprs if p]
        if not parts:
            raise CliError(f"--part {part!r}: {r.id} [{name}] has a single part; omit --part")
        if part not in parts:
            raise CliError(f"--part {part!r}: {r.id} [{name}] has parts {', '.join(parts)}")
    return name


def example_command(r: Any, form: str | None = None) -> str:
    """A ``pflbounds eval`` command that evaluates ``r`` (one form) at its declared example
    point: the inputs that form needs, in the order of :meth:`Result.inputs`."""
    name = form or ("printed" if "printed" in r.forms else next(iter(r.forms)))
    words = [f"{n}={r.example[n]:.12g}" for n in r.inputs(name) if n in r.example]
    flag = "" if name == "printed" else f" --form {name}"
    return f"pflbounds eval {r.id}{flag} " + " ".join(words)


def cmd_show(args: argparse.Namespace) -> int:
    import sympy as sp

    from pflbounds.locate import locate
    from pflbounds.symbolic.evaluate import hypotheses

    idx = paper_index(args)
    r = _result(args.result_id)
    forms = list(r.forms) if args.form is None else [_form_name(r, args.form)]
    doc = {
        "id": r.id, "label": r.label, "kind": str(r.kind), "source": r.source,
        "equations": list(r.equations), "quantity": r.quantity, "relation": r.relation,
        "statement": r.statement, "hypotheses": list(r.hypotheses),
        "conditions": [str(c) for c in r.conditions],
        "forms": {
            f: {
                "expression": {p: sp.sstr(e) for p, e in r.forms[f].exprs.items()}
                if r.forms[f].parts else sp.sstr(r.forms[f].expr),
                # LaTeX only for --json, which prints it (sympy's LaTeX printer simplifies
                # and imports sympy.physics: 0.2 s for even2022.theorem2, which text omits)
                **({"latex": r.latex(f)} if args.json else {}), "note": r.forms[f].note,
                "conditions": [str(c) for c in r.forms[f].conditions],
                "instance_relations": [
                    {"relation": h.text, "reason": h.reason}
                    for h in hypotheses(r, f) if h.kind == "instance"],
                "hidden_constants": r.forms[f].hidden_constants,
                "inputs": [{"name": n, "meaning": m, "unit": u}
                           for n, m, u in r.describe_inputs(f)],
                "matrix_inputs": sorted({
                    dv.symbol + " <- " + "+".join(dv.needs) for dv in r.derivations
                    if (not dv.forms or f in dv.forms) and dv.symbol in r.inputs(f)
                }),
            } for f in forms
        },
        "errata": [{"id": e.id, "what": e.what, "fix": e.fix, "check": e.check_id}
                   for e in r.errata],
        "example": dict(r.example),
        "where": locate(r.id, idx),
    }
    if args.json:
        print_json(doc)
        _show_warnings(r.id, idx)
        return 0
    print(f"{r.id} — {r.label} ({r.kind}; {r.source})")
    print(f"  {r.statement}")
    if r.hypotheses:
        print(f"  hypotheses: {', '.join(r.hypotheses)}")
    for c in r.conditions:
        print(f"  condition: {c}" + (f"  [{c.label}]" if c.label else ""))
    for f, fd in doc["forms"].items():
        print(f"\n  [{f}] {r.quantity} {r.relation} {fd['expression']}")
        if fd["note"]:
            print(f"      {fd['note']}")
        for c in fd["conditions"]:
            print(f"      condition: {c}")
        for h in fd["instance_relations"]:
            print(f"      instance: {h['relation']}  ({h['reason']})")
        for h in fd["hidden_constants"]:
            print(f"      hidden: {h}")
        print("      inputs: " + "; ".join(f"{i['name']} ({i['meaning']}, {i['unit']})"
                                          for i in fd["inputs"]))
        if fd["matrix_inputs"]:
            print("      from matrices: " + "; ".join(fd["matrix_inputs"]))
    if r.example:
        print("\n  example: " + example_command(r, forms[0] if args.form else None))
    for e in doc["errata"]:
        print(f"\n  erratum {e['id']}: {e['what']}\n      fix: {e['fix']}"
              + (f"\n      check: {e['check']}" if e["check"] else ""))
    _print_where(doc["where"])
    _show_warnings(r.id, idx)
    return 0


def _show_warnings(result_id: str, idx: PaperIndex | None = None) -> None:
    """A line on stderr for a method or a digest that does not exist (exit status 0)."""
    from pflbounds.locate import show_warnings

    for line in show_warnings(result_id, idx):
        print(f"pflbounds show: warning: {line}", file=sys.stderr)


def _print_where(where: dict[str, Any]) -> None:
    """The locality block of ``show``: where the formula, method, checks and errata live."""
    print("\n  where:")
    print(f"      formula   {where['formula']}")
    for a in where["algorithms"]:
        print(f"      method    {a['name']}  ({a['at']})")
    if where.get("no_method"):
        print(f"      method    none: {where['no_method']}")
    for c in where["checks"]:
        print(f"      check     {c['id']} [{c['kind']}, expects {c['expected']}]  ({c['at']})")
    for e in where["errata"]:
        print(f"      erratum   {e['id']}  ({e['at']})")


def _print_evaluation(ev, args: argparse.Namespace) -> None:
    if args.json:
        print_json(ev.to_json())
        return
    doc = ev.to_json()
    label = f"{doc['id']} [{doc['form']}]"
    if ev.solved_for:
        end = f" ({ev.boundary})" if ev.boundary else ""
        print(f"{label}: smallest {ev.solved_for} with value <= {ev.target:g}: "
              f"{fmt_value(doc['value'])}{end}")
    else:
        print(f"{label} = {fmt_value(doc['value'])}")
    for n, d in doc.get("derived", {}).items():
        print(f"  {n} = {fmt_value(doc['inputs'].get(n))}   ({d})")
    for h in doc["hidden_constants"]:
        print(f"  note: {h}")




def cmd_eval(args: argparse.Namespace) -> int:

    from pflbounds.symbolic import evaluate

    r = _result(args.result_id)
    form = _form_name(r, args.form, args.part)
    values, matrices = parse_inputs(args.inputs)
    check_vector_inputs(values, [r], r.id)
    ev = evaluate(r, form, matrices=matrices, finite=True, **values)
    if args.part is not None:  # the value of that part only
        ev.value = ev.value[args.part]
    if args.elasticities:
        from pflbounds.symbolic import elasticities

        el = elasticities(r, form, matrices=matrices, part=args.part or "", **values)
        if args.json:
            doc = ev.to_json()
            doc["elasticities"] = el
            print_json(doc)
            return 0
        _print_evaluation(ev, args)
        print("  elasticities d log(value) / d log(input):" + ("" if el else " none (it takes "
                                                                   "no inputs)"))
        for n, e in sorted(el.items(), key=lambda t: -_largest(t[1])):
            print(f"    {n:<10} {fmt_value(jsonable(e))}")
        return 0
    _print_evaluation(ev, args)
    return 0


def _largest(e: Any) -> float:
    """The largest |elasticity| of an entry (numbers, or reasons where undefined: -1)."""
    import numpy as np

    nums = [abs(float(x)) for x in np.ravel(np.asarray(e, dtype=object))
            if not isinstance(x, str)]
    return max(nums, default=-1.0)


def cmd_solve(args: argparse.Namespace) -> int:
    from pflbounds.symbolic import solve
    from pflbounds.symbolic.parsing import ParseError, parse_value

    r = _result(args.result_id)
    form = _form_name(r, args.form, args.part)
    if r.forms[form].parts and args.part is None:
        raise CliError(f"{r.id} [{form}] has parts {', '.join(p for p in r.forms[form].exprs)}: "
                       "name the one to solve with --part")
    values, matrices = parse_inputs(args.inputs)
    check_vector_inputs(values, [r], r.id)
    try:
        target = parse_value(args.target, values)
    except ParseError as e:
        raise CliError(f"--target: {e}") from None
    ev = solve(r, args.var, target, form, matrices=matrices, part=args.part or "", **values)
    _print_evaluation(ev, args)
    return 0


def cmd_complexity(args: argparse.Namespace) -> int:
    from pflbounds.symbolic import catalog, loader
    from pflbounds.symbolic.complexity import complexity_table

    what = f"complexity --paper {args.paper}"
    idx = paper_index(args)
    packages = loader.packages_of(args.paper)
    if idx is not None and packages:  # the paper's index: its calculator alone loads below
        parts = [idx.part(p, "results") for p in packages]
        known = any((pt["paper"] or {}).get("id") == args.paper for pt in parts)
        values, matrices = parse_inputs(args.inputs, tuple(dict.fromkeys(
            [*MATRIX_INPUTS, *(n for pt in parts for n in pt["matrix_inputs"])])))
        check_vector_names(values, {n for pt in parts for n in pt["per_agent_inputs"]}
                           if known else set(), what)
    else:
        if not loader.load_paper(args.paper):  # only its paper; every one to name the known
            loader.load_papers()
        values, matrices = parse_inputs(args.inputs)
        check_vector_inputs(values, catalog.results(args.paper)
                            if args.paper in catalog.loaded_papers() else [], what)
    try:
        table = complexity_table(args.paper, values, matrices,
                                         objective=args.objective, algorithm=args.algorithm)
    except KeyError as e:
        raise CliError(str(e.args[0])) from None
    table.require_inputs()  # every missing input named at once
    if args.json:
        print_json(table.to_dict())
        return 0
    print("\n".join(table.text()))
    return 0
