"""What the audits need to know about erickson2025 (read by :mod:`pflbounds.audit`).

``MUTANT_NOTES``: why mutants of a form survive its checks (quick grids, seed 2025), keyed by
``result:form``. Several forms are evaluated only beside an identity or a dimension check,
whose verdict does not read their value; the others are bounds that hold with room on every
instance the checks build.
"""

from pflbounds.papers.erickson2025.theory.convergence import THEOREM4_3_ETA38
from pflbounds.papers.erickson2025.theory.corollaries import COROLLARY_FLOOR
from pflbounds.papers.erickson2025.theory.dissimilarity import PROPOSITION3_4
from pflbounds.papers.erickson2025.theory.lemmas import LEMMA_A1, LEMMA_A2_4
from pflbounds.papers.erickson2025.theory.participation import ADMISSIBLE_S

MUTANT_NOTES = {
    f"{ADMISSIBLE_S.id}:corrected":
        "P12 reads only the smallest admissible integer s (n = 3, 30, 100: s = 2, 6, 10). "
        "The condition 4 L^2 eta^2 n (n + s)/s^4 + L eta <= 1 (eta = 3/(8L)) is 1.32 at "
        "s = 5 for n = 30 and 1.31 at s = 9 for n = 100; these mutants lower it there to "
        "1.12-1.27, still above 1 (at n = 3, s = 2 is the smallest s anyway), so the same s "
        "comes out. A comparison of the continuous threshold (the real s where the condition "
        "equals 1) with the recursion's would catch them.",
    f"{ADMISSIBLE_S.id}:printed":
        "P12's verdict reads the corrected s and the printed c_0, which it computes from the "
        "statement itself; the catalog's printed condition is only reported beside "
        "(s_printed): no mutant of it can move the verdict.",
    f"{LEMMA_A1.id}:printed":
        "P6 runs sigma = 0 (the sigma^2 term is 0 there: its mutants cannot show) and its "
        "random quadratic clients sit about 4000x below 2 L^2/(n s) ||theta - phi||^2 (L is "
        "the largest eigenvalue over the clients, the exact variance is (n - s)/(n^2 s) "
        "sum_i ||g_i(theta_i) - g_i(phi_i)||^2). Even on the tightest instance (H_i = L I) "
        "the bound is 2n/(n - s) times the variance, so halving its constant is never "
        "caught; isotropic clients would catch the 1/10 and exponent mutants.",
    f"{LEMMA_A2_4.id}:printed":
        "P7's smallest slack (right side minus f(u)) over its 40 quick samples is about "
        "0.26: delta <= 1e-2 (so delta x 1/2 or 1/10 moves the right side by at most 0.008), "
        "the L/2 coefficients move it by at most 0.15 (slack left >= 0.11), and halving "
        "<u - v, grad f - nu> leaves 0.037. Samples with small ||u - theta||, large "
        "||v - theta|| and delta near the slack would be needed.",
    f"{PROPOSITION3_4.id}:printed":
        "P8 holds (2) by a factor 6800 on the translation family (L_X = gamma (R + rho) is a "
        "worst-case Lipschitz constant, far above what the instances attain) and P8_ridge "
        "draws the bound beside its verdict: halving its constant reaches neither.",
    f"{COROLLARY_FLOOR.id}:corrected":
        "P5_dykstra holds by a factor 3.0e4 on its quick instance: the floor 128 L delta/3 + "
        "32 (s + 1) sigma^2/s is four decades above the measured floor, so halving it or "
        "dividing it by 10 keeps it above.",
    f"{THEOREM4_3_ETA38.id}:corrected":
        "Theorem 4.3's corrected bound holds with room on every check: P1 (sigma = 0, "
        "delta = 0, the Delta0/K term) by a factor 16.1 at K = 5, P4 (the sigma^2 floor) by "
        "5400, P5 (the delta floor) by 8400; P4_rescaled's corrected side holds with room "
        "and E_dimension reads only the units and the scaling (which these mutants keep). "
        "Instances that attain the worst cases of the proof (a sigma^2 floor within a small "
        "factor of 32 (s + 1)/s sigma^2) would be needed: the generic instances sit 3-4 "
        "decades below.",
    f"{THEOREM4_3_ETA38.id}:explicit":
        "P2 (the 3-client counterexample) is at K = 1, where K^-2 = K^-1, and its corrected "
        "side (the explicit form) holds by 7.5 (2/15): halving Delta0/K keeps it; the "
        "other checks that evaluate the form (E_dimension, P1, P4_rescaled) read units, "
        "scaling, or another form beside which it is drawn.",
    f"{THEOREM4_3_ETA38.id}:printed":
        "These mutants (of the delta and sigma^2 terms) are evaluated only by checks whose "
        "verdict does not read the printed value: E_dimension reads units and scaling (a "
        "mutant that keeps the printed form's dimensional error, the sigma^2 term without "
        "eta, passes it), and P4 and P5 draw the printed floor beside their corrected "
        "bound. P1_printed and P2 run sigma = delta = 0, so only the printed Delta0/K term "
        "is compared with a measurement.",
}
