"""Proposition 1 (App. B.7): the standard inequalities the proofs use."""

from __future__ import annotations

from pflbounds.papers.hanzely2023.paper import form, result
from pflbounds.papers.hanzely2023.symbols import Df, L, dist2, meansq, u2, uv2, v2, xi
from pflbounds.symbolic.result import Kind

PROPOSITION1 = result(
    "proposition1", "Proposition 1", Kind.UPPER_BOUND,
    "(32): f(x) - f(y) - <grad f(y), x - y>; (33): ||grad f(x) - grad f(y)||^2; (34): "
    "2<u, v>; (36): ||(1/n) sum_i v_i||^2", "1",
    "For L-smooth f: f(x) - f(y) - <grad f(y), x - y> <= (L/2)||x - y||^2 (32); if f is also "
    "convex, ||grad f(x) - grad f(y)||^2 <= 2 L D_f(x, y) (33); 2<u, v> <= xi ||u||^2 + "
    "||v||^2/xi for xi > 0 (34); Jensen: ||(1/n) sum v_i||^2 <= (1/n) sum ||v_i||^2 (36).",
    [form("printed", parts={"32": L / 2 * dist2, "33": 2 * L * Df, "34": xi * u2 + v2 / xi,
                            "36": meansq})],
    source="Proposition 1, App. B.7", equations=("32", "33", "34", "36"),
    part_units={"32": "f", "33": "f^2/x^2", "34": "1", "36": "1"},
    part_typst={"32": "f(x) - f(y) - ⟨nabla f(y), x - y⟩",
                "33": "norm(nabla f(x) - nabla f(y))^2", "34": "2 ⟨u, v⟩",
                "36": "norm(1/n sum_i v_i)^2"},
    part_latex={"32": r"f(x)-f(y)-\langle\nabla f(y),x-y\rangle",
                "33": r"\|\nabla f(x)-\nabla f(y)\|^2", "34": r"2\langle u,v\rangle",
                "36": r"\|\frac1n\sum_i v_i\|^2"},
    no_method="standard inequalities of smooth and convex functions (App. B.7), not about a method",
)

PROPOSITION1_35 = result(
    "proposition1_35", "Proposition 1, Eq. (35)", Kind.IDENTITY, "-<u, v>", "1",
    "-<u, v> = -||u||^2/2 - ||v||^2/2 + ||u - v||^2/2.",
    [form("printed", -u2 / 2 - v2 / 2 + uv2 / 2)],
    relation="=", source="Proposition 1, App. B.7", equations=("35",),
    quantity_typst="-⟨u, v⟩",
)
