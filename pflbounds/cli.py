"""The ``pflbounds`` command line (see DESIGN.md, "Command line").

Every command prints one JSON document on stdout with ``--json``. Errors go to stderr as one
line, with exit status 2 for bad input and 1 when ``validate`` finds an unexpected verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pflbounds.shown import shown

if TYPE_CHECKING:
    import numpy as np

EXIT_BAD_INPUT = 2
EXIT_UNEXPECTED = 1
EXIT_INTERNAL = 3
"""A defect of pflbounds (an exception no input should cause), reported in one line."""
MATRIX_INPUTS = ("b", "Lambda")
MAX_ENTRY = 1e100
"""The largest magnitude of a matrix or per-client entry (squares and sums of squares of
N^2 of them stay within double precision)."""
VECTOR_INPUTS = ("sigma2",)
"""Names that may hold one value per agent (a comma list or a .csv/.npy file), accepted by a
result whose per-agent derivations read them (philippenko2025's sigma_k^2)."""


class CliError(Exception):
    """An error reported to the user as one line with exit status 2."""


def _jsonable(x: Any) -> Any:
    import numpy as np

    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return [_jsonable(v) for v in x.tolist()]
    if isinstance(x, (np.floating, float)):
        f = float(x)
        return f if np.isfinite(f) else str(f)
    if isinstance(x, np.integer):
        return int(x)
    return x


def _print_json(doc: Any) -> None:
    print(json.dumps(_jsonable(doc), indent=2, sort_keys=False))


def load_matrix(path: str, name: str = "matrix") -> np.ndarray:
    """Load an N x N real matrix from ``.npy`` or ``.csv`` (numbers separated by commas, one
    row per line, no header); every problem with the file is a :class:`CliError`."""
    import numpy as np

    p = Path(path)
    what = f"{name} file {path!r}"
    if not p.exists():
        raise CliError(f"{what} does not exist")
    if p.is_dir():
        raise CliError(f"{what} is a directory; expected a .npy or .csv file")
    if p.suffix not in (".npy", ".csv", ".txt"):
        raise CliError(f"{what}: expected a .npy or .csv file")
    try:
        if p.suffix == ".npy":
            _check_npy(p, what, 2)
            m = np.load(p, allow_pickle=False)
        else:
            m = _read_csv(p, what)
    except CliError:
        raise
    except (ValueError, OSError, EOFError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise CliError(f"{what} could not be read: {reason}") from None
    m = np.asarray(m)
    if m.dtype.kind == "c":
        raise CliError(f"{what} holds complex numbers; expected a real matrix")
    if m.dtype.kind not in "fiub":
        raise CliError(f"{what} holds {m.dtype} values; expected a real matrix")
    m = m.astype(float)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.size == 0:
        raise CliError(f"{what} has shape {m.shape}; expected an N x N matrix")
    _check_clients(what, m.shape[0])
    bad = np.argwhere(~np.isfinite(m))
    if bad.size:
        i, j = bad[0]
        raise CliError(f"{what}: entry ({i}, {j}) is {m[i, j]}; expected finite numbers")
    big = np.argwhere(np.abs(m) > MAX_ENTRY)
    if big.size:
        i, j = big[0]
        raise CliError(f"{what}: entry ({i}, {j}) is {shown(m[i, j])}; expected numbers of "
                       f"magnitude at most {MAX_ENTRY:g} (the formulas square and sum them); "
                       "rescale the units")
    return m


def _check_clients(what: str, n: int) -> None:
    from pflbounds.limits import MAX_CLIENTS

    if n > MAX_CLIENTS:
        raise CliError(f"{what} has {n} clients: at most {MAX_CLIENTS}")


def _check_npy(p: Path, what: str, ndim: int) -> None:
    """A .npy file by its header, before its data is read: numpy's format, and not more
    than MAX_CLIENTS clients along any of its axes."""
    import numpy as np

    from pflbounds.limits import MAX_CLIENTS

    with p.open("rb") as fh:
        if fh.read(6) != b"\x93NUMPY":
            raise CliError(f"{what} is not a .npy file (written by numpy.save)")
        fh.seek(0)
        try:
            read = {(1, 0): np.lib.format.read_array_header_1_0,
                    (2, 0): np.lib.format.read_array_header_2_0}.get(
                np.lib.format.read_magic(fh))
            if read is None:
                return  # a later format: np.load reads or names it
            shape = read(fh)[0]
        except (ValueError, OSError, EOFError, SyntaxError):
            return  # np.load names the damage
    if len(shape) == ndim and any(s > MAX_CLIENTS for s in shape):
        _check_clients(what + f" (shape {tuple(shape)})", max(shape))


def _read_csv(p: Path, what: str) -> np.ndarray:
    """Rows of comma-separated numbers (no header); empty, space- or semicolon-separated and
    ragged files are named as such."""
    import numpy as np

    from pflbounds.limits import MAX_CSV_BYTES

    try:
        if p.stat().st_size > MAX_CSV_BYTES:
            raise CliError(f"{what} is larger than {MAX_CSV_BYTES // 10**6} MB; write a large "
                           "matrix as .npy (numpy.save)")
    except OSError as e:
        raise CliError(f"{what} could not be read: {e.strerror or e}") from None
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CliError(f"{what} is not a text file; expected numbers separated by commas") \
            from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise CliError(f"{what} is empty; expected N rows of N numbers separated by commas")
    rows = []
    for k, line in enumerate(lines, start=1):
        cells = line.split(",")
        if (len(cells) == 1 and len(line.split()) > 1) or ";" in line:
            raise CliError(f"{what}, line {k}: values must be separated by commas "
                           f"(found {line.strip()[:40]!r})")
        try:
            rows.append([float(c) for c in cells])
        except ValueError:
            hint = " (no header line)" if k == 1 else ""
            raise CliError(f"{what}, line {k}: expected numbers separated by commas{hint}, "
                           f"found {line.strip()[:40]!r}") from None
    if len({len(r) for r in rows}) > 1:
        raise CliError(f"{what}: rows have different lengths "
                       f"({', '.join(str(len(r)) for r in rows[:6])})")
    return np.array(rows, dtype=float)


def load_vector(text: str, name: str) -> np.ndarray:
    """One value per agent from a comma list (``1,2,0.5``), a ``.csv`` file (one row or one
    column of numbers separated by commas) or a 1-D ``.npy`` file; entries must be finite and
    > 0. Every problem is a :class:`CliError` naming the entry."""
    import numpy as np

    if Path(text).suffix in (".npy", ".csv", ".txt") or Path(text).exists():
        what = f"{name} file {text!r}"
        p = Path(text)
        if not p.is_file():
            raise CliError(f"{what} does not exist" if not p.exists() else
                           f"{what} is a directory; expected a .npy or .csv file")
        if p.suffix == ".npy":
            _check_npy(p, what, 1)
            try:
                v = np.load(p, allow_pickle=False)
            except (ValueError, OSError, EOFError) as e:
                raise CliError(f"{what} could not be read: {e}") from None
        else:
            v = _read_csv(p, what)
            v = v.ravel() if 1 in v.shape else v
        if np.asarray(v).dtype.kind not in "fiub":
            raise CliError(f"{what} holds {np.asarray(v).dtype} values; expected real numbers")
    else:
        what = f"{name}={text}"
        try:
            v = [float(c) for c in text.split(",")]
        except ValueError:
            raise CliError(f"{what}: expected numbers separated by commas (one per client)") \
                from None
    v = np.asarray(v, dtype=float)
    if v.ndim != 1 or v.size == 0:
        raise CliError(f"{what} has shape {v.shape}; expected one number per client")
    _check_clients(what, v.size)
    bad = np.flatnonzero(~np.isfinite(v) | (v <= 0) | (v > MAX_ENTRY))
    if bad.size:
        k = int(bad[0])
        raise CliError(f"{what}: entry {k} (client {k}) is {shown(v[k])}; expected a finite "
                       f"number > 0 and at most {MAX_ENTRY:g} for every client")
    return v


def check_vector_inputs(values: dict[str, Any], results: Sequence[Any], what: str) -> None:
    """A per-agent vector is refused where no per-agent derivation of ``results`` reads it
    (there, the name is one number and a vector would be read as a sweep)."""
    import numpy as np

    for n in VECTOR_INPUTS:
        if np.ndim(values.get(n, 0.0)) == 0:
            continue
        if not any(dv.per_agent and n in dv.uses for r in results for dv in r.derivations):
            raise CliError(f"{n}={','.join(shown(x) for x in values[n])}: {what} reads {n} as "
                           "one number, not one per client (a per-client vector is read by "
                           "results that derive per-client values from it, with their matrix)")


def matrix_inputs() -> tuple[str, ...]:
    """Names whose value may be a matrix file: ``b`` and ``Lambda``, and every matrix that a
    derivation of a loaded paper reads (a paper's own, e.g. philippenko2025's ``c``)."""
    from pflbounds.symbolic import catalog

    names = dict.fromkeys(MATRIX_INPUTS)
    for r in catalog.loaded_results():
        for dv in r.derivations:
            names.update(dict.fromkeys(dv.needs))
    return tuple(names)


def parse_inputs(items: Sequence[str]) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """Split ``name=value`` words into scalar values and matrices (``b=FILE``)."""
    from pflbounds.symbolic.parsing import ParseError, parse_assignments, resolve_assignments

    try:
        raw = parse_assignments(list(items))
    except ParseError as e:
        raise CliError(str(e)) from None
    matrices = {
        n: load_matrix(raw.pop(n), n) for n in matrix_inputs()
        if n in raw and (Path(raw[n]).suffix in (".npy", ".csv", ".txt") or Path(raw[n]).exists())
    }
    if len({m.shape for m in matrices.values()}) > 1:
        raise CliError("the matrices differ in size: " + ", ".join(
            f"{n} is {m.shape[0]} x {m.shape[1]}" for n, m in matrices.items()))
    vectors = {n: load_vector(raw.pop(n), n) for n in VECTOR_INPUTS
               if n in raw and ("," in raw[n] or Path(raw[n]).suffix in (".npy", ".csv", ".txt")
                                or Path(raw[n]).exists())}
    for n, v in vectors.items():
        for m, mat in matrices.items():
            if v.size != mat.shape[0]:
                raise CliError(f"{n} has {v.size} values but {m} is {mat.shape[0]} x "
                               f"{mat.shape[0]}: expected one value per client "
                               f"({mat.shape[0]})")
    try:
        values = resolve_assignments(raw)
    except ParseError as e:
        raise CliError(str(e)) from None
    return {**values, **vectors}, matrices


# ----------------------------------------------------------------------------- commands
def cmd_list(args: argparse.Namespace) -> int:
    from pflbounds.symbolic import catalog

    if args.checks:
        return _list_checks(args)
    try:
        rows = catalog.results(args.paper)
    except KeyError as e:
        raise CliError(str(e.args[0])) from None
    if args.json:
        _print_json([
            {"id": r.id, "label": r.label, "kind": str(r.kind), "quantity": r.quantity,
             "forms": list(r.forms)} for r in rows
        ])
        return 0
    width = max(len(r.id) for r in rows) if rows else 10
    for r in rows:
        print(f"{r.id:<{width}}  {r.label:<36}  {str(r.kind):<14}  forms: {', '.join(r.forms)}")
    return 0


def check_rows(paper: str | None = None) -> list[dict[str, Any]]:
    """One row per registered check (of one paper): its id, title, result and form, kind,
    expected verdict, role, cost class with its basis, the extras it needs (and which are
    missing) and whether the quick suite runs it."""
    from pflbounds.checking import registry
    from pflbounds.checking.cost import cost_of
    from pflbounds.checking.vocabulary import expected_claims
    from pflbounds.extras import missing

    quick = _quick_suite_ids()
    rows = []
    for c in registry.all_checks(paper):
        cost, basis = cost_of(c)
        rows.append({"id": c.id, "title": c.title, "result": c.result_id, "form": c.form,
                     "kind": c.kind.value, "expected": c.expected.value,
                     "expected_claims": expected_claims(c.kind, c.form, c.expected),
                     "role": c.role, "engine": c.engine, "cost": cost, "cost_basis": basis,
                     "quick_suite": c.id in quick, "requires": list(c.requires),
                     "missing": missing(c.requires)})
    return rows


def _quick_suite_ids() -> set[str]:
    """The checks of the quick suite (empty when there is none or it cannot be read)."""
    from pflbounds.running.suite import SuiteError, find_suite, load_suite

    try:
        return {c.id for c in load_suite(find_suite("quick")).checks}
    except (SuiteError, OSError, KeyError, ValueError):
        return set()


def _list_checks(args: argparse.Namespace) -> int:
    from pflbounds.extras import install_command
    from pflbounds.symbolic import catalog

    if args.paper is not None and args.paper not in catalog.papers():
        raise CliError(f"unknown paper {args.paper!r}; papers: "
                       f"{', '.join(sorted(catalog.papers()))}")
    rows = check_rows(args.paper)
    if args.json:
        _print_json(rows)
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


def _with_paper_hint(message: str, what: str, given: str, ids: Sequence[str]) -> str:
    """``message``, or a suggestion of the ids that add the paper to a bare id (``P11`` ->
    ``even2022.P11``)."""
    full = [i for i in ids if i.split(".", 1)[-1].lower() == given.lower()]
    if full and given not in ids:
        return f"unknown {what} {given!r}; did you mean {', '.join(full)}?"
    if any(i.startswith(given + ".") for i in ids):
        return (f"{given!r} is a paper, not a {what}; ids look like {given}.<name> "
                f"(`pflbounds list --paper {given}` lists them)")
    return message


def _result(rid: str):
    from pflbounds.symbolic import catalog

    try:
        return catalog.get(rid)
    except KeyError as e:
        ids = [r.id for r in catalog.results()]
        raise CliError(_with_paper_hint(str(e.args[0]), "result", rid, ids)) from None


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
                "latex": r.latex(f), "note": r.forms[f].note,
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
        "where": locate(r.id),
    }
    if args.json:
        _print_json(doc)
        _show_warnings(r.id)
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
    _show_warnings(r.id)
    return 0


def _show_warnings(result_id: str) -> None:
    """A line on stderr for a method or a digest that does not exist (exit status 0)."""
    from pflbounds.locate import show_warnings

    for line in show_warnings(result_id):
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
        _print_json(ev.to_json())
        return
    doc = ev.to_json()
    label = f"{doc['id']} [{doc['form']}]"
    if ev.solved_for:
        end = f" ({ev.boundary})" if ev.boundary else ""
        print(f"{label}: smallest {ev.solved_for} with value <= {ev.target:g}: "
              f"{_fmt_value(doc['value'])}{end}")
    else:
        print(f"{label} = {_fmt_value(doc['value'])}")
    for n, d in doc.get("derived", {}).items():
        print(f"  {n} = {_fmt_value(doc['inputs'].get(n))}   ({d})")
    for h in doc["hidden_constants"]:
        print(f"  note: {h}")


def _fmt_value(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_fmt_value(x)}" for k, x in v.items())
    if isinstance(v, list):
        return "[" + ", ".join(_fmt_value(x) for x in v) + "]"
    if isinstance(v, float):
        return f"{v + 0.0:.6g}"  # -0.0 + 0.0 is 0.0: no "-0"
    return str(v)


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
            _print_json(doc)
            return 0
        _print_evaluation(ev, args)
        print("  elasticities d log(value) / d log(input):" + ("" if el else " none (it takes "
                                                                   "no inputs)"))
        for n, e in sorted(el.items(), key=lambda t: -_largest(t[1])):
            print(f"    {n:<10} {_fmt_value(_jsonable(e))}")
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
    from pflbounds.symbolic import catalog

    values, matrices = parse_inputs(args.inputs)
    check_vector_inputs(values, catalog.results(args.paper) if args.paper in catalog.papers()
                        else [], f"complexity --paper {args.paper}")
    try:
        table = catalog.complexity_table(args.paper, values, matrices,
                                         objective=args.objective, algorithm=args.algorithm)
    except KeyError as e:
        raise CliError(str(e.args[0])) from None
    table.require_inputs()  # every missing input named at once
    if args.json:
        _print_json(table.to_dict())
        return 0
    print("\n".join(table.text()))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from pflbounds.checking import registry
    from pflbounds.running.executor import run_check

    try:
        check = registry.get(args.check_id)
    except KeyError as e:
        ids = [c.id for c in registry.all_checks()]
        raise CliError(_with_paper_hint(str(e.args[0]), "check id", args.check_id, ids)) from None
    from pflbounds.running.executor import require_extras

    require_extras(check)  # MissingExtra: one line naming the pip install to run
    if args.replicas is not None and not check.deterministic:
        from pflbounds.limits import LimitError, check_replicas

        try:
            check_replicas("--replicas", args.replicas, len(check.grid_for(args.quick)),
                           check.block_size)
        except LimitError as e:
            raise CliError(str(e)) from None
    _, outcome = _sweep(args, lambda **kw: run_check(
        check, replicas=args.replicas, quick=args.quick, base_seed=args.seed, jobs=args.jobs,
        **kw))
    if args.json:
        _print_json(outcome.to_dict())
    else:
        _print_outcomes([outcome])
    return 0 if outcome.as_expected else EXIT_UNEXPECTED


def _print_outcomes(outcomes) -> None:
    """One line per outcome in the words of :mod:`pflbounds.checking.vocabulary`."""
    from pflbounds.checking.vocabulary import outcome_line

    width = max(len(o.check_id) for o in outcomes)
    for o in outcomes:
        print(outcome_line(o, width))


def _available_suites() -> str:
    from pflbounds.running.suite import available_text

    return available_text()


def _results_not_suite(p: Path) -> CliError:
    """The error for a results folder (or its ``outcomes.json``) given where a suite belongs;
    a truncated or unreadable ``outcomes.json`` is named as such."""
    from pflbounds.running.results import OUTCOMES_FILE, ResultsError, load_outcomes

    f = p / OUTCOMES_FILE if p.is_dir() else p
    try:
        load_outcomes(f)
    except ResultsError as e:
        return CliError(f"{e}; rerun pflbounds validate to write it again")
    except OSError as e:
        return CliError(f"{f} cannot be read ({e.strerror or e})")
    return CliError(f"{str(p)!r} holds results written by validate, not a suite; "
                    f"`pflbounds report {p}` writes their report; {_available_suites()}")


def _suite_path(name: str | None) -> Path:
    """A suite file: ``name`` itself when it is a file, else the file of the suite name
    (``validation/NAME.toml`` here, else the shipped suite; default quick)."""
    from pflbounds.running.results import OUTCOMES_FILE
    from pflbounds.running.suite import SuiteNotFound, find_suite

    if name is None:
        name = "quick"

    p = Path(name)
    if p.is_dir():
        if (p / OUTCOMES_FILE).is_file():
            raise _results_not_suite(p)
        raise CliError(f"suite {name!r} is a directory; expected a suite file (.toml); "
                       f"{_available_suites()}")
    if p.name == OUTCOMES_FILE and p.is_file():
        raise _results_not_suite(p)
    if p.exists():
        return p
    try:
        return find_suite(name)
    except SuiteNotFound as e:
        raise CliError(str(e)) from None


def _run_suite(path: Path, args: argparse.Namespace):
    from pflbounds.running.suite import run_suite

    suite = _load_suite_file(path)
    if getattr(args, "scheduler", None):
        raise CliError(
            f"--scheduler {args.scheduler}: running on a Dask cluster is not available in this "
            "version; run locally with --jobs N"
        )
    if args.jobs < 1:
        raise CliError(f"--jobs must be >= 1, got {args.jobs}")
    multiplicity = "per-check" if getattr(args, "per_check", False) else "holm"
    return suite, run_suite(suite, jobs=args.jobs, multiplicity=multiplicity)


def _load_suite_file(path: Path):
    from pflbounds.running.suite import load_suite

    try:
        return load_suite(path)
    except UnicodeDecodeError:
        raise CliError(f"suite file {str(path)!r} is not text (not UTF-8); expected a TOML "
                       f"suite file; {_available_suites()}") from None
    except OSError as e:
        raise CliError(f"suite file {str(path)!r} cannot be read: {e.strerror or e}") from None
    except (KeyError, ValueError) as e:
        raise CliError(str(e.args[0] if e.args else e)) from None


def _open_cache(args: argparse.Namespace):
    """The task cache of a run (None with --no-cache)."""
    from pflbounds.running.cache import CacheError, TaskCache

    if getattr(args, "no_cache", False):
        return None
    try:
        return TaskCache(args.cache_dir)
    except CacheError as e:
        raise CliError(f"{e}; choose another with --cache-dir or run with --no-cache") from None


def _progress_mode(args: argparse.Namespace) -> str:
    """A bar on an interactive terminal; a line per check in logs and with --json."""
    return "lines" if getattr(args, "json", False) or not sys.stderr.isatty() else "bar"


def _run_stats_line(stats, cache) -> str:
    where = f"task cache {cache.root}" if cache is not None else "no task cache"
    failed = f", {stats.failed} failed" if stats.failed else ""
    warned = (f", {stats.warned} with numerical warnings (recorded with the task)"
              if stats.warned else "")
    return (f"{stats.tasks} tasks: {stats.cached} from the cache, {stats.computed} computed"
            f"{failed}{warned} in {stats.seconds:.1f} s ({where})")


def _sweep(args: argparse.Namespace, run):
    """Run ``run(cache=..., scheduler=..., progress=...)`` with the run options; Ctrl-C or
    SIGTERM end it with one line (finished tasks stay in the cache)."""
    from pflbounds.running.backends import connect
    from pflbounds.running.executor import terminate_on_sigterm

    cache = _open_cache(args)
    client = connect(args.scheduler)[0] if args.scheduler else None
    try:
        with terminate_on_sigterm():
            return cache, run(cache=cache, scheduler=client, progress=_progress_mode(args))
    except KeyboardInterrupt:
        kept = f"finished tasks are in the task cache {cache.root}; the same command " \
            "resumes the run" if cache is not None else "nothing was kept (--no-cache)"
        print(f"pflbounds {args.command}: interrupted; {kept}", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        if client is not None:
            client.close()


def cmd_validate(args: argparse.Namespace) -> int:
    from pflbounds.checking.vocabulary import summary_line
    from pflbounds.running.atomic import OutputError
    from pflbounds.running.results import check_results_folder, save_outcomes
    from pflbounds.running.suite import sweep_suite

    suite = _load_suite_file(_suite_path(args.suite))
    if args.jobs < 1:
        raise CliError(f"--jobs must be >= 1, got {args.jobs}")
    out = Path(args.out) if args.out else Path("reports") / suite.name
    label = "--out " if args.out else "results folder "
    try:  # before the run: a bad place fails now, not after hours of work
        check_results_folder(out, parents=not args.out)
    except OutputError as e:
        raise CliError(f"{label}{e}") from None
    multiplicity = "per-check" if args.per_check else "holm"
    cache, run = _sweep(args, lambda **kw: sweep_suite(
        suite, jobs=args.jobs, multiplicity=multiplicity, **kw))
    outcomes = run.outcomes
    try:
        save_outcomes(outcomes, out, run.provenance, parents=not args.out,
                      skipped=run.skipped)
    except OutputError as e:
        raise CliError(f"{label}{e}") from None
    except OSError as e:
        raise CliError(f"cannot write the results to {out} ({e.strerror or e}); the folder keeps "
                       "its previous results, and the finished tasks are in the task cache"
                       ) from None
    bad = [o for o in outcomes if not o.as_expected]
    st = run.stats
    if args.json:
        _print_json({"suite": suite.name, "out": str(out),
                     "outcomes": [o.to_dict() for o in outcomes],
                     "unexpected": [o.check_id for o in bad],
                     "skipped": [{"check_id": k, "reason": v} for k, v in run.skipped.items()],
                     "summary": summary_line(outcomes, run.skipped),
                     "tasks": {"total": st.tasks, "cached": st.cached, "computed": st.computed,
                               "failed": st.failed, "warned": st.warned,
                               "seconds": st.seconds},
                     "cache": None if cache is None else str(cache.root)})
    else:
        if outcomes:
            _print_outcomes(outcomes)
        _print_skipped(run.skipped)
        print(_run_stats_line(st, cache))
        print(f"{len(outcomes) - len(bad)}/{len(outcomes)} verdicts as expected; "
              f"results in {out}")
        print(summary_line(outcomes, run.skipped))
    return EXIT_UNEXPECTED if bad else 0


def _print_skipped(skipped: dict[str, str]) -> None:
    """One line per check skipped for a missing extra, with the reason."""
    width = max((len(k) for k in skipped), default=0)
    for cid, why in skipped.items():
        print(f"-- {cid:<{width}}  skipped: {why.removeprefix(f'check {cid} ')}")


def _cache_stale(cache) -> tuple[dict[str, str | None], object]:
    """The current fingerprint of every registered check, and a test of stale entries (of a
    check that is gone or whose code changed)."""
    from pflbounds.checking import registry
    from pflbounds.running.fingerprint import check_fingerprint

    current = {c.id: check_fingerprint(c) for c in registry.all_checks()}
    return current, lambda meta: current.get(meta.get("check_id")) != meta.get("fingerprint")


def cmd_cache(args: argparse.Namespace) -> int:
    from pflbounds.running import shared
    from pflbounds.running.cache import CacheError, TaskCache

    try:
        cache = TaskCache(args.cache_dir, create=False)
    except CacheError as e:
        raise CliError(str(e)) from None
    _, stale = _cache_stale(cache)
    if args.action == "clear":
        n, size = cache.clear(args.check, stale if args.stale else None)
        sn, ssize = (0, 0) if args.check else shared.clear(cache.root, stale_only=args.stale)
        kept = cache.foreign()
        if args.json:
            _print_json({"path": str(cache.root), "removed": n, "bytes": size,
                         "shared_removed": sn, "shared_bytes": ssize, "kept": kept})
        else:
            also = f" and {sn} shared computations ({_fmt_bytes(ssize)})" if sn else ""
            left = (f"; left the files pflbounds did not write: {', '.join(kept)}"
                    + (" …" if len(kept) >= 5 else "")) if kept else ""
            print(f"removed {n} tasks ({_fmt_bytes(size)}){also} from the task cache "
                  f"{cache.root}{left}")
        return 0
    info = cache.info()
    sinfo = shared.info(cache.root)
    stale_by: dict[str, int] = {}
    for e in cache.entries():
        if not isinstance(e, Path) and stale(e.meta):
            stale_by[e.check_id] = stale_by.get(e.check_id, 0) + 1
    for cid, c in info.checks.items():
        c["stale"] = stale_by.get(cid, 0)
    if args.json:
        _print_json({**info.to_dict(), "stale": sum(stale_by.values()), "shared": sinfo})
        return 0
    print(f"task cache {cache.root}" + ("" if cache.root.is_dir() else " (empty, not created)"))
    print(f"  {info.entries} tasks of {len(info.checks)} checks, {_fmt_bytes(info.bytes)}, "
          f"{info.compute_s:.1f} s of computation; {sum(stale_by.values())} stale (their check "
          "is gone or its code changed: `pflbounds cache clear --stale`)"
          + (f"; {info.unreadable} unreadable" if info.unreadable else ""))
    if sinfo["entries"]:
        print(f"  {sinfo['entries']} shared computations, {_fmt_bytes(sinfo['bytes'])}, "
              f"{sinfo['compute_s']:.1f} s of computation; {sinfo['stale']} stale")
    width = max((len(c) for c in info.checks), default=0)
    for cid, c in info.checks.items():
        print(f"  {cid:<{width}}  {c['entries']:>6} tasks  {_fmt_bytes(c['bytes']):>9}  "
              f"{c['compute_s']:>9.1f} s" + (f"  ({c['stale']} stale)" if c["stale"] else ""))
    return 0


def _fmt_bytes(n: float) -> str:
    if n < 1000:
        return f"{n:.0f} B"
    for unit in ("kB", "MB", "GB"):
        n /= 1000
        if n < 1000 or unit == "GB":
            break
    return f"{n:.1f} {unit}"


def cmd_report(args: argparse.Namespace) -> int:
    """Write the PDF report of a suite (run first) or of a results folder. Every problem with
    the source or the output is one line (exit 2), checked before any work; Ctrl-C leaves the
    previous report as it was (exit 130)."""
    from pflbounds.reporting.assemble import (
        UnknownPaperError,
        check_outcome_papers,
        load_outcome_papers,
    )

    out = None
    try:
        src = args.source
        if src is not None and (Path(src).is_dir() or Path(src).name == "outcomes.json"):
            outcomes, suite_name, results = _report_results(Path(src)), _report_name(src), src
            from pflbounds.running.results import load_skipped

            skipped = load_skipped(Path(src))
            suite = None
            # the papers the outcomes come from (all of them for an audit chapter), so
            # that a broken one is named before any work
            load_outcome_papers([] if args.audit else outcomes)
            try:
                check_outcome_papers(outcomes)
            except UnknownPaperError as e:
                raise CliError(f"results folder {str(results)!r}: {e}") from None
        else:
            load_outcome_papers([])  # a suite to run: every paper, as validate loads them
            suite = _load_suite_file(_suite_path(src))
            suite_name, results = suite.name, None
        out = _report_out(args.out, suite_name)
        data_dir = out.with_suffix("")
        if results is not None and Path(results).name == "outcomes.json":
            results = str(Path(results).parent)
        save = results is None or Path(results).resolve() != data_dir.resolve()
        if save:
            _report_check_results_folder(data_dir)
        audit = None
        if getattr(args, "audit", None):
            from pflbounds.reporting.audit_page import load_audit

            audit = load_audit(args.audit)  # ValueError: one line naming the folder or file
        if suite is not None:
            if args.jobs < 1:
                raise CliError(f"--jobs must be >= 1, got {args.jobs}")
            from pflbounds.running.suite import sweep_suite

            multiplicity = "per-check" if getattr(args, "per_check", False) else "holm"
            _, run = _sweep(args, lambda **kw: sweep_suite(
                suite, jobs=args.jobs, multiplicity=multiplicity, **kw))
            outcomes, skipped = run.outcomes, run.skipped
            _print_skipped(skipped)
        return _report_write(args, outcomes, suite, suite_name, results, out, save, audit,
                             skipped)
    except KeyboardInterrupt:
        where = f"; {out} and its figures are as they were" if out is not None else ""
        print(f"pflbounds report: interrupted{where}", file=sys.stderr)
        return 130


def cmd_new_paper(args: argparse.Namespace) -> int:
    """Write the skeleton of a paper package (:mod:`pflbounds.newpaper`)."""
    from pflbounds.newpaper import NewPaperError, write_skeleton
    from pflbounds.symbolic import catalog, loader

    papers = set(catalog.papers()) | {n.rsplit(".", 1)[-1] for n in loader.paper_packages()}
    folder = Path(args.dir) if args.dir else Path(".")
    try:
        files = write_skeleton(args.name, folder, papers)
    except NewPaperError as e:
        raise CliError(str(e)) from None
    pkg = files[0].parent
    inside = pkg.resolve().parent == Path(loader.__file__).resolve().parents[1] / "papers"
    env = "" if inside else f"PFLBOUNDS_PAPERS={pkg.parent} "
    print(f"wrote {pkg}{os.sep}: " + ", ".join(str(f.relative_to(pkg)) for f in files))
    print(f"  {env}pflbounds show {args.name}.theorem1")
    print(f"  {env}pflbounds validate {args.name}")
    print(f"  python -m pytest {pkg}")
    return 0


def _report_name(src: str) -> str:
    p = Path(src)
    return (p.parent if p.name == "outcomes.json" else p).resolve().name or "results"


def _report_results(src: Path) -> list:
    """The outcomes of a results folder; an empty, partial or damaged folder is one line."""
    from pflbounds.running.results import OUTCOMES_FILE, ResultsError, load_outcomes

    f = src if src.name == OUTCOMES_FILE else src / OUTCOMES_FILE
    folder = f.parent
    if not f.exists():
        try:
            present = sorted(x.name for x in folder.iterdir())
        except OSError as e:
            raise CliError(f"results folder {str(folder)!r} cannot be read ({e.strerror})"
                           ) from None
        what = "is empty" if not present else f"holds {', '.join(present[:5])}" + (
            " …" if len(present) > 5 else "") + f" but no {OUTCOMES_FILE} (a partial folder)"
        raise CliError(f"results folder {str(folder)!r} {what}; write it with `pflbounds "
                       f"validate SUITE --out {folder}`, or give a suite: {_available_suites()}")
    if f.is_dir():
        raise CliError(f"{f} is a folder; expected the {OUTCOMES_FILE} file that pflbounds "
                       "validate writes")
    try:
        outcomes = load_outcomes(f)
    except ResultsError as e:
        raise CliError(f"{e}; rerun pflbounds validate to write it again") from None
    except OSError as e:
        raise CliError(f"{f} cannot be read ({e.strerror or e})") from None
    if not outcomes:
        raise CliError(f"{f} holds no outcomes; rerun pflbounds validate to write it again")
    return outcomes


def _report_out(given: str | None, suite_name: str) -> Path:
    """The PDF path, checked before any work: a .pdf, not a folder, not a file pflbounds did
    not write, in a folder that exists (``reports/`` is created) and can be written."""
    out = Path(given) if given else Path("reports") / f"{suite_name}.pdf"
    label = f"--out {given}" if given else f"report {out}"
    if out.suffix.lower() != ".pdf":
        raise CliError(f"--out must name a .pdf file, got {str(out)!r}")
    if out.is_dir():
        raise CliError(f"{label} is an existing folder; expected a .pdf file name")
    if out.exists():
        try:
            with out.open("rb") as fh:
                mine = b"/Author(pflbounds)" in fh.read()
        except OSError as e:
            raise CliError(f"{label} cannot be read ({e.strerror}); choose another name"
                           ) from None
        if not mine:
            raise CliError(f"{label} is an existing file that pflbounds did not write; choose "
                           "another name or remove it")
    folder = out.parent
    if not folder.exists():
        if given:
            raise CliError(f"{label}: folder {folder} does not exist; create it first or choose "
                           "another place")
        try:
            folder.mkdir(parents=True)
        except OSError as e:
            raise CliError(f"cannot create folder {folder} ({e.strerror})") from None
    if not folder.is_dir():
        raise CliError(f"{label}: {folder} is a file, not a folder")
    import tempfile

    try:
        tempfile.TemporaryDirectory(dir=folder).cleanup()
    except OSError as e:
        raise CliError(f"{label}: cannot write in folder {folder} ({e.strerror})") from None
    from pflbounds.reporting.pdf import ReportFolderError, check_report_folder
    from pflbounds.running.results import RESULT_FILES

    try:
        check_report_folder(out, RESULT_FILES)
    except ReportFolderError as e:
        raise CliError(f"{label}: {e}") from None
    return out


def _report_check_results_folder(data_dir: Path) -> None:
    from pflbounds.running.atomic import OutputError
    from pflbounds.running.results import check_results_folder

    try:
        check_results_folder(data_dir, parents=False)
    except OutputError as e:
        raise CliError(f"the results beside the report go to {e}") from None


def _report_write(args, outcomes, suite, suite_name, results, out, save, audit,
                  skipped: dict[str, str]) -> int:
    from pflbounds.checking.vocabulary import summary_line
    from pflbounds.reporting.assemble import build_report, data_command
    from pflbounds.reporting.pdf import ReportFolderError, write_report
    from pflbounds.running.atomic import OutputError
    from pflbounds.running.results import RESULT_FILES, save_outcomes

    data_dir = out.with_suffix("")
    if save:
        try:
            save_outcomes(outcomes, data_dir, parents=False, skipped=skipped)
        except OutputError as e:
            raise CliError(f"the results beside the report go to {e}") from None
        except OSError as e:
            raise CliError(f"cannot write the results to {data_dir} ({e.strerror or e}); "
                           "nothing was changed there") from None
    detail = getattr(args, "detail", "quick")
    command = " ".join(["pflbounds report", *([args.source] if args.source else []),
                        "--out", str(out), *(["--audit", args.audit] if args.audit else []),
                        *(["--detail", detail] if detail != "quick" else [])])
    made_by = data_command(outcomes, results or data_dir,
                           suites_dir=suite.path.parent if suite and suite.path else "validation")
    report = build_report(outcomes, suite=suite_name, command=command, audit=audit,
                          data_command_line=made_by, detail=detail, skipped=skipped)
    try:
        pdf = write_report(report, out, RESULT_FILES)
    except ReportFolderError as e:
        raise CliError(f"--out {out}: {e}") from None
    except OSError as e:
        raise CliError(f"cannot write the report to {out} ({e.strerror or e}); {out} and its "
                       "figures are as they were") from None
    print(f"wrote {pdf}")
    print(summary_line(outcomes, skipped))
    return 0


# ----------------------------------------------------------------------------- parser
FORMS_HELP = (
    "form of the result: printed (as the paper states it; O-constants set to 1 and named), "
    "explicit (constants recovered from the proof), corrected (errata applied), proof (a "
    "display of the proof); default: printed. `pflbounds show ID` lists a result's forms"
)
INPUTS_HELP = (
    "inputs as name=value: a number or an expression over other inputs (eta=1/(2*L)); "
    "b=FILE and Lambda=FILE read an N x N matrix (.npy, or .csv with commas and no header); "
    "sigma2 may be one value per client (sigma2=0.5,1,2 or a .csv/.npy file) where a result "
    "reads it per client"
)
JSON_HELP = "print one JSON document on stdout"


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr, exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def _read_int(text: str) -> int | None:
    """An integer typed as digits or in powers of ten (``1e6``); None when it is neither."""
    t = text.strip()
    if len(t) > 40:  # no size or seed needs more digits (and int() refuses 4300 of them)
        return None
    try:
        return int(t)
    except ValueError:
        pass
    try:
        f = float(t)
    except ValueError:
        return None
    return int(f) if f == f and abs(f) != float("inf") and f == int(f) else None


def _int_at_least(low: int, high: int | None = None, why: str = ""):
    """An argparse type: an integer in [low, high] (``high`` None: no upper limit, used for
    none of the sizes); beyond ``high`` the error names the limit and ``why``."""
    def parse(text: str) -> int:
        v = _read_int(text)
        if v is None or v < low:
            raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {text!r}")
        if high is not None and v > high:
            raise argparse.ArgumentTypeError(
                f"{text} is too large: at most {high}" + (f" ({why})" if why else ""))
        return v

    return parse


def _seed_type():
    from pflbounds.limits import MAX_SEED

    return _int_at_least(0, MAX_SEED, "a seed is stored as a 64-bit integer")


def _jobs_type():
    from pflbounds.limits import JOBS_PER_CORE, cores, max_jobs

    return _int_at_least(1, max_jobs(), f"{JOBS_PER_CORE} per core on the {cores()} cores "
                                        "this process may use")


def _replicas_type():
    from pflbounds.limits import MAX_REPLICAS

    return _int_at_least(1, MAX_REPLICAS, "the checks use 10^2 to 10^4")


def build_parser() -> argparse.ArgumentParser:
    from pflbounds import __version__

    p = _Parser(
        prog="pflbounds",
        description="Compute, check and report the theory of personalized federated learning.",
    )
    p.add_argument("--version", action="version", version=f"pflbounds {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("list", help="list encoded results (or, with --checks, the checks)")
    s.add_argument("--paper", help="only this paper's results (a paper id such as even2022)")
    s.add_argument("--checks", action="store_true",
                   help="list the checks instead: result, kind, expected verdict, role, cost "
                        "class (cheap, minutes, long), the extras each needs and whether the "
                        "quick suite runs it")
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("show", help="show a result: statement, forms, inputs, errata")
    s.add_argument("result_id", help="a result id such as even2022.theorem2 (see list)")
    s.add_argument("--form", help=FORMS_HELP.replace("default: printed", "default: all"))
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=cmd_show)

    for name, helptext in (("eval", "evaluate a result's form"),
                           ("solve", "smallest VAR with the form <= TARGET")):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("result_id", help="a result id such as even2022.theorem2 (see list)")
        s.add_argument("--form", help=FORMS_HELP)
        if name == "solve":
            s.add_argument("--for", dest="var", required=True, metavar="VAR",
                           help="the input to solve for (K, T, N, eta, ...)")
            s.add_argument("--target", required=True, metavar="TARGET",
                           help="the value the form must not exceed (a number or expression)")
        else:
            s.add_argument("--elasticities", action="store_true",
                           help="also print d log(value)/d log(input) for every input")
        s.add_argument("--part", help="part of a multi-part form (show lists the parts)")
        s.add_argument("inputs", nargs="*", metavar="name=value", help=INPUTS_HELP)
        s.add_argument("--json", action="store_true", help=JSON_HELP)
        s.set_defaults(func=cmd_eval if name == "eval" else cmd_solve)

    s = sub.add_parser("complexity", help="compare the methods' complexities for a regime")
    s.add_argument("--paper", required=True, help="the paper whose methods to compare")
    s.add_argument("--objective", help="the objective, for papers with several")
    s.add_argument("--algorithm", help="only this algorithm's rows (e.g. afo, afa, sgd)")
    s.add_argument("inputs", nargs="*", metavar="name=value", help=INPUTS_HELP)
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=cmd_complexity)

    s = sub.add_parser("check", help="run one check")
    s.add_argument("check_id", help="a check id such as even2022.P11 (see validation/*.toml)")
    s.add_argument("--replicas", type=_replicas_type(),
                   help="Monte Carlo replicas (default: the check's own; at most 10^7 and "
                        "what the memory holds)")
    s.add_argument("--quick", action="store_true", help="use the check's quick grid")
    s.add_argument("--seed", type=_seed_type(), default=0,
                   help="base seed (default 0); the same seed gives the same numbers")
    s.add_argument("--jobs", type=_jobs_type(), default=1,
                   help="worker processes (default 1; at most 4 per core)")
    _add_run_options(s)
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("validate", help="run a validation suite")
    s.add_argument("suite", nargs="?", metavar="SUITE",
                   help="a suite name (quick, even2022) or a suite file (.toml); default quick")
    s.add_argument("--jobs", type=_jobs_type(), default=1,
                   help="local worker processes, one BLAS thread each (default 1; at most 4 "
                        "per core)")
    _add_run_options(s)
    s.add_argument("--out", metavar="DIR",
                   help="results folder (default reports/SUITE_NAME); its parent must exist")
    s.add_argument("--per-check", action="store_true",
                   help="correct each Monte Carlo check on its own (Bonferroni at 1 - confidence "
                        "per check) instead of one Holm correction over the whole suite")
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=cmd_validate)

    s = sub.add_parser("report", help="write the PDF report of a suite or of saved results")
    s.add_argument("source", nargs="?", metavar="SUITE_OR_RESULTS",
                   help="a suite (name or .toml file, run first; default quick) or a results "
                        "folder written by `pflbounds validate --out DIR`")
    s.add_argument("--out", metavar="FILE.pdf",
                   help="the PDF to write (default reports/SUITE_NAME.pdf); its folder must "
                        "exist; the report's own folder beside it (reports/SUITE_NAME/) holds "
                        "its .typ source, figures/ and the results")
    s.add_argument("--jobs", type=_jobs_type(), default=1,
                   help="worker processes when a suite is run (default 1; at most 4 per core)")
    s.add_argument("--per-check", action="store_true",
                   help="when a suite is run: correct each Monte Carlo check on its own "
                        "instead of one Holm correction over the suite")
    _add_run_options(s)
    s.add_argument("--audit", metavar="DIR",
                   help="add the audit chapter from the files `pflbounds audit ...` wrote in DIR "
                        "(e.g. reports/audit)")
    s.add_argument("--detail", choices=("quick", "full"), default="quick",
                   help="quick (default): findings, controls, errata and a block for each claim "
                        "that fails or has an erratum shown; full: also a detail appendix with "
                        "a block for every other claim and each check's seed and hash")
    s.set_defaults(func=cmd_report)

    s = sub.add_parser("new-paper", help="write the skeleton of a new paper package")
    s.add_argument("name", metavar="NAME",
                   help="the paper id: a Python identifier that is not already a paper "
                        "(e.g. doe2099)")
    s.add_argument("--dir", metavar="DIR",
                   help="the folder to write DIR/NAME/ in (default: the current folder); "
                        "pflbounds/papers in a clone adds the paper to the tree; nothing "
                        "existing is overwritten")
    s.set_defaults(func=cmd_new_paper)

    s = sub.add_parser("cache", help="show or clear the task cache")
    s.add_argument("action", choices=("info", "clear"),
                   help="info: what the cache holds; clear: remove stored tasks (and, "
                        "without --check, shared computations)")
    s.add_argument("--cache-dir", metavar="DIR", help=CACHE_DIR_HELP)
    s.add_argument("--check", metavar="GLOB",
                   help="clear only the tasks of checks matching GLOB (even2022.P6, even2022.*)")
    s.add_argument("--stale", action="store_true",
                   help="clear only stale tasks: of checks that are gone or whose code changed")
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=cmd_cache)

    from pflbounds.audit.command import add_audit_commands

    add_audit_commands(sub, _int_at_least, _jobs_type(), _seed_type())
    return p


