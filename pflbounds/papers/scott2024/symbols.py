"""Scalar inputs of scott2024, with the digest's names, meanings and units (§1.4, §1.5).

Units: [f] function value (losses and objectives), [x] parameter length. The client model
theta = h(S, eta) and the network weights eta share the unit [x]: Algorithm 2 moves both
with the same step beta (local step theta - beta g, server step eta - beta k grad f), which
is only unit-consistent when they do. Hence the Jacobian bound b2 of ||grad_eta h|| is a
number, L2 (Lipschitz constant of that Jacobian) has the unit 1/[x], sigma2^2 (b times the
variance of the batch Jacobian) is a number and sigma3^2 (b times the variance of the batch
output) carries [x]^2. The PAC-Bayes posterior variances alpha_h, alpha_v, alpha_theta are
variances of weights, [x]^2, so a KL divergence ||mu||^2/(2 alpha) is a number while the
appendix's alpha ||mu||^2 carries [x]^4 (erratum17). Theorem 3.2 uses a loss in [0, 1]
(M = 1): its risks are numbers; Theorem B.1 keeps the loss range M in [f].
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.scott2024.paper import P

T = P.constant("T", "number of communication rounds", "1", "positive_integer", latex="T",
               typst="T")
Delta0 = P.constant("Delta0", "initial gap F(eta_0) - F_* to a lower bound of F", "f",
                    "nonnegative", latex=r"F(\eta_0)-F_*", typst="F(eta_0) - F_*")

# --- optimization constants (App. C.1) -------------------------------------------------
b1 = P.constant("b1", "bound on ||grad_theta f_i(theta)|| (Assumption A1)", "f/x",
                latex="b_1", typst="b_1")
b2 = P.constant("b2", "bound on the Jacobian norm ||grad_eta h(S, eta)|| (Assumption A1)",
                "1", latex="b_2", typst="b_2")
L1 = P.constant("L1", "smoothness of f_i in theta (Assumption A2)", "f/x^2",
                latex="L_1", typst="L_1")
L2 = P.constant("L2", "Lipschitz constant of the Jacobian grad_eta h(S, eta) (Assumption A2)",
                "1/x", "nonnegative", latex="L_2", typst="L_2")
L3 = P.constant("L3", "smoothness of the server regularizer f (Assumption A2; "
                "2 max(lam_h, lam_v))", "f/x^2", "nonnegative", latex="L_3", typst="L_3")
L = P.constant("L", "smoothness of F, L = b1 L2 + b2^2 L1 + L3 (Lemma C.1)", "f/x^2",
               latex="L", typst="L")
lam_h = P.constant("lam_h", "hypernetwork regularization weight lambda_h", "f/x^2",
                   "nonnegative", latex=r"\lambda_h", typst="lambda_h")
lam_v = P.constant("lam_v", "embedding-network regularization weight lambda_v", "f/x^2",
                   "nonnegative", latex=r"\lambda_v", typst="lambda_v")
gammaG2 = P.constant("gammaG2", "bounded dissimilarity gamma_G^2 (Assumption A3)", "f^2/x^2",
                     "nonnegative", latex=r"\gamma_G^2", typst="gamma_G^2")
sigma1_2 = P.constant("sigma1_2", "variance sigma_1^2 of the local stochastic gradient "
                      "(Assumption A4, (33))", "f^2/x^2", "nonnegative",
                      latex=r"\sigma_1^2", typst="sigma_1^2")
sigma2_2 = P.constant("sigma2_2", "b times the variance of the batch-descriptor Jacobian "
                      "(Assumption A4, (34))", "1", "nonnegative",
                      latex=r"\sigma_2^2", typst="sigma_2^2")
sigma3_2 = P.constant("sigma3_2", "b times the variance of the batch-descriptor output "
                      "(Assumption A4, (35))", "x^2", "nonnegative",
                      latex=r"\sigma_3^2", typst="sigma_3^2")
b = P.constant("b", "descriptor batch size |B_i|", "1", "positive_integer",
               latex="b", typst="b")
k = P.constant("k", "local SGD steps per round", "1", "positive_integer", latex="k", typst="k")
c = P.constant("c", "clients sampled per round", "1", "positive_integer", latex="c", typst="c")
ell = P.constant("ell", "local step index l (1 <= l <= k) of Lemma C.3", "1",
                 "positive_integer", latex="l", typst="l")
beta = P.constant("beta", "step size (local SGD and server regularizer step)", "x^2/f",
                  latex=r"\beta", typst="beta")
G2 = P.constant("G2", "E||grad F(eta_t)||^2 at the current round", "f^2/x^2", "nonnegative",
                latex=r"\mathbb E\|\nabla F(\eta_t)\|^2", typst="EE norm(nabla F(eta_t))^2")
ip_f = P.constant("ip_f", "<grad F(eta_t), grad f(eta_t)>: the gradient against the "
                  "regularizer's gradient", "f^2/x^2", "real",
                  latex=r"\langle\nabla F(\eta_t),\nabla f(\eta_t)\rangle",
                  typst="chevron.l nabla F(eta_t), nabla f(eta_t) chevron.r")
Vsum = P.constant("Vsum", "sum_i E||a_i - E a_i||^2 (Lemma C.2)", "x^2", "nonnegative",
                  latex=r"\sum_i\mathbb E\|a_i-\mathbb E a_i\|^2",
                  typst="sum_i EE norm(a_i - EE a_i)^2")
a_max = P.constant("a_max", "bound a on ||E a_i|| (Lemma C.2, (45))", "x", "nonnegative",
                   latex="a", typst="a")
theta0 = P.constant("theta0", "a coordinate of h(B_i, eta_t), the local starting point",
                    "x", "real", latex=r"h(B_i,\eta_t)", typst="h(B_i, eta_t)")
Sg = P.constant("Sg", "a coordinate of sum_j g_{t,i,j}, the summed local gradients", "f/x",
                "real", latex=r"\sum_j g_{t,i,j}", typst="sum_j g_(t,i,j)")

# --- PAC-Bayes objects (Sec. 3.2, App. B) -----------------------------------------------
n = P.constant("n", "number of observed clients", "1", "positive_integer", latex="n",
               typst="n")
m = P.constant("m", "samples per client (all |S_i| = m)", "1", "positive_integer",
               latex="m", typst="m")
delta = P.constant("delta", "confidence parameter", "1", "unit_interval", latex=r"\delta",
                   typst="delta")
M = P.constant("M", "loss range: l in [0, M]", "f", latex="M", typst="M")
er_hat = P.constant("er_hat", "empirical loss er^(Q) on the observed clients, (4)", "f",
                    "nonnegative", latex=r"\widehat{\mathrm{er}}(\mathcal Q)",
                    typst="hat(\"er\")(cal(Q))")
KLmeta = P.constant("KLmeta", "KL(Q || P) of the meta-posterior to the meta-prior", "1",
                    "nonnegative", latex=r"D_{\mathrm{KL}}(\mathcal Q\|\mathcal P)",
                    typst="D_(\"KL\")(cal(Q) || cal(P))")
KLsum = P.constant("KLsum", "sum_i KL(A(S_i) || P) of the per-client posteriors", "1",
                   "nonnegative", latex=r"\sum_i D_{\mathrm{KL}}(A(S_i)\|P)",
                   typst="sum_i D_(\"KL\")(A(S_i) || P)")
lam_pb = P.constant("lam_pb", "free parameter lambda of Part I (1 < lambda < 4mn)", "1",
                    latex=r"\lambda", typst="lambda")
Kc = P.constant("Kc", "K = sum_i KL(Q_i || P) + log(8mn/delta) (Part I)", "1",
                latex="K", typst="K")
emp = P.constant("emp", "empirical 0-1 loss of the stochastic predictor, first term of (3)",
                 "1", "unit_interval", latex=r"\widehat{\mathrm{er}}", typst="hat(\"er\")")
alpha_h = P.constant("alpha_h", "variance of the hypernetwork posterior Q_h = N(eta_h, "
                     "alpha_h Id)", "x^2", latex=r"\alpha_h", typst="alpha_h")
alpha_v = P.constant("alpha_v", "variance of the embedding posterior Q_v = N(eta_v, "
                     "alpha_v Id)", "x^2", latex=r"\alpha_v", typst="alpha_v")
alpha_theta = P.constant("alpha_theta", "variance of the client posterior N(theta, "
                         "alpha_theta Id)", "x^2", latex=r"\alpha_\theta", typst="alpha_theta")
eta_h2 = P.constant("eta_h2", "||eta_h||^2", "x^2", "nonnegative", latex=r"\|\eta_h\|^2",
                    typst="norm(eta_h)^2")
eta_v2 = P.constant("eta_v2", "||eta_v||^2", "x^2", "nonnegative", latex=r"\|\eta_v\|^2",
                    typst="norm(eta_v)^2")
theta2 = P.constant("theta2", "(1/n) sum_i ||h(v(S_i; eta_v); eta_h)||^2 (mean squared "
                    "client-model norm)", "x^2", "nonnegative",
                    latex=r"\overline{\|\theta\|^2}", typst="overline(norm(theta)^2)")
G = P.constant("G", "size of the data-independent alpha-grid (union bound)", "1",
               "positive_integer", latex=r"|\mathcal G|", typst="|cal(G)|")

# --- communication (App. A.3) ---------------------------------------------------------
dtheta = P.constant("dtheta", "size d of the client model theta (floats)", "1",
                    "positive_integer", latex="d", typst="d")
deta_v = P.constant("deta_v", "size of the embedding network eta_v (floats)", "1",
                    "positive_integer", latex=r"|\eta_v|", typst="|eta_v|")
l_desc = P.constant("l_desc", "descriptor dimension l", "1", "positive_integer",
                    latex="l", typst="l")

# --- the experiments' comparisons (experiments.py) ------------------------------------
er_ref = P.constant("er_ref", "mean 0-1 risk of the method or variant a claim compares with, "
                    "on the same clients (measured)", "1", "unit_interval", latex=r"er_{ref}",
                    typst="\"er\"_\"ref\"")
rho_0 = P.constant("rho_0", "mean Spearman correlation of descriptor distances with "
                   "label-distribution distances at initialisation (measured)", "1", "real",
                   latex=r"\rho_0", typst="rho_0")

# --- relations every instance satisfies (refused with their reason wherever all their
# symbols are inputs of a result) -------------------------------------------------------
P.relation(sp.Le(c, n), "the c clients of a round are a subset of the n clients, drawn "
           "uniformly without replacement (Lemma C.2, the implicit hypothesis of App. C), so "
           "c <= n")
P.relation(sp.Le(er_hat, M), "the loss takes values in [0, M] (Theorem B.1's hypothesis), so "
           "the empirical loss er^(Q) of (4), an average of losses, lies in [0, M]")
P.relation(sp.Ge(Kc, sp.log(8 * m * n)), "K = sum_i KL(Q_i||P) + log(8mn/delta) with every "
           "KL >= 0 and delta in (0, 1] (Part I of Theorem B.1, (20)-(21); erratum19), so "
           "K >= log(8mn)", "K >= log(8mn)")
P.relation(sp.Ge(rho_0, -1), "a Spearman rank correlation lies in [-1, 1] (Fig. 3)")
P.relation(sp.Le(rho_0, 1), "a Spearman rank correlation lies in [-1, 1] (Fig. 3)")
