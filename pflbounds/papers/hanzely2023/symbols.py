"""Scalar inputs of hanzely2023, with the names of the command line and the digest.

Units: [f] function value, [x] parameter length. Strong-convexity and smoothness constants
(mu, L^w, L^beta, their calligraphic finite-sum versions, the base constants mu', L', L'cal,
the penalty lambda) are [f]/[x]^2; Lambda and alpha are pure numbers; sigma^2 and zeta_*^2
are [f]^2/[x]^2; squared distances are [x]^2.

The paper's complexities multiply log(1/eps); a logarithm needs a pure number, and the
hidden O-constant contains the initial error, so the encoded forms write log(Delta0/eps)
(Delta0 = F(x^0) - F^*, the core constant): Delta0 = 1 gives the printed expression.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from pflbounds.papers.hanzely2023.paper import P
from pflbounds.symbolic.constants import (  # noqa: F401 - re-exported for the paper's modules
    Delta0,
    K,
    L,
    eps,
    eta,
    mu,
    sigma2,
)
from pflbounds.symbolic.result import InstanceRelation

_S = "f/x^2"
LOG = sp.log(Delta0 / eps)
"""The paper's log(1/eps) with the initial error made explicit (module docstring): every
count of a linearly converging method multiplies it."""

# ----------------------------------------------------------------- Assumptions 1-2 constants
Lw = P.constant("Lw", "L^w: smoothness of each f_m in the global block w (Assumption 1)", _S,
                "nonnegative", latex="L^w", typst="L^w")
Lb = P.constant("Lb", "L^beta: smoothness of F in each local block; f_m is M L^beta-smooth in "
                "beta_m (Assumption 1)", _S, "nonnegative", latex=r"L^\beta", typst="L^beta")
Lcw = P.constant("Lcw", "calligraphic L^w: smoothness of each component f_{m,i} in w "
                 "(Assumption 2)", _S, "nonnegative", latex=r"\mathcal{L}^w",
                 typst="cal(L)^w")
Lcb = P.constant("Lcb", "calligraphic L^beta: f_{m,i} is M Lcal^beta-smooth in beta_m "
                 "(Assumption 2)", _S, "nonnegative", latex=r"\mathcal{L}^\beta",
                 typst="cal(L)^beta")

# ----------------------------------------------------------------- base constants (Section 2)
mup = P.constant("mup", "mu': strong convexity of each client loss f'_m", _S,
                 latex=r"\mu'", typst="mu'")
Lp = P.constant("Lp", "L': smoothness of each client loss f'_m", _S, latex="L'", typst="L'")
Lcp = P.constant("Lcp", "calligraphic L': smoothness of each component f'_{m,j}", _S,
                 latex=r"\mathcal{L}'", typst="cal(L)'")
lam = P.constant("lam", "lambda: personalization penalty (MT2, MX2)", _S,
                 latex=r"\lambda", typst="lambda")
Lam = P.constant("Lam", "Lambda: weight of the shared loss in MT2/APFL2 (relaxation)", "1",
                 latex=r"\Lambda", typst="Lambda")
alpha = P.constant("alpha", "alpha: APFL mixing weight, the same for every client", "1",
                   "unit_interval", latex=r"\alpha", typst="alpha")
amax = P.constant("amax", "alpha_max: largest APFL mixing weight", "1", "unit_interval",
                  latex=r"\alpha_{\max}", typst="alpha_max")
amin = P.constant("amin", "alpha_min: smallest APFL mixing weight", "1", "unit_interval",
                  latex=r"\alpha_{\min}", typst="alpha_min")
M = P.constant("M", "number of clients", "1", "positive_integer", latex="M", typst="M")
n = P.constant("n", "number of components of each f_m (finite sum, Eq. (3))", "1",
               "positive_integer", latex="n", typst="n")
LwR = P.constant("LwR", "L^w_R: w-smoothness of the federated residual loss", _S,
                 "nonnegative", latex=r"L^w_R", typst="L^w_R")
LbR = P.constant("LbR", "L^beta_R: beta-smoothness of the federated residual loss", _S,
                 "nonnegative", latex=r"L^\beta_R", typst="L^beta_R")
LcwR = P.constant("LcwR", "calligraphic L^w_R (federated residual, finite sum)", _S,
                  "nonnegative", latex=r"\mathcal{L}^w_R", typst="cal(L)^w_R")
LcbR = P.constant("LcbR", "calligraphic L^beta_R (federated residual, finite sum)", _S,
                  "nonnegative", latex=r"\mathcal{L}^\beta_R", typst="cal(L)^beta_R")

# ----------------------------------------------------------------- LSGD-PFL (Theorems 1, 2, 5)
tau = P.constant("tau", "communication period (tau - 1 local steps between rounds)", "1",
                 "positive_integer", latex=r"\tau", typst="tau")
B = P.constant("B", "minibatch size", "1", "positive_integer", latex="B", typst="B")
zeta2 = P.constant("zeta2", "zeta_*^2 = (1/M) sum_m ||grad f_m(w^*, beta^*)||^2 "
                   "(heterogeneity at the optimum)", "f^2/x^2", "nonnegative",
                   latex=r"\zeta_*^2", typst="zeta_*^2")
Dw0 = P.constant("Dw0", "||w^0 - w^*||^2", "x^2", "nonnegative",
                 latex=r"\|w^0-w^*\|^2", typst="norm(w^0 - w^*)^2")
Db0 = P.constant("Db0", "sum_m ||beta_m^0 - beta_m^*||^2", "x^2", "nonnegative",
                 latex=r"\sum_m\|\beta_m^0-\beta_m^*\|^2",
                 typst="(sum_m norm(beta_m^0 - beta_m^*)^2)")
Dist0 = P.constant("Dist0", "||w^0 - w^*||^2 + sum_m ||beta_m^0 - beta_m^*||^2 (hidden in "
                   "Theorem 2's O)", "x^2", latex=r"R_0^2", typst="R_0^2")
Fgap = P.constant("Fgap", "F(w^k, beta^k) - F(w^*, beta^*) at the virtual iterate", "f",
                  "nonnegative", latex=r"(F(w^k,\beta^k)-F^*)", typst="(F(w^k, beta^k) - F^*)")
Vk = P.constant("Vk", "V_k = (1/M) sum_m ||w^k - w_m^k||^2 (consensus error)", "x^2",
                "nonnegative", latex="V_k", typst="V_k")
SumWF = P.constant("SumWF", "sum_k (1 - eta mu)^(-k-1) E[F(w^k, beta^k) - F^*]", "f",
                   "nonnegative", latex=r"\sum_k \omega_k \mathbb{E}[F^k-F^*]",
                   typst="(sum_k omega_k EE[F^k - F^*])")
SumW = P.constant("SumW", "sum_k (1 - eta mu)^(-k-1) (weights of Lemma 7)", "1",
                  latex=r"\sum_k \omega_k", typst="(sum_k omega_k)")

# ----------------------------------------------------------------- ACD / ASVRCD parameters
pw = P.constant("pw", "p_w: probability of a w-step (ASVRCD-PFL, Theorem 9)", "1",
                "unit_interval", latex="p_w", typst="p_w")
rho = P.constant("rho", "rho: probability of refreshing the control-variate snapshot", "1",
                 "unit_interval", latex=r"\rho", typst="rho")
DF = P.constant("DF", "Bregman divergence D_F(x, x')", "f", "nonnegative",
                latex="D_F(x,x')", typst="D_F (x, x')")
Lx = P.constant("Lx", "blockwise smoothness of H in x (Lemma 16)", _S, latex="L_x", typst="L_x")
Ly = P.constant("Ly", "blockwise smoothness of H in y (Lemma 16)", _S, latex="L_y", typst="L_y")
gx2 = P.constant("gx2", "||grad_x H(x, y) - grad_x H(x', y')||^2", "f^2/x^2", "nonnegative",
                 latex=r"\|\nabla_x H-\nabla_x H'\|^2", typst="norm(nabla_x H - nabla_x H')^2")
gy2 = P.constant("gy2", "||grad_y H(x, y) - grad_y H(x', y')||^2", "f^2/x^2", "nonnegative",
                 latex=r"\|\nabla_y H-\nabla_y H'\|^2", typst="norm(nabla_y H - nabla_y H')^2")

# ----------------------------------------------------------------- non-convex LSGD (Thms 3-4)
C1 = P.constant("C1", "C_1: relative noise of the w-gradients (Assumption 5)", "1",
                "nonnegative", latex="C_1", typst="C_1")
C2 = P.constant("C2", "C_2: relative noise of the beta-gradients (Assumption 5)", "1",
                "nonnegative", latex="C_2", typst="C_2")
s1sq = P.constant("s1sq", "sigma_1^2: additive noise of the w-gradients (Assumption 5)",
                  "f^2/x^2", "nonnegative", latex=r"\sigma_1^2", typst="sigma_1^2")
s2sq = P.constant("s2sq", "sigma_2^2: additive noise of the beta-gradients (Assumption 5)",
                  "f^2/x^2", "nonnegative", latex=r"\sigma_2^2", typst="sigma_2^2")
lam_dis = P.constant("lam_dis", "lambda of Assumption 6 (gradient dissimilarity; not the "
                     "penalty)", "1", latex=r"\lambda_{\mathrm{dis}}", typst="lambda_\"dis\"")
s2dif = P.constant("s2dif", "sigma_dif^2 of Assumption 6", "f^2/x^2", "nonnegative",
                   latex=r"\sigma_{\mathrm{dif}}^2", typst="sigma_\"dif\"^2")
beta0 = P.constant("beta0", "the scalar beta of Theorem 4's step size (not the local "
                   "parameters)", "1", latex=r"\beta", typst="beta")
G2avg = P.constant("G2avg", "(1/M) sum_m ||grad f_m(theta_m^k)||^2", "f^2/x^2", "nonnegative",
                   latex=r"\frac{1}{M}\sum_m\|\nabla f_m(\theta_m^k)\|^2",
                   typst="(1/M sum_m norm(nabla f_m (theta_m^k))^2)")
Gbar2 = P.constant("Gbar2", "||(1/M) sum_m grad f_m(theta_m^k)||^2 (at the local iterates)",
                   "f^2/x^2", "nonnegative",
                   latex=r"\|\frac{1}{M}\sum_m\nabla f_m(\theta_m^k)\|^2",
                   typst="norm(1/M sum_m nabla f_m (theta_m^k))^2")
Ghat2 = P.constant("Ghat2", "||(1/M) sum_m grad f_m(hat theta_m^k)||^2 (at the virtual "
                   "iterates)", "f^2/x^2", "nonnegative",
                   latex=r"\|\frac{1}{M}\sum_m\nabla f_m(\hat\theta_m^k)\|^2",
                   typst="norm(1/M sum_m nabla f_m (hat(theta)_m^k))^2")
IPw = P.constant("IPw", "<(1/M) sum_m grad_w f_m(hat theta_m^k), (1/M) sum_m grad_w "
                 "f_m(theta_m^k)>", "f^2/x^2", "real", latex=r"\langle\cdot,\cdot\rangle_w",
                 typst="lr(⟨dot, dot⟩)_w")
IPb = P.constant("IPb", "(1/M) sum_m <grad_beta f_m(hat theta_m^k), grad_beta "
                 "f_m(theta_m^k)>", "f^2/x^2", "real", latex=r"\langle\cdot,\cdot\rangle_\beta",
                 typst="lr(⟨dot, dot⟩)_beta")
H2 = P.constant("H2", "E||h^k||^2, h^k = (1/M) sum_m g_{m,1}^k", "f^2/x^2", "nonnegative",
                latex=r"\mathbb{E}\|h^k\|^2", typst="EE norm(h^k)^2")
G2b = P.constant("G2b", "(1/M) sum_m E||g_{m,2}^k||^2", "f^2/x^2", "nonnegative",
                 latex=r"\frac{1}{M}\sum_m\mathbb{E}\|g_{m,2}^k\|^2",
                 typst="(1/M sum_m EE norm(g_(m,2)^k)^2)")
Fhat = P.constant("Fhat", "(1/M) sum_m f_m(hat theta_m^k) - f^*", "f", "nonnegative",
                  latex=r"(\hat F^k-f^*)", typst="(hat(F)^k - f^*)")
SumEtaG = P.constant("SumEtaG", "sum_{t=k_p}^{k-1} eta_t^2 E||(1/M) sum_m grad "
                     "f_m(theta_m^t)||^2", "x^2", "nonnegative",
                     latex=r"\sum_t\eta_t^2 e_t", typst="(sum_t eta_t^2 e_t)")
SumEta2 = P.constant("SumEta2", "sum_{t=k_p}^{k-1} eta_t^2", "x^4/f^2", "nonnegative",
                     latex=r"\sum_t\eta_t^2", typst="(sum_t eta_t^2)")
etak = P.constant("etak", "eta_k: the step at iteration k", "x^2/f",
                  latex=r"\eta_k", typst="eta_k")

# ----------------------------------------------------------------- Proposition 1
dist2 = P.constant("dist2", "||x - y||^2", "x^2", "nonnegative", latex=r"\|x-y\|^2",
                   typst="norm(x - y)^2")
Df = P.constant("Df", "Bregman divergence D_f(x, y)", "f", "nonnegative", latex="D_f(x,y)",
                typst="D_f (x, y)")
xi = P.constant("xi", "xi > 0 of Young's inequality (34)", "1", latex=r"\xi", typst="xi")
u2 = P.constant("u2", "||u||^2 (a vector of Proposition 1)", "1", "nonnegative",
                latex=r"\|u\|^2", typst="norm(u)^2")
v2 = P.constant("v2", "||v||^2 (a vector of Proposition 1)", "1", "nonnegative",
                latex=r"\|v\|^2", typst="norm(v)^2")
uv2 = P.constant("uv2", "||u - v||^2", "1", "nonnegative", latex=r"\|u-v\|^2",
                 typst="norm(u - v)^2")
meansq = P.constant("meansq", "(1/n) sum_i ||v_i||^2", "1", "nonnegative",
                    latex=r"\frac1n\sum_i\|v_i\|^2", typst="(1/n sum_i norm(v_i)^2)")
kap = P.constant("kap", "condition number lambda_max(A)/lambda_min(A) of Nesterov's quadratic",
                 "1", latex=r"\kappa", typst="kappa")
ystar2 = P.constant("ystar2", "||y^*||^2 (Nesterov's worst case, y^0 = 0)", "x^2",
                    latex=r"\|y^*\|^2", typst="norm(y^*)^2")


# ----------------------------------------------------------------- instance relations
# Relations that every instance of the paper's hypotheses satisfies: every result whose inputs
# include all the symbols of one refuses a point that violates it, with its reason. Declared
# here, next to the constants, since ``eval`` loads only the module of its result.
#
# A block that the objective lacks has the constant 0 (Table 2: L^beta = Lcal^beta = 0 for
# traditional FL, L^w = Lcal^w = 0 for full personalization) and puts no bound on mu; a
# positive constant declares the block, on which F is mu-strongly convex: mu <= it.


def _block(L_: sp.Symbol, name: str, block: str, why: str) -> None:
    P.relation(sp.Le(mu * sp.sign(L_), L_),
               f"{why}, so mu <= {name} whenever the objective has a {block}-block ({name} = 0 "
               "marks one without it, Table 2)", label=f"mu <= {L_} unless {L_} = 0")


def _some_block(a: sp.Symbol, b: sp.Symbol, source: str) -> None:
    P.relation(sp.Gt(sp.Max(a, b), 0),
               f"{source}: F has a w-block or a beta-block, on which it is strongly convex or "
               f"has a unique minimiser; {a} = {b} = 0 would make F affine (no unique "
               "minimiser): no objective has both constants 0", label=f"{a} > 0 or {b} > 0")


def components_relations(L_: sp.Symbol, Lc: sp.Symbol, name: str, cal: str, block: str,
                         source: str) -> tuple[InstanceRelation, InstanceRelation]:
    """Footnote 1's {cal} >= {name} >= {cal}/n for one block (not registered)."""
    return (
        InstanceRelation(sp.Le(L_, Lc), f"{source}: {cal} >= {name} (f_m averages n components, "
                         f"each {cal}-smooth in {block}, so f_m is {cal}-smooth in {block} too)",
                         paper=P.paper),
        InstanceRelation(sp.Le(Lc, n * L_), f"{source}: {name} >= {cal}/n (the components are "
                         f"convex, so none is more than n times as curved in {block} as their "
                         f"average f_m; n = 1 gives {cal} = {name})", paper=P.paper))


