"""What the audits need to know about philippenko2025 (read by :mod:`pflbounds.audit`).

``MUTANT_NOTES``: why mutants of a form survive its checks (quick grids, seed 2025), keyed by
``result:form``. The exact engine gives E[eps_T] without sampling error, so a survivor is a
bound that holds by more than the mutant's factor on every instance the checks build.
"""

from pflbounds.papers.philippenko2025.theory.descent import THEOREM1
from pflbounds.papers.philippenko2025.theory.nonconvex import THEOREM3
from pflbounds.papers.philippenko2025.theory.rates import (
    THEOREM2_CONSTANT,
    THEOREM2_DECREASING,
    THEOREM2_HORIZON,
)
from pflbounds.papers.philippenko2025.theory.sample_complexity import COROLLARY1

MUTANT_NOTES = {
    f"{COROLLARY1.id}:corrected":
        "P10's tightest point for the noise term (continuous criterion, sigma^2 = 1000, eps "
        "= 0.01) holds by a factor 3.0: Theorem 2's constant C^2 beta sigma^2/(2 mu^2 "
        "(C - 1)) is (2C - 1)/(C - 1) = 3 times the exact asymptote C^2 sigma^2/(2 a n "
        "(2C - 1)) at C = 2 (P9_asymptote), and more than 2 times it for every C: a count "
        "with half that constant (1/2 -> 1/4, C - 1 -> C, or the whole count halved) is "
        "never below an exact run (1.5 here). Dropping the 1 of eps0 (gamma0 + 1) lowers "
        "the eps0 term by 1/(gamma0 + 1), 2.5% at gamma0 = 39, inside P10's factor 5 where "
        "that term binds. E10 reads the printed side.",
    f"{THEOREM1.id}:corrected":
        "P5 (exact) holds by 1.67 where its bias term binds, and halving the variance term "
        "S_eff beta eta^2/2 leaves 1.60; P3 compares E[bound - eps^T] >= 0 per replica, "
        "whose margin halves (0.74 to 0.37) but stays positive.",
    f"{THEOREM2_CONSTANT.id}:printed":
        "P4_bound holds by 1.11 where the bias term (1 - eta mu)^T eps0 binds (early T); "
        "on its plateau the variance term beta eta sigma_suf^2/(2 mu) holds with more room, "
        "so halving it leaves the margin at 1.11.",
    f"{THEOREM2_DECREASING.id}:corrected":
        "P9's tight point (continuous criterion, gamma0 = 39) holds by 1.08 at T = 1 in the "
        "eps0 term (gamma0 + 1) eps0/(T + gamma0 + 1); dropping the 1 (gamma0 eps0) lowers "
        "it by 1/(gamma0 + 1) = 2.5%, leaving 1.05.",
    f"{THEOREM2_HORIZON.id}:corrected":
        "P9_horizon holds by 4.12 on its quick point (binary criterion: sigma_suf^2 = "
        "sigma^2/(n lambda) is twice the cluster's variance) and by 2.15 on the full grid's "
        "continuous point; halving the bound or its logarithm (x 1/2, /e, 2 -> 1 or 1/5 "
        "inside it) lowers it by at most 2 (4.12 -> 2.06). A horizon-dependent step tuned to "
        "the true variance and a continuous point in the quick grid would be needed to "
        "catch halvings.",
    f"{THEOREM3.id}:corrected":
        "P15 holds by 1.56 on its non-convex instance, where the 2 eps0/(T eta) term "
        "dominates: the variance term beta eta sigma_eff^2 halved or divided by 10 leaves "
        "1.47 and 1.14.",
    f"{THEOREM3.id}:printed":
        "P15_printed holds by 2.24: the printed rate with 2 -> 1 in its constant still "
        "holds (1.12).",
}
