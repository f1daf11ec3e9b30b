"""What the audits need to know about hanzely2023 (read by :mod:`pflbounds.audit`).

``TIGHTNESS``: Theorem 5 with one client (M = 1, so zeta_* = 0), tau = 1 and no noise
(sigma = 0) is gradient descent with the constant step eta on F, a function that is L-smooth
in (w, beta) jointly (hence L^w = L^beta = L blockwise) and mu-strongly convex; its output is
the (1 - eta mu)^(-k-1)-weighted average of the iterates and its bound is (1 - eta mu)^K
Phi^0 with Phi^0 built from ||x^0 - x^*||^2. PEPit gives the exact worst case of that
average over L-smooth mu-strongly convex functions with ||x^0 - x^*||^2 <= 1, a subclass of
Theorem 5's (one client, blockwise constants equal): a bound below it would be false, and
bound/worst case says how much Theorem 5 gives away. The corrected form puts the 2 on the
whole distance; the printed form (2 ||w^0 - w^*||^2 + sum_m ||beta_m^0 - beta_m^*||^2)/eta
is compared with the whole distance on beta (the class is rotation invariant, so the worst
case is the same), where it is smallest. Steps: the largest of Theorem 5, 1/(4L), and half of
it; mu/L in {0.05, 0.2}.

ACD-PFL and SCD-PFL (randomized block coordinate methods) have no worst case in the modelled
methods: their theorems bound expectations over the block draws.
"""

from pflbounds.audit.tightness import TightnessCase
from pflbounds.papers.hanzely2023.theory.asvrcd import THEOREM9
from pflbounds.papers.hanzely2023.theory.lower import EQ54
from pflbounds.papers.hanzely2023.theory.lsgd import THEOREM5
from pflbounds.papers.hanzely2023.theory.nonconvex import LEMMA14, THEOREM3, THEOREM4

_FIXED = {"Lw": 1.0, "Lb": 1.0, "M": 1.0, "tau": 1.0, "B": 1.0, "sigma2": 0.0, "zeta2": 0.0}
_POINTS = tuple({"mu": mu, "L": 1.0, "eta": eta} for mu in (0.05, 0.2) for eta in (0.25, 0.125))
_TITLE = ("Theorem 5 with M = 1, tau = 1, sigma = 0: gradient descent on an L-smooth "
          "mu-strongly convex F, f at the weighted average of x_0..x_K against "
          "||x_0 - x*||^2 = 1")

TIGHTNESS = [
    TightnessCase(THEOREM5.id, forms={"corrected": None},
                  fixed={**_FIXED, "Db0": 0.0}, points=_POINTS, initial="Dw0",
                  initial_condition="distance", measure="weighted_average",
                  title=_TITLE + " (on w)"),
    TightnessCase(THEOREM5.id, forms={"printed": None},
                  fixed={**_FIXED, "Dw0": 0.0}, points=_POINTS, initial="Db0",
                  initial_condition="distance", measure="weighted_average",
                  title=_TITLE + " (on beta, where the printed Phi^0 is smallest)"),
]

MUTANT_NOTES = {
    f"{EQ54.id}:printed":
        "Eq. (54) is a lower bound for every method, and ACD-PFL is not an optimal one: on "
        "P3's quick instance (kappa = 100, d = 40) its E||x^k - x*||^2 stays at least 1.37 "
        "times the bound (at k = 1, then 1.8, 2.5, ... as it falls behind the optimal rate), "
        "1.10 on the full grid's kappa = 1000. These mutants raise the bound at k = 1 by "
        "(sqrt(kappa) + 1)/(sqrt(kappa) - 1) = 1.22 (exponent 2K - 1, K), (1 + 1/sqrt(kappa))^2 "
        "= 1.21 (drop 1) or (1 - 1/sqrt(kappa))^-2 = 1.23 (drop -1): still below the measured "
        "(1.065 against 1.10 at kappa = 1000). Only a method that attains the lower bound "
        "could catch them.",
    f"{THEOREM5.id}:corrected":
        "Theorem 5 is loose on every instance the checks can build: P4's closest point holds "
        "by a factor 62 (at K = 1, where Phi^0/eta = 2 ||x^0 - x*||^2/eta with eta <= "
        "1/(4L) is at least 16 times F(x^0) - F^*), and its noise floor (the variance "
        "terms) is 17 (MX2, tau = 1) to 3200 (MT2, tau = 2) times the exact floor of "
        "LSGD-PFL (measured by the exact propagator up to K = 15515, sigma^2 = 1): halving "
        "or dividing a term by 10 keeps the bound above. P5 runs identical clients without "
        "noise (zeta_* = sigma = 0), where the variance terms vanish: their mutants leave "
        "its counts unchanged.",
    f"{THEOREM5.id}:printed":
        "P4_printed holds by a factor 40 (the printed Phi^0 puts the 2 on w only); its "
        "variance terms are those of the corrected form, loose by the same factors 17-3200 "
        "(see theorem5:corrected).",
    f"{THEOREM3.id}:printed":
        "P11_theorem3 (exact gradients, C_1 = C_2 = sigma = 0) holds by a factor 9.4 on its "
        "quick point (at K = 4): halving a term or dividing it by 10 keeps the bound above "
        "the measured average of ||grad||^2; its noise terms are 0 there.",
    f"{THEOREM4.id}:printed":
        "P11_theorem4 is tight (factor 1.02) only at its first multiple of tau (K = 5), where "
        "the initial term Delta0 ((beta tau + 1)/(K + beta tau))^3 is the whole bound: with "
        "Theorem 4's lower limit on beta (beta = 985 at the trajectory's PL constant mu = "
        "0.099), K + beta tau is about 4900 and the two variance terms are 1e-5 of it (8e-6 "
        "and 3e-5 relative), and still below 1e-3 at the horizon K = 500, where the bound "
        "holds by 2.0. Mutants of the variance terms, and those that move the initial term "
        "by less than 2% (drop the 1 of beta tau + 1), cannot show. A horizon K >> beta tau "
        "(about 1e5 steps) or an instance with mu close to L (a small beta) would be needed.",
    LEMMA14.id:
        "P11_theorem4 evaluates this expression as Theorem 4's own condition on tau (the same "
        "formula), not through Lemma 14: substituting Lemma 14 does not reach it.",
    f"{THEOREM9.id}:corrected":
        "Iterations: P7 asks where Theorem 9's counts are smallest over p_w (Theorem 8's "
        "p*), and scaling every count by 1/2 or 1/10 or dropping 1/rho keeps p* the "
        "minimiser; P6_n and P6_grads read the communication and gradient parts, not the "
        "iteration count. Communication and gradient parts: dropping the 1 or the -p_w of "
        "max(Lcal^beta/(1 - p_w), Lcal^w/p_w) changes nothing at Theorem 8's p_w (both "
        "branches equal Lcal^w + Lcal^beta there), which is where P6_n and P6_grads run; on "
        "P7's grid the communication count with rho = p_w/n then becomes flat in p_w, a tie "
        "that P7 accepts. Dropping rho from p_w + rho lowers the rounds by 1/(1 + 1/n) = "
        "0.95 at n = 20, inside P6_n's factor 1.19. On P6's instance p_w = 0.135 and rho n "
        "= p_w, so dropping rho n (or its n) from 2 p_beta + rho n lowers the beta count by "
        "7%, inside P6_grads' factor 1.28 for beta.",
}
