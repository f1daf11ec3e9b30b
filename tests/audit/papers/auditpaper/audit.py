"""Audit declarations of the test paper: a tightness case and a survivor note."""

from pflbounds.audit.tightness import TightnessCase

TIGHTNESS = [
    TightnessCase("auditpaper.tight", forms={"printed": None}, fixed={},
                  points=({"mu": 0.25, "L": 1.0, "eta": 0.5},), horizons=(1, 2, 3),
                  title="exact rate of gradient descent"),
    TightnessCase("auditpaper.wrong", forms={"printed": None, "corrected": None}, fixed={},
                  points=({"mu": 0.25, "L": 1.0, "eta": 0.5},), horizons=(2,),
                  title="a planted wrong rate"),
]
MUTANT_NOTES = {"auditpaper.loose:printed": "Lemma 2 is loose by a factor 2 on purpose."}
