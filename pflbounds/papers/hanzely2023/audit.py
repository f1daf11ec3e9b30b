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

_FIXED = {"Lw": 1.0, "Lb": 1.0, "M": 1.0, "tau": 1.0, "B": 1.0, "sigma2": 0.0, "zeta2": 0.0}
_POINTS = tuple({"mu": mu, "L": 1.0, "eta": eta} for mu in (0.05, 0.2) for eta in (0.25, 0.125))
_TITLE = ("Theorem 5 with M = 1, tau = 1, sigma = 0: gradient descent on an L-smooth "
          "mu-strongly convex F, f at the weighted average of x_0..x_K against "
          "||x_0 - x*||^2 = 1")

TIGHTNESS = [
    TightnessCase("hanzely2023.theorem5", forms={"corrected": None},
                  fixed={**_FIXED, "Db0": 0.0}, points=_POINTS, initial="Dw0",
                  initial_condition="distance", measure="weighted_average",
                  title=_TITLE + " (on w)"),
    TightnessCase("hanzely2023.theorem5", forms={"printed": None},
                  fixed={**_FIXED, "Dw0": 0.0}, points=_POINTS, initial="Db0",
                  initial_condition="distance", measure="weighted_average",
                  title=_TITLE + " (on beta, where the printed Phi^0 is smallest)"),
]
