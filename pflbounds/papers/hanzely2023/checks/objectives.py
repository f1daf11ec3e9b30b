"""Checks of the objectives' constants (Section 2): P8 (digest §7), the constants of Lemmas
1-4 against Hessians of random quadratic instances, the errata of Table 2 (MT2 denominators,
APFL2 mu, WS2 normalisation), and P9, the M^{-1/2} rescaling of w (ACD-PFL's rounds with and
without it, exact).

Measured: (1/mu, L^w, L^beta, Lcal^w, Lcal^beta) certified from the instance's Hessians
(exact for least squares); bound: the catalogue's formulas at the instance's base constants.
mu enters as 1/mu, so that every entry is 'measured <= bound'.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.papers.hanzely2023.checks.common import ISO, P, instance, simulate_comm
from pflbounds.papers.hanzely2023.instances import base_values, encoded
from pflbounds.papers.hanzely2023.theory.objectives import (
    LEMMA1,
    LEMMA3,
    NAMES,
    TABLE2_MT2,
    TABLE2_WS2,
    UNRESCALED,
    apfl_g,
)
from pflbounds.reporting.figure_specs import Plot

_AL = [0.05, 0.1, 0.2, 0.3, 0.45]
CONSTANTS = ("1/mu", "L^w", "L^beta", "Lcal^w", "Lcal^beta")
"""The recorded entries, in order (the categories of the figures)."""
_LABELS = {"xlabel": "constant", "ylabel": "value of the constant"}


def _vector(c: Mapping[str, float]) -> np.ndarray:
    return np.array([1 / c["mu"], *(c[k] for k in NAMES[1:])])


def simulate_constants(p: Mapping[str, Any], R: int, seed) -> dict:
    """Certified constants of the instance against the encoded ones (best reading, or Table 2
    as printed with ``p["printed"]``)."""
    obj = instance(p)
    vals = base_values(obj, p["objective"])
    enc = encoded(p["objective"], vals, printed=p.get("printed", False))
    return {"ks": np.arange(5.0), "mean": _vector(obj.constants), "bound": _vector(enc)}


def simulate_erratum(p: Mapping[str, Any], R: int, seed) -> dict:
    obj = instance(p)
    vals = base_values(obj, p["objective"])
    return {"ks": np.arange(5.0), "mean": _vector(obj.constants),
            "bound_printed": _vector(encoded(p["objective"], vals, printed=True)),
            "bound_corrected": _vector(encoded(p["objective"], vals))}


def _grid(full: bool) -> list[dict]:
    seeds = range(3) if full else range(1)
    out = []
    for s in seeds:
        base = {"instance": s, "M": 6, "d": 3, "n": 8}
        out += [{**base, "objective": "mt2", "lam": 0.5, "Lam": 3.75 * k} for k in (1.0, 3.0)]
        out += [{**base, "objective": "mt2-unscaled", "lam": 0.5, "Lam": 3.75}]
        out += [{**base, "objective": "mt-extended", "lam": 0.5, "Lam": 7.5}]
        out += [{**base, "objective": o, "lam": lam} for o in ("mx2", "mx2-unscaled")
                for lam in (0.4, 10.0)]
        al = _AL + [0.25]
        lam_min = float(max(apfl_g(max(al)), apfl_g(min(al))))
        out += [{**base, "objective": o, "Lam": lam_min, "alpha": al}
                for o in ("apfl2", "apfl2-unscaled")]
        out += [{**base, "objective": o, "d_w": 1} for o in ("ws2", "ws2-unscaled")]
        out += [{**base, "objective": o} for o in ("fl", "full")]
        if not full:
            break
    return out


_MS = [5, 10, 20, 40]


def _p9_grid(obj: str, Ms) -> tuple:
    """Isotropic clients: with the rescaling, L^w/mu is then exactly the same for every M
    (with random Hessians the rescaled rounds even fall with M: mu grows with the clients)."""
    return tuple({**ISO, "objective": obj, "lam": 1.0, "M": M, "d": 1, "n": 4} for M in Ms)


_APFL_ISO = {"objective": "apfl2", "isotropic": True, "M": 6, "d": 3, "n": 8,
             "Lam": float(apfl_g(0.1)), "alpha": [0.1] * 6}

CHECKS = [
    Check(P + "P8", "Lemmas 1-4 (best reading): every encoded constant bounds the certified "
          "one", CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_constants,
          grid=tuple(_grid(True)), quick_grid=tuple(_grid(False)), engine="exact",
          result_id=LEMMA1.id, form="printed", rel_tol=1e-10,
          description="Random least-squares clients (spectrum in [mu', L'], both attained); "
          "entries 1/mu, L^w, L^beta, Lcal^w, Lcal^beta: certified <= encoded.",
          xlabel="constant (1/mu, L^w, L^beta, Lcal^w, Lcal^beta)", ylabel="value",
          plot=Plot("scatter", categories=CONSTANTS, xlabel="encoded constant (bound)",
                    ylabel="certified constant (measured)")),
    Check(P + "E_apfl2_mu", "Lemma 3's mu'(1 - alpha_max)^2/M is too large; /(2M) holds",
          CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_erratum, grid=(_APFL_ISO,),
          engine="exact", result_id=LEMMA3.id, form="corrected", rel_tol=1e-10,
          description="Isotropic f'_m, alpha = 0.1, the smallest admissible Lambda: the "
          "certified M mu/mu' (computed from the instance) against the printed "
          "(1 - alpha_max)^2 and the corrected (1 - alpha_max)^2/2.",
          xlabel="constant (1/mu, L^w, L^beta, Lcal^w, Lcal^beta)", ylabel="value",
          plot=Plot("dots", categories=CONSTANTS, **_LABELS)),
    Check(P + "E_mt2_table2", "Table 2's MT2 smoothness constants (/2M) are too small; "
          "Lemma 1's /M hold", CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_erratum,
          grid=({"objective": "mt2", "lam": 0.5, "Lam": 4.0, "M": 6, "d": 3, "n": 8},),
          engine="exact", result_id=TABLE2_MT2.id, form="corrected", rel_tol=1e-10,
          xlabel="constant (1/mu, L^w, L^beta, Lcal^w, Lcal^beta)", ylabel="value",
          plot=Plot("dots", categories=CONSTANTS, **_LABELS)),
    Check(P + "E_ws2", "Table 2's WS2 mu = mu' is too large; mu'/M holds", CheckKind.ERRATUM,
          Verdict.CONFIRMED, simulate_erratum,
          grid=({"objective": "ws2", "d_w": 1, "M": 6, "d": 3, "n": 8},), engine="exact",
          result_id=TABLE2_WS2.id, form="corrected", rel_tol=1e-10,
          xlabel="constant (1/mu, L^w, L^beta, Lcal^w, Lcal^beta)", ylabel="value",
          plot=Plot("dots", categories=CONSTANTS, **_LABELS)),
    Check(P + "P9_rescaled", "With the M^{-1/2} rescaling, ACD-PFL communications do not grow "
          "with M (MX2)", CheckKind.SCALING, Verdict.HOLDS, simulate_comm,
          grid=_p9_grid("mx2", _MS), quick_grid=_p9_grid("mx2", _MS[:3]), engine="exact",
          result_id=UNRESCALED.id, form="printed", predicted=0.0, tolerance=0.1,
          x_param="M", xlabel="M (clients)", ylabel="rounds to eps"),
    Check(P + "P9_unrescaled", "Without the rescaling, ACD-PFL communications grow as sqrt(M) "
          "(MX2)", CheckKind.SCALING, Verdict.HOLDS, simulate_comm,
          grid=_p9_grid("mx2-unscaled", _MS), quick_grid=_p9_grid("mx2-unscaled", _MS[:3]),
          engine="exact", result_id=UNRESCALED.id, form="printed", predicted=0.5,
          tolerance=0.1, x_param="M", xlabel="M (clients)", ylabel="rounds to eps"),
]
