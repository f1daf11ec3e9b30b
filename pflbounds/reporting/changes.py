"""What a corrected form changes in the paper's form, marked in the Typst math.

:func:`marked_pair` compares two forms of a result term by term (the terms of a sum, the
factors of a product, the base or exponent of a power, the arguments of a function, going
down while a single piece differs) and prints both: the paper's form with the pieces the
correction removes wrapped in ``#removed($...$)``, the corrected form with the pieces it adds
wrapped in ``#added($...$)`` (helpers the report's preamble defines: struck through in red, on
a green ground). A reader sees at once what the erratum changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

__all__ = ["changed_paths", "closest_form", "marked_pair"]

Path = tuple[int, ...]

_COMMUTATIVE = (sp.Add, sp.Mul)


def _unmatched(a: Sequence[sp.Basic], b: Sequence[sp.Basic]) -> list[int]:
    """Indices of ``b`` with no equal element left in ``a`` (multiset difference)."""
    pool = list(a)
    out = []
    for i, t in enumerate(b):
        if t in pool:
            pool.remove(t)
        else:
            out.append(i)
    return out


def changed_paths(old: sp.Basic, new: sp.Basic) -> tuple[list[Path], list[Path]]:
    """Paths (argument indices from the root) of the pieces of ``old`` that the change removes
    and of the pieces of ``new`` that it adds; ``([], [])`` when they are equal."""
    if old == new:
        return [], []
    if type(old) is type(new) and old.args and new.args:
        if isinstance(new, _COMMUTATIVE):
            gone, came = _unmatched(new.args, old.args), _unmatched(old.args, new.args)
            if len(gone) == 1 and len(came) == 1:
                r, a = changed_paths(old.args[gone[0]], new.args[came[0]])
                return ([(gone[0], *p) for p in r], [(came[0], *p) for p in a])
            if gone or came:
                return [(i,) for i in gone], [(i,) for i in came]
        elif len(old.args) == len(new.args):
            diff = [i for i, (x, y) in enumerate(zip(old.args, new.args, strict=True)) if x != y]
            if len(diff) == 1:
                i = diff[0]
                r, a = changed_paths(old.args[i], new.args[i])
                return [(i, *p) for p in r], [(i, *p) for p in a]
    return [()], [()]


def _at(expr: sp.Basic, path: Path) -> sp.Basic:
    for i in path:
        expr = expr.args[i]
    return expr


def _rebuild(expr: sp.Basic, pieces: dict[Path, sp.Basic], prefix: Path = ()) -> sp.Basic:
    """``expr`` with the subexpression at each path of ``pieces`` replaced, all at once (a
    replacement may reorder the arguments of a sum, so paths are read on the original)."""
    if prefix in pieces:
        return pieces[prefix]
    if not any(p[: len(prefix)] == prefix for p in pieces):
        return expr
    return expr.func(*(_rebuild(a, pieces, (*prefix, i)) for i, a in enumerate(expr.args)))


def _size(expr: sp.Basic, paths: Sequence[Path]) -> int:
    return sum(sp.count_ops(_at(expr, p), visual=False) + 1 for p in paths)


def _mark(expr: sp.Basic, paths: Sequence[Path], helper: str, names: dict[str, str]
          ) -> tuple[sp.Basic, dict[str, str]]:
    """``expr`` with each piece at ``paths`` replaced by a placeholder symbol, and the Typst of
    each placeholder: the piece, displayed, inside ``#helper(...)``."""
    from pflbounds.symbolic.typst_printer import typst_math

    marks: dict[str, str] = {}
    pieces: dict[Path, sp.Basic] = {}
    for k, path in enumerate(sorted(paths)):
        piece = _at(expr, path)
        parent = _at(expr, path[:-1]) if path else None
        sign = 1
        if isinstance(parent, sp.Add) and piece.could_extract_minus_sign():
            piece, sign = -piece, -1
        text = typst_math(piece, names)
        if isinstance(piece, sp.Add) and parent is not None:
            text = f"({text})"
        name = f"zzmark{k}"
        marks[name] = f"#{helper}(${text}$)"
        pieces[path] = sign * sp.Symbol(name)
    return _rebuild(expr, pieces), marks


def _parts(result, form: str) -> dict[str, sp.Basic]:
    return dict(result.form(form).exprs)


def closest_form(result, target: str, candidates: Sequence[str]) -> str | None:
    """The candidate form (same parts as ``target``) whose difference from ``target`` is
    smallest, or None."""
    best, best_size = None, None
    tparts = _parts(result, target)
    for name in candidates:
        if name == target or name not in result.forms:
            continue
        parts = _parts(result, name)
        if set(parts) != set(tparts):
            continue
        size = 0
        for key, new in tparts.items():
            _, added = changed_paths(parts[key], new)
            size += _size(new, added)
        if best_size is None or size < best_size:
            best, best_size = name, size
    return best


def marked_pair(result, old: str, new: str, changed_only: bool = False) -> tuple[str, str]:
    """The Typst math (``quantity <= expression`` per part) of forms ``old`` and ``new`` of
    ``result``, with what the change removes marked in ``old`` and what it adds in ``new``;
    ``("", "")`` when the forms have different parts or are equal. ``changed_only``: only the
    parts that differ."""
    from pflbounds.symbolic.printing import _REL_TYPST, _typst_names
    from pflbounds.symbolic.typst_printer import typst_math

    po, pn = _parts(result, old), _parts(result, new)
    if set(po) != set(pn) or po == pn:
        return "", ""
    names = _typst_names(result.paper)
    q = result.extra.get("quantity_typst", '"' + result.quantity.replace('"', "'") + '"')
    rel = _REL_TYPST[result.relation]
    lines_old, lines_new = [], []
    for part in pn:
        if changed_only and po[part] == pn[part]:
            continue
        removed, added = changed_paths(po[part], pn[part])
        lhs = result.extra.get("part_typst", {}).get(part, q) if part else q
        eo, mo = _mark(po[part], removed, "removed", names)
        en, mn = _mark(pn[part], added, "added", names)
        lines_old.append(f"{lhs} {rel} {typst_math(eo, {**names, **mo})}")
        lines_new.append(f"{lhs} {rel} {typst_math(en, {**names, **mn})}")
    return " \\\n".join(lines_old), " \\\n".join(lines_new)
