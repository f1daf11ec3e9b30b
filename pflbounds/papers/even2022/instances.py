"""even2022's formulas evaluated on the engine's instances (the instances stay paper-neutral:
they give constants, the catalog gives the formulas)."""

from __future__ import annotations

from pflbounds.problems.gaussian_means import GaussianMeans
from pflbounds.problems.hard_instance import HardInstanceA
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate


def instance_a_lower_bound(inst: HardInstanceA) -> float:
    """Theorem 1, explicit form (digest §5.3), on Instance A: the oracle calls any method needs
    for E[f_t(x_t^K)] - f_t^* <= eps at the instance's eps = delta^2/(36 d):
    ((d/3) ln(2/sqrt e) - ln 2)/(8.79 * 36 d eps N_eff). Raises HypothesisError outside its
    conditions (d >= 11, eps d <= 1/576)."""
    ev = evaluate(get("even2022.theorem1"), "explicit", d=float(inst.d), eps=inst.eps_target,
                  N_eff=float(inst.N_eff))
    return float(ev.value)


def misclassification_bound(g: GaussianMeans, S: int, u: float) -> float:
    """Theorem 4's proof (digest P12): P(b_hat_ij^2 <= u) <= 2 exp(-S max(2u, Delta^2 - 2u)/
    (8 nu^2)) for a pair of agents of different clusters, with the instance's Delta^2, nu^2
    and d_eff; raises HypothesisError unless u >= 4 nu^2 d_eff/S."""
    ev = evaluate(get("even2022.theorem4_tail"), "printed", S=float(S), u=float(u),
                  Delta2=g.Delta2, nu2=g.nu2, d_eff=g.d_eff)
    return float(ev.value)
