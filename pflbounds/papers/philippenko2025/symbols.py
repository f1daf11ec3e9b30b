"""Scalar inputs of philippenko2025, with the digest's names, meanings and units (§1).

Units: [f] function value (the losses R_i), [x] parameter length. A gradient has the unit
[f]/[x], so the heterogeneity constant b_ik of Assumption 3 (||grad R_i - grad R_k||^2 <=
b_ik^2 + c_ik ||grad R_i||^2) has the unit [f]/[x] and c_ik none; variances sigma_k^2 carry
[f]^2/[x]^2 and weights alpha_ik none.

Per-client and per-pair quantities (sigma_k, b_ik, c_ik, r_ik) appear here as scalars: a
result is stated for one client i (and one pair (i, k) where it needs one). The derivations
of :mod:`pflbounds.papers.philippenko2025.inputs` compute them per client from the matrices
b and c.
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.philippenko2025.paper import P
from pflbounds.symbolic.constants import (  # noqa: F401 - re-exported for the paper's modules
    N,
    T,
    d,
    eps,
    eta,
    mu,
    sigma2,
)

beta = P.constant("beta", "smoothness constant shared by every R_i (Assumption 1)", "f/x^2",
                  latex=r"\beta", typst="beta")
lam = P.constant("lam", "threshold lambda in (0, 1] of the binary criterion (Definition 3)",
                 "1", latex=r"\lambda", typst="lambda")
eps0 = P.constant("eps0", "initial excess loss eps_i^0 = R_i(theta_i^0) - R_i^*", "f",
                  "nonnegative", latex=r"\varepsilon_i^0", typst="epsilon_i^0")
sigma_i2 = P.constant("sigma_i2", "gradient-noise variance sigma_i^2 of client i itself "
                      "(Assumption 2)", "f^2/x^2", latex=r"\sigma_i^2", typst="sigma_i^2")
sigma_k2 = P.constant("sigma_k2", "gradient-noise variance sigma_k^2 of a collaborator k "
                      "(Assumption 2)", "f^2/x^2", latex=r"\sigma_k^2", typst="sigma_k^2")
SinvSum = P.constant("SinvSum", "sigma_i^2 sum_k sigma_k^-2 (N when every client has the "
                     "same variance)", "1", "at_least_one",
                     latex=r"\sigma_i^2\sum_k\sigma_k^{-2}", typst="sigma_i^2 sum_k sigma_k^(-2)")
sigma_suf2 = P.constant("sigma_suf2", "sufficient variance sigma_{i,suf}^2(eps) "
                        "(Definition 2)", "f^2/x^2",
                        latex=r"\sigma_{i,\mathrm{suf}}^2(\varepsilon)",
                        typst="sigma_(i,\"suf\")^2 (epsilon)")
sigma_eff2 = P.constant("sigma_eff2", "effective variance (sigma_{i,eff}^t)^2 = "
                        "(sum_k psi(r_ik^t)/sigma_k^2)^-1 (after Theorem 1)", "f^2/x^2",
                        latex=r"(\sigma_{i,\mathrm{eff}}^t)^2",
                        typst="(sigma_(i,\"eff\")^t)^2")
S_eff = P.constant("S_eff", "discounted effective variance sum_{t=1}^T (1 - eta mu)^(T-t) "
                   "(sigma_{i,eff}^t)^2 (Theorem 1; its expectation when the weights are "
                   "random)", "f^2/x^2", "nonnegative",
                   latex=r"\sum_{t=1}^T(1-\eta\mu)^{T-t}(\sigma_{i,\mathrm{eff}}^t)^2",
                   typst="sum_(t=1)^T (1 - eta mu)^(T-t) (sigma_(i,\"eff\")^t)^2")
sigma_eff2_avg = P.constant("sigma_eff2_avg", "average effective variance "
                            "(1/T) sum_{t=1}^T E[(sigma_{i,eff}^t)^2]", "f^2/x^2",
                            latex=r"\overline{\sigma_{i,\mathrm{eff}}^2}",
                            typst="overline(sigma_(i,\"eff\")^2)")
kappa_w = P.constant("kappa_w", "uniform lower bound kappa on the step ratio "
                     "(sigma_{i,phi}^t/sigma_{i,psi}^t)^2 (Remark 3: lambda for binary, "
                     "1/(sigma_i^2 sum_k sigma_k^-2) for continuous)", "1",
                     latex=r"\kappa", typst="kappa")
C = P.constant("C", "constant C > 1 of the decreasing step C/(mu t) (Theorem 2)", "1",
               latex="C", typst="C")
gamma0 = P.constant("gamma0", "shift gamma_0 >= 0 of the decreasing step C/(mu (t + "
                    "gamma_0)) that restores the step condition", "1", "nonnegative",
                    latex=r"\gamma_0", typst="gamma_0")
Nstar = P.constant("Nstar", "size |N_i^*(eps)| of the sufficient cluster (Definition 2)", "1",
                   "positive_integer", latex=r"|\mathcal{N}_i^\star(\varepsilon)|",
                   typst="|cal(N)_i^star (epsilon)|")
psi_min = P.constant("psi_min", "min over the sufficient cluster of psi(1 - b_ik^2/(2 mu "
                     "eps)) (Corollary 1)", "1", "unit_interval",
                     latex=r"\min_{k\in\mathcal{N}_i^\star}\psi", typst="min_(k in "
                     "cal(N)_i^star) psi")
b = P.constant("b", "additive heterogeneity b_ik of the pair (i, k) (Assumption 3): the "
               "unit of a gradient", "f/x", "nonnegative", latex="b_{ik}", typst="b_(i k)")
c = P.constant("c", "multiplicative heterogeneity c_ik of the pair (i, k) (Assumption 3)",
               "1", "nonnegative", latex="c_{ik}", typst="c_(i k)")
G = P.constant("G", "squared gradient norm ||grad R_i(theta_i^{t-1})||^2", "f^2/x^2",
               "nonnegative", latex=r"\|\nabla R_i(\theta_i^{t-1})\|^2",
               typst="norm(nabla R_i (theta_i^(t-1)))^2")
Gnext = P.constant("Gnext", "squared gradient norm at the new iterate, "
                   "||grad R_i(theta_i^t)||^2 (as printed in Lemma 1)", "f^2/x^2",
                   "nonnegative", latex=r"\|\nabla R_i(\theta_i^{t})\|^2",
                   typst="norm(nabla R_i (theta_i^t))^2")
D = P.constant("D", "squared gradient gap ||grad R_k(theta_i^{t-1}) - grad R_i(theta_i^{t-1})"
               "||^2 of a pair (i, k)", "f^2/x^2", "nonnegative",
               latex=r"\|\nabla R_k-\nabla R_i\|^2", typst="norm(nabla R_k - nabla R_i)^2")
Asum = P.constant("Asum", "total weight A_i^t = sum_k alpha_ik^t", "1",
                  latex=r"\mathcal{A}_i^t", typst="cal(A)_i^t")
ADsum = P.constant("ADsum", "weighted gradient gaps sum_k alpha_ik^t ||grad R_k - grad R_i||^2 "
                   "at theta_i^{t-1}", "f^2/x^2", "nonnegative",
                   latex=r"\sum_k\alpha_{ik}^t\|\nabla R_k-\nabla R_i\|^2",
                   typst="sum_k alpha_(i k)^t norm(nabla R_k - nabla R_i)^2")
Valpha = P.constant("Valpha", "weighted variance sum_k (alpha_ik^t)^2 sigma_k^2", "f^2/x^2",
                    "nonnegative", latex=r"\sum_k(\alpha_{ik}^t)^2\sigma_k^2",
                    typst="sum_k (alpha_(i k)^t)^2 sigma_k^2")
Vprinted = P.constant("Vprinted", "the printed variance term sigma_k^2 (alpha_ik^t)^2 of "
                      "Lemma 1 (an index k outside any sum; read as sum_k)", "f^2/x^2",
                      "nonnegative", latex=r"\sigma_k^2(\alpha_{ik}^t)^2",
                      typst="sigma_k^2 (alpha_(i k)^t)^2")
r = P.constant("r", "similarity ratio r_ik^t in [0, 1] (Definition 1)", "1", "unit_interval",
               latex="r_{ik}^t", typst="r_(i k)^t")
phi_r = P.constant("phi_r", "criterion value phi(r_ik^t) in [0, 1] (Definition 1)", "1",
                   "unit_interval", latex=r"\phi(r_{ik}^t)", typst="phi(r_(i k)^t)")
n_k = P.constant("n_k", "batch size n_k of a collaborator k (Remark 1: sigma_k = "
                 "sigma/sqrt(n_k))", "1", latex="n_k", typst="n_k")
nPsiSum = P.constant("nPsiSum", "batch-weighted similarity sum_{j in N_i^t} n_j psi(r_ij^t) of "
                     "client i (Remark 1; j = i contributes n_i psi(1) > 0)", "1",
                     latex=r"\sum_{j\in\mathcal{N}_i^t}n_j\psi(r_{ij}^t)",
                     typst="sum_(j in cal(N)_i^t) n_j psi(r_(i j)^t)")
Axi = P.constant("Axi", "||A_k (xi_i - xi_k)|| for the quadratics of Property 1", "f/x",
                 "nonnegative", latex=r"\|A_k(\xi_i-\xi_k)\|", typst="norm(A_k (xi_i - xi_k))")
IAA = P.constant("IAA", "||I - A_k A_i^-1||_2 for the quadratics of Property 1", "1",
                 "nonnegative", latex=r"\|I-A_kA_i^{-1}\|_2", typst="norm(I - A_k A_i^(-1))_2")

CC = C**2 / (C - 1)
"""The factor cal(C) = C^2/(C - 1) of Corollary 1."""


def ind_ge(a: sp.Expr, b_: sp.Expr) -> sp.Expr:
    """Indicator 1{a >= b} as a Heaviside step with H(0) = 1."""
    return sp.Heaviside(a - b_, 1)

t = P.constant("t", "iteration index t = 1, 2, ... of a step-size schedule", "1",
               "positive_integer", latex="t", typst="t")

# the calculator's clustered description of the heterogeneity (instead of matrices b, c)
clusters = P.constant("clusters", "number of clusters (client i in cluster i mod clusters, as in "
                      "Appendix A); b_ik = b_between across clusters, 0 within", "1",
                      "positive_integer", latex="K", typst="K")
b_between = P.constant("b_between", "b_ik between two clients of different clusters", "f/x",
                       "nonnegative", latex=r"b_{\mathrm{between}}", typst="b_\"between\"")
c_between = P.constant("c_between", "c_ik between two clients of different clusters", "1",
                       "nonnegative", latex=r"c_{\mathrm{between}}", typst="c_\"between\"")


# ----------------------------------------------------------------- instance relations
# Relations that every instance of the paper's hypotheses satisfies: every result whose inputs
# include all the symbols of one refuses a point that violates it, with its reason. Declared
# here, next to the constants, since ``eval`` loads only the module of its result.
P.relation(sp.Le(mu, beta), "Assumption 1 with Assumption 4 or 5: a function that is "
           "mu-strongly convex (or mu-PL) and has a beta-Lipschitz gradient has mu <= beta")
P.relation(sp.Le(kappa_w, 1), "Remark 3: kappa bounds the step ratio (sigma_{i,phi}^t/"
           "sigma_{i,psi}^t)^2 = 1/sum_k alpha_ik^t from below, and that ratio is <= 1 (psi(x) "
           "= x phi(x) <= phi(x), (I3)): lambda for the binary criterion, "
           "1/(sigma_i^2 sum_k sigma_k^-2) for the continuous one")
P.relation(sp.Le(lam, 1), "Definition 3: the binary threshold lambda lies in (0, 1] "
           "(phi_bin(x) = lambda 1{x >= lambda} <= x needs lambda <= 1)")
P.relation(sp.Gt(psi_min, 0), "Corollary 1: psi_min is the smallest psi(x_ik) over the "
           "sufficient cluster N_i^*(eps) = {k : psi(x_ik) > 0}, so it is > 0")
P.relation(sp.Le(eps, eps0), "Theorems 2-3 and Corollary 1 reach a precision eps from the "
           "initial excess loss eps_i^0 (they need eps_i^{T-1} >= eps): at eps > eps_i^0 client "
           "i already meets the target (0 iterations) and Corollary 1's counts (the corrected "
           "one negative) do not apply")
P.relation(sp.Le(phi_r**2 * sigma_eff2, sigma_k2), "Definition 1: (sigma_{i,eff}^t)^-2 = "
           "sum_j psi(r_ij^t)/sigma_j^2 >= psi(r_ik^t)/sigma_k^2 >= phi(r_ik^t)^2/sigma_k^2 "
           "(psi(x) = x phi(x) >= phi(x)^2 as phi(x) <= x), so the weight alpha_ik^t = "
           "phi(r_ik^t) (sigma_{i,eff}^t)^2/sigma_k^2 is at most 1/phi(r_ik^t)")


# ----------------------------------------------------------------- side conditions
# Conditions on the decreasing step C/(mu (t + gamma_0)) shared by Theorem 2 and Corollary 1.
C_ABOVE_ONE = P.cond(sp.Gt(C, 1), "C > 1")
SHIFTED_STEP = P.cond(sp.Ge(gamma0 + 1, C * beta / (mu * kappa_w)),
                      "gamma0 >= C beta/(mu kappa) - 1: the first step C/(mu (1 + gamma0)) <= "
                      "kappa/beta")
