"""Assumptions 1-5 of even2022 (digest §2) and the lower-bound instance class."""

from __future__ import annotations

from pflbounds.symbolic.catalog import register_assumption
from pflbounds.symbolic.result import Assumption

A1 = register_assumption(Assumption(
    "even2022.A1", "Noise",
    "For all i and x, E||grad l(x, xi_i) - grad f_i(x)||^2 <= sigma^2 (uniform in x).",
    ("sigma2",)))
A2 = register_assumption(Assumption(
    "even2022.A2", "Regularity", "Each f_i is mu-strongly convex and L-smooth; kappa = L/mu.",
    ("mu", "L")))
A3 = register_assumption(Assumption(
    "even2022.A3", "Distribution-based dissimilarities",
    "d_H(D_i, D_j) <= b_ij, and either (weak) xi -> grad l(x_i^*, xi) is in H for all i, or "
    "(strong) xi -> grad l(x, xi) is in H for all x. Strong implies "
    "||grad f_i(x) - grad f_j(x)|| <= b_ij; weak implies f_i(x_j^*) - f_i^* <= b_ij^2/(2 mu).",
    ("b",)))
A4 = register_assumption(Assumption(
    "even2022.A4", "Sub-Gaussian samples",
    "xi_i - E xi_i is Sigma-sub-Gaussian; nu^2 = lambda_max(Sigma), d_eff = Tr(Sigma)/nu^2 "
    "(the paper writes ||Sigma||_2/nu^2 and 'centred', see errata).",
    ("nu2", "d_eff")))
A5 = register_assumption(Assumption(
    "even2022.A5", "Well-separated clusters",
    "N = M C agents in M clusters of size C with common means mu_m inside a cluster; "
    "Delta^2 = min_{m != m'} ||mu_m - mu_m'||^2 > 0.",
    ("C", "Delta2")))
DCLASS = register_assumption(Assumption(
    "even2022.D", "Lower-bound class D_mu^L(r, b, sigma)",
    "Instances satisfying A1-A3 with b obeying the triangle inequality, ||x_i^*|| <= r and "
    "f_i(x_j^*) - f_i^* <= b_ij^2/(2 mu).",
    ("r", "b")))