def _components(*args: Any, upper: bool = True) -> None:
    low, up = components_relations(*args)
    P.relation(low.relation, low.reason)
    if upper:
        P.relation(up.relation, up.reason)


_A1 = "Assumption 1: F is jointly mu-strongly convex and {}-smooth in {}"
_block(Lw, "L^w", "w", _A1.format("L^w", "w"))
_block(Lb, "L^beta", "beta", _A1.format("L^beta", "each beta_m"))
_some_block(Lw, Lb, "Assumption 1")
_block(Lcw, "Lcal^w", "w", _A1.format("L^w", "w") + ", and L^w <= Lcal^w (footnote 1)")
_block(Lcb, "Lcal^beta", "beta",
       _A1.format("L^beta", "each beta_m") + ", and L^beta <= Lcal^beta (footnote 1)")
_some_block(Lcw, Lcb, "Assumptions 1-2")
_components(Lw, Lcw, "L^w", "Lcal^w", "w", "Footnote 1")
# (no result takes L^beta, Lcal^beta and n together: Lcal^beta <= n L^beta binds only in the
# calculator, which checks it from components_relations)
_components(Lb, Lcb, "L^beta", "Lcal^beta", "beta", "Footnote 1", upper=False)
# federated residual learning (18): Table 2 sets L^w = L^w_R, ..., so the same relations hold
_block(LwR, "L^w_R", "w", "Section 2.7: F is mu-strongly convex and L^w_R-smooth in w")
_block(LbR, "L^beta_R", "beta",
       "Section 2.7: F is mu-strongly convex and L^beta_R-smooth in beta")
