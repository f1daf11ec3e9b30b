"""Assumptions 3.1, 3.2, 4.1, 4.2 of erickson2025 and the unnumbered H1-H5 (digest §2)."""

from __future__ import annotations

from pflbounds.papers.erickson2025.paper import P

A3_1 = P.assumption(
    "A3_1", "Quadratic functional growth",
    "For the ideal model theta_i^* = argmin f_i: f_i(theta_i) - f_i(theta_i^*) >= (gamma/2) "
    "||theta_i - theta_i^*||^2 for every theta_i in Theta (unique minimiser, theta_j^* in "
    "Theta implicit).", ("gamma",))
A3_2 = P.assumption(
    "A3_2", "Lipschitz continuity in the data",
    "|l(theta, xi) - l(theta, xi')| <= L_X d_X(xi, xi') for every theta in Theta (Remark 3.3: "
    "needs a bounded Theta for the squared loss).", ("L_X",))
A4_1 = P.assumption(
    "A4_1", "Smoothness of the weighted losses",
    "alpha_i ||grad f_i(theta_i) - grad f_i(theta_i')|| <= L ||theta_i - theta_i'|| for all "
    "theta_i, theta_i' (f = (1/n) sum alpha_i f_i is then (L/n)-smooth; the proof uses "
    "'L-smooth').", ("L",))
A4_2 = P.assumption(
    "A4_2", "Bounded oracle mean squared error",
    "E||G_i(theta_i) - alpha_i grad f_i(theta_i)||^2 <= sigma^2 for every theta_i, per "
    "client, unbiasedness not required; sigma = 0 means full gradients.", ("sigma2",))
H = P.assumption(
    "H", "Unnumbered hypotheses H1-H5",
    "H1 feasible initialisation theta^0 in K; H2 2 <= s <= n - 1 with S_k uniform (P(i in "
    "S_k) = s/n); H3 the inexact projection returns a feasible point; H4 f bounded below on "
    "K with f(theta^*) = min_K f finite; H5 K (and Theta) nonempty, closed, convex.",
    ("s", "n", "delta"))
