"""Errata of scott2024 (digest §7), each linked to the check that demonstrates it.

Ids follow the template: ``scott2024.erratum<N>``, N the item of the digest's §7 counted in
its order, which labels its items by letter: C1-C14 are items 1-14, P1-P9 items 15-23, G1-G2
items 24-25 (so the digest's C5 is erratum5, its P3 erratum17, its G1 erratum24); each
erratum's ``digest`` field keeps the digest's own label (``"§7 C5"``).

``check_id`` is None where the erratum is notational (an index, a norm, a cited line) and no
computation of this package can demonstrate it; those are kept for the report.
"""

from __future__ import annotations

from pflbounds.symbolic.result import Erratum

_P = "scott2024."

_E = [
    Erratum(
        _P + "erratum1", "Algorithm 2, lines 17-18 (regularizer step)",
        "Algorithm 2 steps the server regularizer by beta, (1 - 2 beta lam) eta; the proof's "
        "update (71)/(83) uses beta k grad f, and the cancellation (75) -> (78) of Lemma C.4 "
        "needs it. With Algorithm 2's step, Lemma C.4 fails for k >= 2 (exact, population D "
        "with lam > 0: E<grad F, eta_{t+1} - eta_t> = -beta ||grad f||^2 against -(3 beta k/4) "
        "||grad F||^2 + ...).",
        "Step the regularizer by beta k (the proof's algorithm), or add beta (k - 1) <grad F, "
        "grad f> to Lemma C.4's right-hand side for Algorithm 2.",
        _P + "E_C1_lemmaC4", "§7 C1, §3.4", ("alg2",),
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum2", "Lemmas C.3-C.5, Theorem 3.1 (97)-(98), (113)-(116)",
        "sigma_2^2 and sigma_3^2 lose the /b of Assumption A4 (34)-(35): the appendix floor "
        "8 b1^2 sigma_2^2 + 14 L1^2 b2^2 sigma_3^2 does not fall with the batch size b and "
        "does not vanish for b -> infinity, unlike the main text's (2).",
        "sigma_2^2 -> sigma_2^2/b and sigma_3^2 -> sigma_3^2/b (as in (2)).",
        _P + "E_algebra", "§7 C2", ("corrected", "explicit"), severity="proof"),
    Erratum(
        _P + "erratum3", "Lemma C.3 statement (53), (55)",
        "The local iterate is written h(B_i, eta_t) - sum_j g without the step beta (proof "
        "(56) onward has -beta sum_j g): a parameter minus a gradient, [x] - [f]/[x].",
        "h(B_i, eta_t) - beta sum_j g_{t,i,j}.",
        _P + "E_dimension", "§7 C3", ("corrected",), severity="notation"),
    Erratum(
        _P + "erratum4", "Theorem 3.1: main text (2), appendix (97)-(98), proof's last line "
        "(115)-(116)",
        "The three printed forms disagree on the sigma_1^2/gamma_G^2 term (L(6, 4), 4L(2, 1), "
        "L(6, 4)); substituting beta = 2 sqrt(c)/(k sqrt(T)) in the paper's own (113)-(114) "
        "gives L(12 sigma_1^2 + 8 k gamma_G^2)/(k sqrt(cT)): the main text is exactly half. "
        "Exact on population D (b2^2 = 9, T = 2e6, step conditions satisfied): the average "
        "E||grad F||^2 is 1.47x the main text's bound and 1.11x (97)'s.",
        "Use (113)-(114) at beta = 2 sqrt(c)/(k sqrt(T)) (form 'rederived').",
        _P + "E_C4_theorem3_1_main", "§7 C4, §4.1.8", ("explicit", "rederived"),
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum5", "Lemma C.5 (81)-(82), first term; Theorem 3.1's sigma_1^2 term",
        "The local-SGD noise enters eta_{t+1} - eta_t through the Jacobian (norm up to b2), "
        "but the bound has 4 beta^2 k sigma_1^2/c without b2^2. Exact on population D "
        "(beta = 0.01, b2^2 = 9, at the optimum): E||eta_{t+1} - eta_t||^2 = 9 beta^2 against "
        "4.19 beta^2 (ratio 2.15). Theorem 3.1 inherits it: at b2^2 = 16, T = 4e6 even the "
        "proof's own (113)-(114) is violated (1.33x).",
        "4 beta^2 k b2^2 sigma_1^2/c in Lemma C.5, hence 6 L beta b2^2 sigma_1^2/c in "
        "(113)-(114) (form 'corrected'); the step condition (e) that absorbs the sigma_1^2 "
        "terms then reads c (27 L1^2 beta k^2 + 56 L L1^2 beta^2 k^3) <= L, b2^2 cancelled "
        "(E_algebra, claim C5e).",
        _P + "E_C5_lemmaC5", "§7 C5, §4.1.5", ("corrected",),
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum6", "Proof of Theorem 3.1 (103)-(108)",
        "(L/2) 108 = 54 is printed as 56; (106) writes L beta^2 k/c sigma_1^2 and L beta^2 k^2/c "
        "gamma_G^2 where (102) gives 2 L beta^2 k/c and 2 L beta^2 k^2/c. Harmless "
        "over-/under-statements that (108) undoes.",
        "54 (56 kept: an over-estimate); 2 L beta^2 k/c.",
        _P + "E_algebra", "§7 C6", severity="typo"),
    Erratum(
        _P + "erratum7", "Theorem 3.1 (hidden step-size conditions)",
        "The 'simplifying terms' step (107)-(110) needs beta <= 1/(56 L k) and c (27 L1^2 b2^2 "
        "beta k^2 + 56 L L1^2 b2^2 beta^2 k^3) <= L (b2^2 cancels once erratum5 is fixed); with "
        "beta = 2 sqrt(c)/(k sqrt(T)) this is T >= max(12544 L^2 c, ((B + sqrt(B^2 + 4 A "
        "L))/(2 L))^2), A = 224 w L L1^2 k c^2, B = 54 w L1^2 k c^(3/2), w = b2^2 (1 with "
        "erratum5 fixed); max(12544 L^2 c, 3136 L1^4 b2^4 k^2 c^3/L^2) is sufficient, not the "
        "smallest (L = 2, L1 = b2 = 1, k = 10, c = 20: 5.85e8 against 6.27e8). The statement "
        "omits them.",
        "State them (side conditions of the explicit, rederived and corrected forms; T_min "
        "in theorem3_1_T_min).",
        _P + "E_algebra", "§7 C7, §4.1.7", ("corrected", "explicit", "rederived"),
        severity="proof"),
    Erratum(
        _P + "erratum8", "Proof of Lemma C.4 (71) (local-step index)",
        "g_{t,i,l} is summed over l = 1..k while grad f_i is evaluated at h(B) - beta "
        "sum_{j=0}^{l-1} g_{t,i,j} (an index 0); the text also says 'local step l'.",
        "theta_{i,l-1} = theta_{i,0} - beta sum_{j=1}^{l-1} g_{t,i,j}, the reading the exact "
        "model of population D implements (Lemma C.4 then holds with the proof's step).",
        _P + "P6_lemmaC4_proof_step", "§7 C8", severity="notation", known="text"),
    Erratum(
        _P + "erratum9", "Proof of Theorem 3.1 (telescoping range)",
        "The sum telescopes over t = 0..T-1 but the theorem averages over t = 1..T.",
        "Average over t = 0..T-1 (population D records both; from the optimum the t = 1..T "
        "average is the larger one and is the one compared).",
        _P + "E_C4_theorem3_1_main", "§7 C9", severity="proof", known="text"),
    Erratum(
        _P + "erratum10", "Assumption A1 (norm of the Jacobian)",
        "'||grad_eta h|| <= b2' does not say which matrix norm; the operator norm is the "
        "natural reading, Frobenius an upper bound.",
        "Operator norm (population D: |v| exactly).", None, "§7 C10", severity="notation"),
    Erratum(
        _P + "erratum11", "Assumption A1 (global boundedness)",
        "Bounded gradients and Jacobians fail globally for quadratic losses, lam_theta > 0 and "
        "any bilinear or multilayer h; only local constants exist.",
        "Constants measured on the trajectory: the theorem is an a-posteriori statement "
        "(population D uses a Huber loss so that b1 = 1 holds globally).", None, "§7 C11",
        severity="proof"),
    Erratum(
        _P + "erratum13", "Lemma C.2",
        "'E[a_i] <= a' should be ||E a_i|| <= a; (45)'s left side is printed centred but "
        "(50)-(52) bound the uncentred E||sum_{i in C} a_i||^2.",
        "||E a_i|| <= a and the uncentred left side.", _P + "P7_lemmaC2", "§7 C13",
        severity="notation", known="text"),
    Erratum(
        _P + "erratum15", "Proof of Theorem B.1, Part I (sign of Delta_i)",
        "Delta_i(h) is defined as empirical minus expected loss, but er~ - er^ = E_A (1/n) "
        "sum_i Delta_i needs expected minus empirical (Hoeffding is symmetric, the result "
        "stands).",
        "Delta_i = E_{D_i} l - empirical.", _P + "P9_part1", "§7 P1",
        severity="proof", known="text"),
    Erratum(
        _P + "erratum16", "Proof of Theorem B.1, Part I (lambda*)",
        "lambda* = sqrt(8mn (sum KL + log(8mn/delta)) + 1) puts the +1 inside the root; the "
        "derivation works with lambda* = sqrt(8 m n K) + 1, for which Gamma(lambda*) = "
        "sqrt(K/(2mn)) + 1/(8mn) <= sqrt((K + 1)/(2mn)).",
        "lambda* = sqrt(8 m n K) + 1 (both readings satisfy the final inequality).",
        _P + "E_P2_gamma", "§7 P2", ("corrected",), severity="typo"),
    Erratum(
        _P + "erratum17", "App. B, Theorem 3.2's KL terms",
        "The appendix writes D_KL(Q, P) = alpha_h ||eta_h||^2 + alpha_v ||eta_v||^2 and "
        "D_KL(Q_i, P) = alpha_theta ||theta||^2; for variance-alpha Gaussians the KL is "
        "||mu||^2/(2 alpha) (a number; alpha ||mu||^2 carries [x]^4 and fails the dimension "
        "check). Monte Carlo confirms ||mu||^2/(2 alpha). The meta-prior is never stated.",
        "||eta_h||^2/(2 alpha_h) + ||eta_v||^2/(2 alpha_v) and ||theta||^2/(2 alpha_theta), "
        "meta-prior N(0, alpha_h Id) x N(0, alpha_v Id) (what (3) prints).",
        _P + "E_P3_kl", "§7 P3", ("corrected", "printed"),
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum18", "Theorem 3.2 (3): the losses",
        "The losses of (3) are at the deterministic theta = h(v(S; eta_v~); eta_h~), but the "
        "KL is that of Q = N(theta, alpha_theta Id) and Theorem B.1 bounds E_{theta~ ~ Q} l: a "
        "deterministic theta has infinite KL against the Gaussian prior.",
        "Evaluate both losses at theta~ ~ N(theta, alpha_theta Id) (P8 does).",
        _P + "P8", "§7 P4", ("corrected",), severity="substantive", known="text"),
    Erratum(
        _P + "erratum19", "Theorem 3.2 / B.1 (loss range, delta)",
        "Theorem 3.2 does not state l in [0, 1] (inherited from B.1 with M = 1; cross-entropy "
        "is unbounded); B.1 says delta >= 0 where delta in (0, 1] is meant.",
        "0-1 (or clipped) loss; delta in (0, 1].", _P + "P8", "§7 P5",
        severity="substantive", known="text"),
    Erratum(
        _P + "erratum20", "Theorem B.1 Part II (sample-size conditions)",
        "Maurer's bound needs n >= 8; all |S_i| = m is assumed though the experiments have "
        "unequal m_i.", "n >= 8 as a side condition (corrected form).", _P + "P9_part2",
        "§7 P6", ("corrected",), severity="proof", known="text"),
    Erratum(
        _P + "erratum21", "Theorem 3.2 discussion (the sample-level term)",
        "The sample-level term does not vanish in n: sum_i KL grows like n, so it tends to "
        "sqrt(avg ||theta||^2/(4 alpha_theta m)); 'log(nm)/(nm)' only concerns the log term.",
        "Read it as O(m^(-1/2)) in the per-client complexity.", _P + "P10", "§7 P7",
        severity="substantive"),
    Erratum(
        _P + "erratum22", "Theorem 3.2 (choice of alpha)",
        "alpha_h, alpha_v, alpha_theta must be fixed before seeing the data; optimizing them "
        "needs a union bound over a grid, which the paper does not discuss.",
        "A data-independent grid G and delta/|G| in both log terms (form 'corrected').",
        _P + "P8", "§7 P8", ("corrected",), severity="proof", known="text"),
    Erratum(
        _P + "erratum23", "Theorem 3.2 (batch descriptors)",
        "The theorem uses v(S_i) from the whole S_i while training and prediction use a batch "
        "B; the batch case is covered only if A(S) includes the batch choice.",
        "Full-data descriptors in the bound (P8 uses them).", _P + "P8", "§7 P9",
        severity="proof", known="text"),
    Erratum(
        _P + "erratum24", "Objective (1) against App. C's F",
        "(1) sums over clients, App. C's F averages: the regularizer weights differ by a "
        "factor n.", "The App. C average for every convergence statement.", None, "§7 G1",
        severity="notation"),
]

ERRATA = {e.id.removeprefix(_P): e for e in _E}
"""Errata by short key (``"erratum1"``, ``"erratum17"``, ...)."""