_some_block(LwR, LbR, "Section 2.7 and Table 2")
_components(LwR, LcwR, "L^w_R", "Lcal^w_R", "w", "Footnote 1 with Table 2")
_components(LbR, LcbR, "L^beta_R", "Lcal^beta_R", "beta", "Footnote 1 with Table 2")

# base losses of Section 2 (Lemmas 1-4, Tables 2-3)
P.relation(sp.Le(mup, Lp), "Section 2: each client loss f'_m is mu'-strongly convex and "
           "L'-smooth, so mu' <= L'")
P.relation(sp.Le(Lp, Lcp), "Section 2 and footnote 1: f'_m = (1/n) sum_j f'_{m,j} averages "
           "Lcal'-smooth components, so L' <= Lcal' (footnote 1 for traditional FL, where "
           "L^w = L' and Lcal^w = Lcal')")
P.relation(sp.Le(Lcp, n * Lp), "footnote 1 for traditional FL (L^w = L', Lcal^w = Lcal'): "
           "L' >= Lcal'/n, the components being convex (n = 1 gives Lcal' = L')")
P.relation(sp.Le(amin, amax), "Lemma 3: alpha_min = min_m alpha_m <= alpha_max = max_m "
           "alpha_m")
P.relation(sp.Gt(amin, 0), "Eq. (12): every APFL mixing weight has 0 < alpha_m < 1")
P.relation(sp.Lt(amax, 1), "Eq. (12): every APFL mixing weight has 0 < alpha_m < 1 (alpha_max "
           "= 1 would leave APFL2 without strong convexity)")

