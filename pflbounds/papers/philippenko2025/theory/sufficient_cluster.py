"""The sufficient cluster and variance of philippenko2025 (Definition 2, digest §4.4) and
their limits in eps.

Definition 2's sufficient cluster and variance sum over the collaborators: they are computed
per client from the matrices b and c by the derivations of
:mod:`pflbounds.papers.philippenko2025.inputs`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from pflbounds.algorithms.similarity_weights import Criterion
from pflbounds.papers.philippenko2025 import inputs
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import form, result
from pflbounds.papers.philippenko2025.symbols import Nstar, b, c, eps, mu, sigma_suf2
from pflbounds.symbolic.result import Kind

DEFINITION2_RATIO = result(
    "definition2_ratio", "Definition 2 (argument of psi)", Kind.IDENTITY,
    "x_ik(eps): the argument of psi in the sufficient cluster and variance", "1",
    "N_i^*(eps) = {k : psi((1 - b_ik/(2 mu eps) - c_ik)_+) > 0} and sigma_{i,suf}^2(eps) = "
    "(sum_k sigma_k^-2 psi((1 - b_ik/(2 mu eps) - c_ik)_+))^-1 (b_ik unsquared as printed).",
    [form("printed", sp.Max(1 - b / (2 * mu * eps) - c, 0),
          "As printed: b_ik unsquared (not dimensionless)."),
     form("corrected", sp.Max(1 - b**2 / (2 * mu * eps) - c, 0),
          "b_ik^2, as in the proof of Lemma 2 and the authors' code.")],
    relation="=", source="Definition 2", hypotheses=("philippenko2025.A3",),
    errata=(ERRATA["erratum4"],), derivations=inputs.pair_derivations(),
    quantity_typst="x_(i k)(epsilon)",
)


def _definition2(criterion: str, psi_text: str) -> dict[str, Any]:
    """The declaration of Definition 2 for one criterion, but its key."""
    return dict(
        label=f"Definition 2 ({criterion} criterion)", kind=Kind.IDENTITY,
        quantity="size of the sufficient cluster |N_i^*(eps)| and sufficient variance "
        "sigma_{i,suf}^2(eps)", unit="f^2/x^2",
        statement=f"With psi = {psi_text}: N_i^*(eps) = {{k : psi(x_ik(eps)) > 0}} and "
        "sigma_{i,suf}^2(eps) = (sum_k sigma_k^-2 psi(x_ik(eps)))^-1, x_ik(eps) = (1 - "
        "b_ik/(2 mu eps) - c_ik)_+ as printed. Computed per client from the matrices b (and "
        "c, 0 when absent) and sigma2 (one value, or one per client). sigma_suf^2 is "
        "non-increasing in eps and at most sigma_i^2/psi(1).",
        forms=[form("printed", parts={"Nstar": Nstar, "sigma_suf2": sigma_suf2},
                    note="b_ik unsquared, as printed."),
               form("corrected", parts={"Nstar": Nstar, "sigma_suf2": sigma_suf2},
                    note="b_ik^2 (erratum 4).")],
        relation="=", source="Definition 2", hypotheses=("philippenko2025.A3",),
        errata=(ERRATA["erratum4"], ERRATA["erratum12"]),
        derivations=inputs.sufficient_derivations(criterion),
        part_units={"Nstar": "1", "sigma_suf2": "f^2/x^2"},
        quantity_typst="(|cal(N)_i^star (epsilon)|, sigma_(i,\"suf\")^2 (epsilon))",
    )


DEFINITION2_BINARY = result("definition2_binary",
                            **_definition2("binary", "psi_bin(x) = lambda x 1{x >= lambda}"))
DEFINITION2_CONTINUOUS = result("definition2_continuous",
                                **_definition2("continuous", "psi_cont(x) = x^2"))


def suf_limit_small_eps(b_: np.ndarray, c_: np.ndarray | None, sigma2: np.ndarray,
                        crit: Criterion, printed: bool = False) -> np.ndarray:
    """lim_{eps -> 0} sigma_{i,suf}^2(eps) (Definition 2, digest §4.4) per client:
    (sum_k sigma_k^-2 psi((1 - c_ik)_+) 1{b_ik = 0})^-1; ``printed=True`` gives the paper's
    version with sigma_k^2 for sigma_k^-2 (erratum 12)."""
    cc = np.zeros_like(b_) if c_ is None else np.asarray(c_, dtype=float)
    w = crit.psi(np.maximum(1.0 - cc, 0.0)) * (np.asarray(b_) == 0)
    s = np.asarray(sigma2, dtype=float)
    return 1.0 / np.sum(w * (s if printed else 1.0 / s), axis=-1)


def suf_limit_large_eps(c_: np.ndarray | None, sigma2: np.ndarray, crit: Criterion,
                        N: int) -> np.ndarray:
    """lim_{eps -> inf} sigma_{i,suf}^2(eps) = (sum_k sigma_k^-2 psi((1 - c_ik)_+))^-1
    (Definition 2, digest §4.4; printed as sigma_{i,cont}^2)."""
    cc = np.zeros((N, N)) if c_ is None else np.asarray(c_, dtype=float)
    return 1.0 / np.sum(crit.psi(np.maximum(1.0 - cc, 0.0)) / np.asarray(sigma2, float),
                        axis=-1)
