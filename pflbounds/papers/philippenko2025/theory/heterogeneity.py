"""Property 1 of philippenko2025: admissible constants (b_ik, c_ik) of Assumption 3 for
quadratic clients R_i(theta) = (theta + xi_i)^T A_i (theta + xi_i) (digest §4.2)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import form, result
from pflbounds.papers.philippenko2025.symbols import IAA, Axi
from pflbounds.symbolic.result import Kind

PROPERTY1 = result(
    "property1", "Property 1 (quadratics)", Kind.IDENTITY,
    "admissible Assumption-3 constants (b_ik, c_ik) for R_i(theta) = (theta + xi_i)^T A_i "
    "(theta + xi_i)", "f/x",
    "For R_i(theta) = (theta + xi_i)^T A_i (theta + xi_i): b_ik <= sqrt(2) ||A_k(xi_i - xi_k)|| "
    "and c_ik <= 2 ||I - A_k A_i^-1||_2^2 (read: these values are admissible).",
    [form("printed", parts={"b": sp.sqrt(2) * Axi, "c": 2 * IAA**2},
          note="sqrt(2) is right for the 1/2-normalised quadratic only."),
     form("corrected", parts={"b": 2 * sp.sqrt(2) * Axi, "c": 2 * IAA**2},
          note="With the paper's normalisation (no 1/2), grad R_i = 2 A_i (theta + xi_i) and "
               "Young's inequality give b_ik = 2 sqrt(2) ||A_k(xi_i - xi_k)|| (A_i symmetric "
               "invertible).")],
    relation="=", source="Property 1", hypotheses=("philippenko2025.A3",),
    errata=(ERRATA["erratum18"],), part_units={"b": "f/x", "c": "1"},
    quantity_typst="(b_(i k), c_(i k))",
)
