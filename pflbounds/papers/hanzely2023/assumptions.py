"""Assumptions 1-7 of hanzely2023 (digest §2) and the algorithm class of the lower bound."""

from __future__ import annotations

from pflbounds.papers.hanzely2023.paper import P

A1 = P.assumption(
    "A1", "Blockwise smoothness and joint strong convexity",
    "F(w, beta) = (1/M) sum_m f_m(w, beta_m) is jointly mu-strongly convex (mu >= 0; unique "
    "solution when mu = 0); each f_m is jointly convex, L^w-smooth in w and (M L^beta)-smooth "
    "in beta_m.", ("mu", "Lw", "Lb"))
A2 = P.assumption(
    "A2", "Finite-sum smoothness",
    "f_m = (1/n) sum_i f_{m,i}; each f_{m,i} is jointly convex, Lcal^w-smooth in w and "
    "(M Lcal^beta)-smooth in beta_m.", ("Lcw", "Lcb", "n"))
A3 = P.assumption(
    "A3", "Stochastic gradients (LSGD-PFL)",
    "Unbiased stochastic gradients in w and beta with E||g_w - grad_w f_m||^2 <= sigma^2 and "
    "E sum_m ||g_beta,m - grad_beta f_m||^2 <= M sigma^2 (one sample; a B-minibatch has "
    "sigma^2/B).", ("sigma2",))
A4 = P.assumption(
    "A4", "Joint smoothness (non-convex LSGD)",
    "Each f_m is differentiable and L-smooth in (w, beta_m).", ("L",))
A5 = P.assumption(
    "A5", "Relative and additive noise",
    "E||g_w - grad_w f_m||^2 <= C_1 ||grad_w f_m||^2 + sigma_1^2/B and "
    "E||g_beta - grad_beta f_m||^2 <= C_2 ||grad_beta f_m||^2 + sigma_2^2/B.",
    ("C1", "C2", "s1sq", "s2sq"))
A6 = P.assumption(
    "A6", "Bounded dissimilarity",
    "(1/M) sum_m ||grad f_m(w, beta_m)||^2 <= lambda ||(1/M) sum_m grad f_m(w, beta_m)||^2 + "
    "sigma_dif^2 (the sum adds beta-gradients of different clients: equal d_m needed).",
    ("lam_dis", "s2dif"))
A7 = P.assumption(
    "A7", "Polyak-Lojasiewicz",
    "(1/2) ||(1/M) sum_m grad f_m(w, beta_m)||^2 >= mu ((1/M) sum_m f_m(w, beta_m) - f^*).",
    ("mu",))
ACLASS = P.assumption(
    "Aclass", "Span algorithm class A (Theorem 6)",
    "Iterates lie in the span of past oracle outputs; each step returns grad_w f_{m,i} on every "
    "device for a random i, or grad_beta f_{m,i}, or communicates (averages the w_m).", ())
OBJ = P.assumption(
    "Obj", "Base losses (Section 2)",
    "Client losses f'_m are mu'-strongly convex and L'-smooth, f'_m = (1/n) sum_j f'_{m,j} "
    "with convex, Lcal'-smooth components.", ("mup", "Lp", "Lcp"))
