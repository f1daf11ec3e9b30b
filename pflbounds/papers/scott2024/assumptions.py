"""Assumptions A1-A4 of scott2024 (App. C.1), the implicit ones of the convergence proof and
the hypotheses of Theorem B.1 / Theorem 3.2 (digest §2)."""

from __future__ import annotations

from pflbounds.papers.scott2024.paper import P

A1 = P.assumption(
    "A1", "Bounded gradients (27)-(28)",
    "||grad_theta f_i(theta)|| <= b1 and ||grad_eta h(S, eta)|| <= b2 for every i, theta, eta "
    "and S in {S_i, B_i}; hence ||h(S, eta) - h(S, eta')|| <= b2 ||eta - eta'||. Holds only "
    "on a bounded region for quadratic losses or multilayer h (erratum11): constants are "
    "measured on the trajectory.", ("b1", "b2"))
A2 = P.assumption(
    "A2", "Smoothness (29)-(31)",
    "grad_theta f_i is L1-Lipschitz in theta, grad_eta h(S, .) is L2-Lipschitz in eta, and "
    "the server regularizer's gradient grad f is L3-Lipschitz (L3 = 2 max(lam_h, lam_v) for "
    "f = lam_h ||eta_h||^2 + lam_v ||eta_v||^2).", ("L1", "L2", "L3"))
A3 = P.assumption(
    "A3", "Bounded dissimilarity (32)",
    "(1/n) sum_i E||grad F_i(eta) - grad Fbar(eta)||^2 <= gamma_G^2 with Fbar = (1/n) sum_i "
    "F_i (the E is over the random iterate; F_i is deterministic given eta, digest C12).",
    ("gammaG2",))
A4 = P.assumption(
    "A4", "Bounded variance (33)-(35)",
    "E||grad f_i(theta) - grad~ f_i(theta)||^2 <= sigma_1^2 (local stochastic gradient); for "
    "batches B_i of size b < |S_i|: E||grad h(B_i, eta) - grad h(S_i, eta)||^2 <= "
    "sigma_2^2/b and E||h(B_i, eta) - h(S_i, eta)||^2 <= sigma_3^2/b.",
    ("sigma1_2", "sigma2_2", "sigma3_2", "b"))
IMPLICIT = P.assumption(
    "implicit", "Implicit hypotheses of the convergence proof",
    "c clients sampled uniformly without replacement per round (Lemma C.2); unbiased local "
    "stochastic gradients at the current local iterate ((71) -> (72)); uncorrelated noise "
    "across the k local steps (k sigma_1^2, not k^2 sigma_1^2, in Lemma C.5); the server "
    "regularizer is stepped by beta k (proof (71), (83)), not by Algorithm 2's beta; the "
    "step-size conditions of digest §4.1.7 (beta <= 1/(56 L k) and c (27 L1^2 b2^2 beta k^2 "
    "+ 56 L L1^2 b2^2 beta^2 k^3) <= L, without the b2^2 once Lemma C.5 carries b2^2 on "
    "sigma_1^2, erratum5).", ("c", "k", "beta", "L"))
PAC = P.assumption(
    "pac", "Hypotheses of Theorem B.1 and Theorem 3.2",
    "Observed clients (D_i, S_i) i.i.d. from the environment T; every |S_i| = m; loss in "
    "[0, M] (M = 1 in Theorem 3.2: a 0-1 or clipped loss); meta-prior and prior chosen "
    "before seeing S_1..S_n (so the posterior variances alpha must come from a "
    "data-independent grid with delta/|grid|); n >= 8 (Maurer's bound in Part II); delta in "
    "(0, 1]. Theorem 3.2: Gaussian posteriors N(eta, alpha Id), prior N(0, alpha_theta Id), "
    "meta-prior N(0, alpha_h Id) x N(0, alpha_v Id) (implied), descriptors from the whole "
    "S_i.", ("n", "m", "M", "delta"))
