"""even2022's formulas on the engine's instances: the instances stay paper-neutral (they give
constants; the catalog gives the formulas), so the paper's own readings of them live here."""

from __future__ import annotations

from pflbounds.checking import bound
from pflbounds.papers.even2022.theory.estimated import THEOREM4_TAIL
from pflbounds.papers.even2022.theory.lower_bound import THEOREM1
from pflbounds.problems.gaussian_means import GaussianMeans
from pflbounds.problems.hard_instance import HardInstanceA


def instance_a_lower_bound(inst: HardInstanceA) -> float:
    """Theorem 1, explicit form (digest §5.3), on Instance A: the oracle calls any method needs
    for E[f_t(x_t^K)] - f_t^* <= eps at the instance's eps = delta^2/(36 d):
    ((d/3) ln(2/sqrt e) - ln 2)/(8.79 * 36 d eps N_eff). Raises HypothesisError outside its
    conditions (d >= 11, eps d <= 1/576)."""
    return float(bound(THEOREM1, "explicit", d=float(inst.d), eps=inst.eps_target,
                       N_eff=float(inst.N_eff)))


def misclassification_bound(g: GaussianMeans, S: int, u: float) -> float:
    """Theorem 4's proof (digest P12): P(b_hat_ij^2 <= u) <= 2 exp(-S max(2u, Delta^2 - 2u)/
    (8 nu^2)) for a pair of agents of different clusters, with the instance's Delta^2, nu^2
    and d_eff; raises HypothesisError unless u >= 4 nu^2 d_eff/S."""
    return float(bound(THEOREM4_TAIL, "printed", S=float(S), u=float(u), Delta2=g.Delta2,
                       nu2=g.nu2, d_eff=g.d_eff))
