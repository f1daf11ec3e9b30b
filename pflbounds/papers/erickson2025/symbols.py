"""Scalar inputs of erickson2025, with the digest's names, meanings and units (§1, §5).

Units: [f] function value, [x] parameter length and [xi] length of a data sample in the
data metric d_X (a base dimension of its own: the Lipschitz constant in the data L_X has
the unit [f]/[xi] and a Wasserstein distance W1 the unit [xi]). The gradient mapping G_eta
has the unit of a gradient, [f]/[x], so min_k E||G_eta||^2 carries [f]^2/[x]^2; delta, the
projection inaccuracy, is a suboptimality of (1/(2 eta))||. - z||^2 and carries [f].
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.erickson2025.paper import P
from pflbounds.symbolic.constants import (  # noqa: F401 - re-exported for the paper's modules
    Delta0,
    K,
    L,
    eta,
    sigma2,
)
from pflbounds.symbolic.units import declare_base_dimension

XI = declare_base_dimension("xi")

gamma = P.constant("gamma", "quadratic functional growth constant of every f_i "
                   "(Assumption 3.1)", "f/x^2", latex=r"\gamma", typst="gamma")
L_X = P.constant("L_X", "Lipschitz constant of the loss in its data argument w.r.t. d_X "
                 "(Assumption 3.2)", "f/xi", latex=r"L_{\mathcal X}", typst="L_cal(X)")
W1 = P.constant("W1", "1-Wasserstein distance W_1(mu_i, mu_j) between two clients' data "
                "distributions", "xi", "nonnegative", latex=r"W_1(\mu_i,\mu_j)",
                typst="W_1 (mu_i, mu_j)")
gap = P.constant("gap", "f_i(theta_j^*) - f_j(theta_j^*) + f_j(theta_i^*) - f_i(theta_i^*) "
                 "(the bracket of (3))", "f", "nonnegative",
                 latex=r"f_i(\theta_j^\star)-f_j(\theta_j^\star)+f_j(\theta_i^\star)"
                       r"-f_i(\theta_i^\star)",
                 typst="f_i (theta_j^star) - f_j (theta_j^star) + f_j (theta_i^star) - "
                       "f_i (theta_i^star)")
n = P.constant("n", "number of clients", "1", "positive_integer", latex="n", typst="n")
s = P.constant("s", "participation size |S_k| (clients sampled per round)", "1",
               "positive_integer", latex="s", typst="s")
delta = P.constant("delta", "projection inaccuracy of the delta-inexact projection",
                   "f", "nonnegative", latex=r"\delta", typst="delta")
E_th_phi = P.constant("E_th_phi", "E||theta^k - phi^k||^2 (distance of the iterate to the "
                      "points of the gradient table)", "x^2", "nonnegative",
                      latex=r"\mathbb E\|\theta^k-\phi^k\|^2",
                      typst="EE norm(theta^k - phi^k)^2")
f_v = P.constant("f_v", "f(v), the objective at the comparison point v in K", "f", "real",
                 latex="f(v)", typst="f(v)")
ip = P.constant("ip", "<u - v, grad f(theta) - nu>", "f", "real",
                latex=r"\langle u-v,\nabla f(\theta)-\nu\rangle",
                typst="chevron.l u - v, nabla f(theta) - nu chevron.r")
a1 = P.constant("a1", "||u - theta||^2", "x^2", "nonnegative", latex=r"\|u-\theta\|^2",
                typst="norm(u - theta)^2")
a2 = P.constant("a2", "||v - theta||^2", "x^2", "nonnegative", latex=r"\|v-\theta\|^2",
                typst="norm(v - theta)^2")
a3 = P.constant("a3", "||u_bar - v||^2", "x^2", "nonnegative", latex=r"\|\bar u-v\|^2",
                typst="norm(overline(u) - v)^2")
epsG = P.constant("epsG", "target on min_k E||G_eta(theta^k)||^2", "f^2/x^2",
                  latex=r"\varepsilon_G", typst="epsilon_G")

# --- relations every instance satisfies (refused with their reason wherever all their
# symbols are inputs of a result) -------------------------------------------------------
P.relation(sp.Le(s, n), "the participating set S_k is a subset of the n clients (H2, "
           "Algorithm 1: S_k drawn uniformly from {1, ..., n}), so s = |S_k| <= n")
P.relation(sp.Le(sp.sqrt(a3), sp.sqrt(a1) + sp.sqrt(a2) + sp.sqrt(2 * eta * delta)),
           "u_bar - v = (u_bar - u) + (u - theta) + (theta - v) with ||u - u_bar||^2 <= "
           "2 eta delta for a feasible delta-inexact projection u (Lemma A.2 (5), H3): the "
           "triangle inequality bounds ||u_bar - v|| by sqrt(a1) + sqrt(a2) + "
           "sqrt(2 eta delta)", "triangle inequality through Lemma A.2 (5)")

# --- the measured quantities the claims of the §5 experiments compare with (experiments/) ---
err_ref = P.constant("err_ref", "estimation error (1/n) sum_i ||theta_i - theta_i^true|| of "
                     "the method a claim compares with (measured)", "x", "nonnegative",
                     latex=r"e_{ref}", typst="e_\"ref\"")
r2_ref = P.constant("r2_ref", "mean test R^2 of the method a claim compares with (measured)",
                    "1", "real", latex=r"R^2_{ref}", typst="R^2_\"ref\"")
rho_ref = P.constant("rho_ref", "Spearman correlation of the local estimates' distances with "
                     "the true distances (measured)", "1", "real", latex=r"\rho_{ref}",
                     typst="rho_\"ref\"")
P.relation(sp.Le(r2_ref, 1), "a test R^2 = 1 - sum of squared residuals/total sum of squares "
           "is at most 1 (Table 1's R^2; it may be negative, never above 1)")
P.relation(sp.Ge(rho_ref, -1), "a Spearman rank correlation lies in [-1, 1] (Fig. 1)")
P.relation(sp.Le(rho_ref, 1), "a Spearman rank correlation lies in [-1, 1] (Fig. 1)")
acc_ref = P.constant("acc_ref", "mean test accuracy of the method a claim compares with "
                     "(measured)", "1", "unit_interval", latex=r"acc_{ref}",
                     typst="\"acc\"_\"ref\"")
