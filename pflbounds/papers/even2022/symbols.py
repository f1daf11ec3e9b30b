"""Scalar inputs of even2022, with the digest's names, meanings and units.

Units: [f] function value, [x] parameter length. In Section 6 a sample xi acts as a
Hessian-like block (the gradient is xi x - ...), so sample-space quantities (u, nu2, Delta2)
carry the unit ([f]/[x]^2)^2.
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.even2022.paper import P
from pflbounds.symbolic.constants import (  # noqa: F401 - re-exported for the paper's modules
    F0,
    Delta0,
    K,
    L,
    N,
    T,
    d,
    eps,
    eta,
    kappa,
    mu,
    sigma2,
)

V = P.constant("V", "sum_j lambda_ij^2 for agent i (variance factor)", "1", "positive",
             latex=r"V_i", typst="V_i")
B = P.constant("B", "sum_j lambda_ij b_ij^2 for agent i (bias factor)", "f^2/x^2", "nonnegative",
             latex=r"B_i", typst="B_i")
SumLam2 = P.constant("SumLam2", "sum_ij lambda_ij^2", "1", "positive",
                   latex=r"\sum_{ij}\lambda_{ij}^2", typst="sum_(i j) lambda_(i j)^2")
BiasSum = P.constant("BiasSum", "sum_ij lambda_ij b_ij^2", "f^2/x^2", "nonnegative",
                   latex=r"\sum_{ij}\lambda_{ij}b_{ij}^2", typst="sum_(i j) lambda_(i j) b_(i j)^2")
BiasF = P.constant("BiasF", "sum_ij lambda_ij (f_i(x_j^*) - f_i^*)", "f", "nonnegative",
                 latex=r"\sum_{ij}\lambda_{ij}(f_i(x_j^*)-f_i^*)",
                 typst="sum_(i j) lambda_(i j) (f_i (x_j^*) - f_i^*)")
DeltaLam0 = P.constant("DeltaLam0", "f^Lambda(y^0) - f^Lambda(y^Lambda) (<= F0)", "f",
                     "nonnegative", latex=r"\Delta^\Lambda_0", typst="Delta^Lambda_0")
rho_W = P.constant("rho_W", "spectral radius of W = Lambda Lambda^T; it equals "
                   "||Lambda||_2^2 >= 1, as Lambda 1 = 1 for a row-stochastic Lambda", "1",
                   "at_least_one", latex=r"\rho(W)", typst="rho(W)")
Neps = P.constant("Neps", "N_i^eps: number of agents eps-close to agent i (i included)", "1",
                "positive_integer", latex=r"\mathcal{N}_i^\varepsilon",
                typst="cal(N)_i^epsilon")
invN_mean = P.constant("invN_mean", "(1/N) sum_i 1/N_i^eps(b^2/mu)", "1", "positive",
                     latex=r"\frac{1}{N}\sum_i \frac{1}{\mathcal{N}_i^\varepsilon}",
                     typst="1/N sum_i 1/(cal(N)_i^epsilon)")
b = P.constant("b", "bias bound b_ij >= d_H(D_i, D_j) (gradient gap)", "f/x", "nonnegative",
             latex=r"b_{ij}", typst="b_(i j)")
r = P.constant("r", "bound on ||x_i^*||; Theorem 1 sets mu = L = 1/r^2, so r has the unit "
             "of mu^(-1/2)", "x*f^-0.5", latex="r", typst="r")
N_eff = P.constant("N_eff", "agents carrying information on the hard instance "
                 "(#{j: b_1j^2 < 36 eps})", "1", "positive_integer",
                 latex=r"N_{\mathrm{eff}}", typst="N_\"eff\"")
psi = P.constant("psi", "packing separation psi(delta) of the hard family", "f",
               latex=r"\psi(\delta)", typst="psi(delta)")
Vcard = P.constant("Vcard", "size |V| of the packing", "1", "positive",
                 latex=r"|\mathcal{V}|", typst="|cal(V)|")
I1 = P.constant("I1", "mutual information I(phi_1, alpha) per oracle call (nats)", "1",
              latex=r"I(\phi_1,\alpha)", typst="I(phi_1, alpha)")
Itot = P.constant("Itot", "mutual information I(phi, alpha) of all the data (nats)", "1",
                "nonnegative", latex=r"I(\phi,\alpha)", typst="I(phi, alpha)")
E_k = P.constant("E_k", "E[F(y^k) - F(y^*)]", "f", "nonnegative",
               latex=r"\mathbb{E}[F(y^k)-F^*]", typst="EE[F(y^k) - F^*]")
gradgap2 = P.constant("gradgap2", "E||grad F(y^k) - grad G(y^k)||^2", "f^2/x^2", "nonnegative",
                    latex=r"\mathbb{E}\|\nabla F-\nabla G\|^2",
                    typst="EE norm(nabla F - nabla G)^2")
sigma_g2 = P.constant("sigma_g2", "variance of the gradient estimate of G", "f^2/x^2",
                    "nonnegative", latex=r"\sigma_g^2", typst="sigma_g^2")
C = P.constant("C", "cluster size (N = M C)", "1", "positive_integer", latex="C", typst="C")
S = P.constant("S", "samples per agent used to estimate the biases", "1", "positive_integer",
             latex="S", typst="S")
u = P.constant("u", "threshold on the estimated squared distances b_hat_ij^2", "f^2/x^4",
             latex="u", typst="u")
nu2 = P.constant("nu2", "largest eigenvalue of the sub-Gaussian proxy Sigma", "f^2/x^4",
               latex=r"\nu^2", typst="nu^2")
d_eff = P.constant("d_eff", "effective dimension Tr(Sigma)/nu^2", "1",
                 latex=r"d_{\mathrm{eff}}", typst="d_\"eff\"")
Delta2 = P.constant("Delta2", "smallest squared separation of cluster means", "f^2/x^4",
                  latex=r"\Delta^2", typst="Delta^2")
b_max = P.constant("b_max", "max_ij b_ij", "f/x", "nonnegative", latex=r"b_{\max}",
                 typst="b_max")
D_star = P.constant("D_star", "bound on every ||x_i^*||", "x", latex="D^*", typst="D^*")
c_N = P.constant("c_N", "number of misclassifiable pairs per agent in the union bound "
               "(1 in the paper, N - C when counted)", "1", "positive",
               latex="c_N", typst="c_N")
M = P.constant("M", "number of clusters (N = M C)", "1", "positive_integer", latex="M",
             typst="M")
t_dev = P.constant("t", "deviation level of the Hsu-Kakade-Zhang tail (probability e^-t)", "1",
                 latex="t", typst="t")
Sigma_F = P.constant("Sigma_F", "||Sigma||_2 of Appendix E, read as the Frobenius norm "
                     "sqrt(Tr Sigma^2) (the appendix uses ||Sigma||_2^2 = sum_k nu_k^4)",
                     "f^2/x^4", latex=r"\|\Sigma\|_2", typst="norm(Sigma)_2")
bsum = P.constant("bsum", "sum_ij b_ij (first powers)", "f/x", "nonnegative",
                latex=r"\sum_{ij} b_{ij}", typst="sum_(i j) b_(i j)")
b2sum = P.constant("b2sum", "sum_ij b_ij^2", "f^2/x^2", "nonnegative",
                 latex=r"\sum_{ij} b_{ij}^2", typst="sum_(i j) b_(i j)^2")
alpha = P.constant("alpha", "weight of the other agents in classical personalisation "
                   "(lambda_ii = 1 - alpha, lambda_ij = alpha/(N-1))", "1", "unit_interval",
                   latex=r"\alpha", typst="alpha")
invN_afo_mean = P.constant("invN_afo_mean", "(1/N) sum_i 1/N_i^eps(2b^2/mu): the AFO neighbour "
                           "counts of Theorem 2 (b_ij^2 <= mu eps/2)", "1", "positive",
                           latex=r"\frac{1}{N}\sum_i \frac{1}{\mathcal{N}_i^\varepsilon(2b^2/\mu)}",
                           typst="1/N sum_i 1/(cal(N)_i^epsilon (2 b^2/mu))")

#: Theorem 1's normalisation (mu = L = 1/r^2) and other shorthands
A6 = 2 * mu**2 * K * Delta0 / (sigma2 * L * V)
"""A_i of Eq. (6): the argument of the logarithm in the AFO step size."""
A7 = 2 * mu**2 * K * DeltaLam0 / (sigma2 * L * SumLam2 / N)
"""The argument of the logarithm in the AFA step size, Eq. (7)."""
C1 = sp.Rational(879, 100)
"""KL constant of the hard instance: KL(Ber(1/2+delta)||Ber(1/2-delta)) <= C1 delta^2 for
delta <= 1/4 (digest §5.3)."""


def ind_ge(a: sp.Expr, b_: sp.Expr) -> sp.Expr:
    """Indicator 1{a >= b} as a Heaviside step with H(0) = 1."""
    return sp.Heaviside(a - b_, 1)


def ind_gt(a: sp.Expr, b_: sp.Expr) -> sp.Expr:
    """Indicator 1{a > b} as a Heaviside step with H(0) = 0 (strict)."""
    return sp.Heaviside(a - b_, 0)