# algorithm parameters that are probabilities (Algorithms 3-4, Theorems 8-9, Lemma 15)
P.relation(sp.Gt(pw, 0), "Algorithms 3-4 sample the w-block with probability p_w and the "
           "beta-block with p_beta = 1 - p_w; Lemma 15's Lcal = 2 max(Lcal^w/p_w, "
           "Lcal^beta/p_beta) needs both > 0, so 0 < p_w < 1")
P.relation(sp.Lt(pw, 1), "Algorithms 3-4 sample the w-block with probability p_w and the "
           "beta-block with p_beta = 1 - p_w; Lemma 15's Lcal = 2 max(Lcal^w/p_w, "
           "Lcal^beta/p_beta) needs both > 0, so 0 < p_w < 1")
P.relation(sp.Gt(rho, 0), "Algorithms 3-4 refresh the control-variate snapshot with "
           "probability rho; Theorems 8-9 divide by it, so 0 < rho <= 1")

# the target against the initial error: log(Delta0/eps) (the paper's log(1/eps))
P.relation(sp.Lt(eps, Delta0), "the counts multiply log(Delta0/eps), the paper's log(1/eps) "
           "with the initial error Delta0 = F(x^0) - F^* made explicit: they are stated for a "
           "target eps below Delta0 (log(1/eps) > 0); at eps >= Delta0 the initial point "
           "already meets the target and the formulas (negative, or n for a lower bound) do "
           "not apply")

