"""What the audits need to know about even2022 (read by :mod:`pflbounds.audit`).

``TIGHTNESS``: Theorem 2 with sigma = 0 and B = 0 is gradient descent with a constant step on
an L-smooth mu-strongly convex function (every agent runs plain GD: the noise and the bias
vanish, whatever the weights); PEPit gives its exact worst case of f(x_K) - f* under
f(x_0) - f* <= Delta0. The explicit form holds for any eta <= 1/L; the printed, proof and
corrected forms are stated for the step of Eq. (6), which is 1/(2L) when sigma = 0. The
points are P1's steps (eta L in {1, 1/2, 1/10}) on its most ill-conditioned instances
(L/mu = 20), where the worst case at K = 50 stays well above the SDP's accuracy.

``MUTANT_NOTES``: why mutants of a form survive the checks, keyed by ``result:form``.
"""

from pflbounds.audit.tightness import TightnessCase

TIGHTNESS = [
    TightnessCase(
        "even2022.theorem2",
        forms={"explicit": None, "printed": "even2022.eq6", "proof": "even2022.eq6",
               "corrected": "even2022.eq6"},
        fixed={"sigma2": 0.0, "B": 0.0, "V": 1.0},
        points=({"mu": 1.0, "L": 20.0, "eta": 1 / 20}, {"mu": 1.0, "L": 20.0, "eta": 1 / 40},
                {"mu": 1.0, "L": 20.0, "eta": 1 / 200}),
        title="Theorem 2 with sigma = 0 and B = 0: gradient descent on L-smooth mu-strongly "
              "convex functions, f(x_K) - f* against f(x_0) - f* = Delta0 = 1",
    ),
]
