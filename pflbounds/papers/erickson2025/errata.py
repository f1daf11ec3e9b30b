"""Errata of erickson2025 (digest §8), each linked to the check that demonstrates it.

``check_id`` is None where the erratum is a reading or a notational fix that no computation
of this package demonstrates yet; those are kept for the report.
"""

from __future__ import annotations

from pflbounds.symbolic.result import Erratum

_P = "erickson2025."

_E = [
    Erratum(
        _P + "erratum1", "Theorem 4.3 (constant)",
        "The statement's prefactor 8L/3 (= 1/eta at eta = 3/(8L)) does not follow from the "
        "proof, whose last line is 2/(eta (1 - 2 eta L)) = 64L/3 at eta = 3/(8L). The 3-client "
        "instance of digest §5.4 at K = 1 gives ||G_eta(theta^0)||^2 = 64/441 against "
        "(8L/3) Delta0 = 40/294: ratio 16/15.",
        "min_k E||G_eta(theta^k)||^2 <= (2/(eta (1 - 2 eta L))) (Delta0/K + eps), i.e. 64L/3 at "
        "eta = 3/(8L).",
        _P + "P2", "§8.1, §5.4", ("explicit", "corrected"),
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum2", "Theorem 4.3 proof, inner-product step (G1)",
        "The eta multiplying ||grad f - nu^k||^2 is dropped on the sigma^2 term: eps = "
        "4 sigma^2 (s + 1)/s + 2 delta adds [f]^2/[x]^2 to [f] (the printed and explicit forms "
        "fail the dimension check).",
        "eps = 4 eta sigma^2 (s + 1)/s + 2 delta.",
        _P + "E_dimension", "§8.2, §5.5 G1", ("corrected",), severity="substantive"),
    Erratum(
        _P + "erratum3", "Theorem 4.3 proof, Lyapunov weights (G2)",
        "The geometric series of c_k is summed with denominator r = (n^2 - s^2)/n^2 instead of "
        "1 - r = s^2/n^2, so sup_k c_k is 2 eta L^2 n/s^3, not 2 eta L^2 n/(s (n^2 - s^2)); the "
        "claimed range 2 <= s <= n - 1 is not established (n = 30 needs s >= 6).",
        "Condition L/2 - 1/(2 eta) + 2 eta L^2 n (n + s)/s^4 <= 0 (with G3), i.e. 10 s^4 >= "
        "9 n^2 + 9 n s at eta = 3/(8L). With the printed weights one Lyapunov step of the "
        "proof fails at n = 30, s = 2 (a searched state, exact over all 435 subsets).",
        _P + "P11_printed", "§8.3, §5.5 G2", ("corrected",),
        severity="proof", known="counterexample"),
    Erratum(
        _P + "erratum4", "Theorem 4.3 proof, split of E||theta^{k+1} - phi^{k+1}||^2 (G3)",
        "theta^{k+1} depends on S_k, but the split s/n, (n - s)/n treats them as independent.",
        "Coefficient 1 + n/s instead of n/s (Young with beta = s/n on i not in S_k); with G2 "
        "this gives the corrected condition.",
        _P + "P12", "§8.4, §5.5 G3", ("corrected",), severity="proof", known="text"),
    Erratum(
        _P + "erratum5", "Algorithm 1 (gradient-table scaling)",
        "g^0 carries 1/n, later table updates do not, and nu^k = g^k + (g^{k+1} - g^k)/s: "
        "read literally (Reading A) the estimator is biased, E nu_i = (1 - 1/n) g_i + "
        "G_i(theta_i)/n; the proof of Lemma A.1 needs Reading B.",
        "nu_i^k = y_i^k/n + 1[i in S_k] (G_i(theta_i^k) - y_i^k)/s with an unscaled table y.",
        _P + "E_reading_A", "§8.5, §4.2", severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum6", "Projection method",
        "How the projection is computed is deferred to supplemental material that is not in "
        "the paper's text: solver, tolerance, delta, feasibility handling unknown.",
        "pflbounds uses its own projections (exact by a conic solver; iterative ones with a "
        "feasibility shrink and delta_k measured a posteriori).", None, "§8.6", severity="proof"),
    Erratum(
        _P + "erratum7", "Definition of the delta-inexact projection",
        "As printed the right-hand side is min_{v in K} ||v - theta||^2 with theta = "
        "Pi^delta(vartheta) in K, which is 0: no feasible point qualifies when "
        "dist(vartheta, K)^2 > 2 eta delta.",
        "min_{v in K} ||v - vartheta||^2, as used in the proof (eq. (7)).",
        _P + "E_inexact_definition", "§8.7, §4.3", severity="notation", known="counterexample"),
    Erratum(
        _P + "erratum8", "D_ij (LOT embedding)",
        "'||.||_1' of an N_0 x d matrix with a 1/sqrt(N_0) scaling is ambiguous; W_1 plans are "
        "not unique, so D_ij depends on the solver; D is a pseudo-metric on data sets (different "
        "data sets can share an embedding), not a metric.",
        "Literal reading sum |M_i - M_j|/sqrt(N_0), or the W_1-consistent (1/N_0) sum_r "
        "||M_i[r] - M_j[r]||_2 with monotone plans in 1-D.", _P + "P9_lp", "§8.8, §3.6",
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum9", "Notation (§2, Prop. 3.4 proof, Theorem 4.3)",
        "'N clients' for n clients; the proof of Prop. 3.4 writes mu for gamma; theta^* means "
        "the ideal local models and the minimiser over K.",
        "Read n, gamma, and f(theta^*) = inf_K f in Theorem 4.3.", None, "§8.9-§8.11",
        severity="notation"),
    Erratum(
        _P + "erratum10", "Typos 12-16 of digest §8",
        "G_eta has an unbalanced parenthesis and '/alpha' for '/eta'; Lemma A.2 'with any "
        "alpha > 0' (unused); the Lemma A.2 intermediate swaps the signs of ||u - theta||^2 and "
        "||v - theta||^2 (the final (4) is right); (10) writes ||theta^{k+1} - vartheta^{k+1}||"
        "^2 for ||theta_bar^{k+1} - vartheta^{k+1}||^2; the Lyapunov step drops eta^2 and then "
        "writes eta.",
        "G_eta(theta) = (theta - Pi_K(theta - eta grad f(theta)))/eta; the corrected signs; "
        "eta^2 (L - 1/(2 eta)) on ||G_eta||^2.", None, "§8.12-§8.16", severity="typo"),
    Erratum(
        _P + "erratum11", "Gaps and underspecification (digest §8.17-§8.27)",
        "E f(theta^K) written f(theta^K); f is (L/n)-smooth so eta = 3/(8L) is conservative by "
        "about n; output iterate unspecified; no result links D_ij to W_1(mu_i, mu_j); the "
        "O(N^{-1/d}) versus O(d/N) comparison is heuristic; experiments underspecified.",
        "Documented; the checks use min_k (or the average) of E||G_eta||^2.", None,
        "§8.17-§8.27", severity="proof"),
]

ERRATA: dict[str, Erratum] = {e.id.split(".", 1)[1]: e for e in _E}