# Eq. (54): a condition number
P.relation(sp.Ge(kap, 1), "Eq. (54): kappa = lambda_max(A)/lambda_min(A) >= 1")

# Lemma 7's weights w_k = (1 - eta mu)^(-k-1) >= 1 (0 < eta mu <= 1), k = 0..K
P.relation(sp.Ge(SumW, 1), "Lemma 7: each weight (1 - eta mu)^(-k-1) is >= 1 (0 <= eta mu < 1), "
           "so their sum over k = 0..K is >= 1")

# Proposition 1: the vectors u, v and the L-smooth f of (32)-(35)
P.relation(sp.Le(uv2, (sp.sqrt(u2) + sp.sqrt(v2)) ** 2), "Proposition 1 (35): the triangle "
           "inequality ||u - v|| <= ||u|| + ||v||")
P.relation(sp.Ge(uv2, (sp.sqrt(u2) - sp.sqrt(v2)) ** 2), "Proposition 1 (35): the triangle "
           "inequality ||u - v|| >= | ||u|| - ||v|| |")
P.relation(sp.Le(Df, L * dist2 / 2), "Proposition 1 (32): an L-smooth f has D_f(x, y) <= "
           "(L/2)||x - y||^2")

# non-convex LSGD-PFL (Assumptions 4-7, Lemmas 9-11)
P.relation(sp.Ge(G2avg, Gbar2), "Jensen's inequality (36): (1/M) sum_m ||grad f_m||^2 >= "
           "||(1/M) sum_m grad f_m||^2")
P.relation(sp.Le(G2avg, lam_dis * Gbar2 + s2dif), "Assumption 6 at theta^k: (1/M) sum_m "
           "||grad f_m||^2 <= lambda ||(1/M) sum_m grad f_m||^2 + sigma_dif^2")
P.relation(sp.Le((sp.sqrt(Ghat2) - sp.sqrt(Gbar2)) ** 2, L**2 * Vk), "Assumption 4 with "
           "Jensen's inequality: ||(1/M) sum_m (grad f_m(hat theta_m^k) - grad f_m(theta_m^k))"
           "||^2 <= L^2 V^k, so the two gradient norms differ by at most L sqrt(V^k)")
P.relation(sp.Le(mu * Fhat, (sp.sqrt(Gbar2) + L * sp.sqrt(Vk)) ** 2 / 2), "Assumption 7 at "
           "hat theta^k, mu ((1/M) sum_m f_m(hat theta_m^k) - f^*) <= (1/2)||(1/M) sum_m grad "
           "f_m(hat theta_m^k)||^2, with that norm at most ||(1/M) sum_m grad f_m(theta_m^k)|| "
           "+ L sqrt(V^k) (Assumption 4)")
