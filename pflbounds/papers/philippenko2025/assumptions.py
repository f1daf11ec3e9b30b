"""Assumptions 1-5 of philippenko2025 and the implicit ones of its proofs (digest §2)."""

from __future__ import annotations

from pflbounds.papers.philippenko2025.paper import P

A1 = P.assumption(
    "A1", "beta-smoothness",
    "For every client i and all theta, theta': ||grad R_i(theta) - grad R_i(theta')|| <= "
    "beta ||theta - theta'||, with beta common to all clients.", ("beta",))
A2 = P.assumption(
    "A2", "Uniformly bounded stochastic-gradient variance",
    "For every t, client i and theta: V[g_i^t(theta)] = E||g_i^t(theta) - grad R_i(theta)||^2 "
    "<= sigma_i^2 (sigma_i may differ across clients).", ("sigma_i2", "sigma_k2"))
A3 = P.assumption(
    "A3", "Bounded heterogeneity",
    "For every ordered pair (i, k) there are b_ik, c_ik >= 0 with ||grad R_i(theta) - "
    "grad R_k(theta)||^2 <= b_ik^2 + c_ik ||grad R_i(theta)||^2 for all theta (c_ik = 0 is "
    "Even et al.'s uniform dissimilarity). Used by the analysis only, never by the algorithm.",
    ("b", "c"))
A4 = P.assumption(
    "A4", "mu-strong convexity",
    "For every i and all theta, theta': R_i(theta') >= R_i(theta) + (theta' - theta)^T "
    "grad R_i(theta) + mu/2 ||theta' - theta||^2. It implies A5 with the same mu.", ("mu",))
A5 = P.assumption(
    "A5", "mu-Polyak-Lojasiewicz",
    "For every i and all theta: 1/2 ||grad R_i(theta)||^2 >= mu (R_i(theta) - R_i(theta_i^*)).",
    ("mu",))
IMPLICIT = P.assumption(
    "implicit", "Implicit assumptions of the proofs",
    "(i) E[g_k^t(theta_i^{t-1}) | theta_i^{t-1}] = grad R_k(theta_i^{t-1}); (ii) given "
    "theta_i^{t-1} the gradients of different clients are independent, with fresh samples at "
    "every t; (iii) alpha_ik^t is theta_i^{t-1}-measurable (a function of the true gradients "
    "in the theory); (iv) A_i^t = sum_k alpha_ik^t > 0 (Lemma 1's Jensen step); (v) "
    "grad R_i(theta_i^{t-1}) != 0, so that r_ik^t is defined (convention otherwise: stay "
    "local).")
SC_OR_PL = ("philippenko2025.A4", "philippenko2025.A5")
"""Either one suffices where a result needs strong convexity or PL."""
RATES = (A1.id, A2.id, A3.id, A5.id)
"""The hypotheses of Theorem 2 and of what builds on it (Corollary 1, Section 4): A1-A3 and
PL (A4 implies A5)."""
