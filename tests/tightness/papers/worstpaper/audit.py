"""Audit declarations of the test paper: its worst-case searches."""

from pflbounds.tightness import Search, SearchCase, Simplex, Sphere, spectrum

_FREE = {"spectrum": spectrum(), "noise": Simplex("d", "sigma2"),
         "x0": Sphere("d", "sqrt(2*Delta0)")}
_FIXED = {"mu": 0.1, "L": 1.0, "eta": 1.0, "sigma2": 0.0, "Delta0": 1.0, "d": 2}

WORST_CASES = [
    SearchCase("worstpaper.rate", "printed", "quadratic_sgd_gap", fixed=_FIXED, free=_FREE,
               sweep={"K": [1, 4]}, title="the exact rate"),
    SearchCase("worstpaper.half_rate", "printed", "quadratic_sgd_gap", fixed=_FIXED,
               free=_FREE, sweep={"K": [4]}, search=Search(mode="optimize", budget=400),
               title="half the rate"),
]