CACHE_DIR_HELP = ("task cache folder (default: $PFLBOUNDS_CACHE_DIR, else .pflbounds-cache "
                  "in the current folder)")


def _add_run_options(s: argparse.ArgumentParser) -> None:
    """--scheduler, --no-cache and --cache-dir of the commands that run checks."""
    s.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the tasks on a Dask cluster (tcp://HOST:8786); needs the dask "
                        "extra; --jobs is then unused")
    s.add_argument("--no-cache", action="store_true",
                   help="compute every task, read and store nothing in the task cache")
    s.add_argument("--cache-dir", metavar="DIR", help=CACHE_DIR_HELP)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line. Called without ``argv`` (the ``pflbounds`` console script, ``python
    -m pflbounds.cli``), no Python warning reaches the user, in this process or its workers:
    pflbounds reports what matters in its own lines. Called with ``argv`` (tests, scripts),
    the caller's warning filters apply, so that a stray warning can be caught as an error."""
    if argv is not None:
        return _main(argv)
    import os
    import warnings

    os.environ["PYTHONWARNINGS"] = "ignore"  # worker processes started from here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _main(None)


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            # name=value words after an option (``eval ID --form F mu=1``) land here
            if hasattr(args, "inputs") and all("=" in e and not e.startswith("-") for e in extra):
                args.inputs = list(args.inputs) + extra
            else:
                sub = f"pflbounds {args.command}"
                print(f"{sub}: error: unrecognized arguments: {' '.join(extra)}; see {sub} "
                      "--help", file=sys.stderr)
                return EXIT_BAD_INPUT
    except SystemExit as e:  # --help, --version, or a usage error already printed
        return e.code if isinstance(e.code, int) else EXIT_BAD_INPUT
    # numpy, sympy and the papers load only now: --help, --version and usage errors stay
    # fast; numpy with one BLAS thread (pflbounds.threads), as every sweep runs anyway
    from pflbounds.threads import prefer_one_thread

    prefer_one_thread()
    from pflbounds.extras import MissingExtra
    from pflbounds.symbolic.evaluate import HypothesisError, InputError
    from pflbounds.symbolic.loader import PaperLoadError, load_for_result, load_papers

    try:
        # every paper loads (or its failure is named) before any command runs; eval and
        # solve, about one result, load only its paper (a fast start)
        if args.command in ("eval", "solve"):
            load_for_result(args.result_id)
        elif args.command == "report":
            pass  # cmd_report loads the papers its source names (all of them for a suite)
        else:
            load_papers(checks=args.command in ("check", "validate", "report", "audit")
                        or bool(getattr(args, "checks", False)))
        return int(args.func(args) or 0)
    except (CliError, HypothesisError, InputError) as e:
        print(f"pflbounds {args.command}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as e:  # domain errors raised by constants and matrix validation
        print(f"pflbounds {args.command}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except MissingExtra as e:  # an optional dependency: name the pip install to run
        print(f"pflbounds {args.command}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except PaperLoadError as e:  # a broken paper package: name it, never hide it
        print(f"pflbounds {args.command}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except MemoryError as e:  # sizes the limits could not foresee (inputs read by a paper)
        what = f" ({e})" if str(e) else ""
        print(f"pflbounds {args.command}: error: not enough memory for these inputs{what}; "
              "use smaller sizes", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as e:  # a defect of pflbounds: one line, the traceback on request
        if os.environ.get("PFLBOUNDS_DEBUG"):
            raise
        first = (str(e).strip().splitlines() or [""])[0][:300]
        print(f"pflbounds {args.command}: internal error: {type(e).__name__}: {first} (a "
              "defect of pflbounds, not of your input; PFLBOUNDS_DEBUG=1 shows the "
              "traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
