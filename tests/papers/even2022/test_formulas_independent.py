"""Every even2022 result and form, written again in plain numpy from the digest (§4, App. B).

No sympy expression of the package is imported: each reference below is typed from the
paper/digest formulas. Both are evaluated at random valid points (seeded; side conditions
respected) and must agree to 1e-12 relative. Hidden constants (O~, Omega, ...) are
evaluated as constant 1 without a log factor, and the evaluation must say so.

Also: ``solve`` (smallest integer K/T with value <= target, checked on K and K - 1 with the
independent formula) and the matrix derivations (V_i, B_i, SumLam2, BiasSum, rho(W), and
N_i^eps with each result's own threshold).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from pflbounds.symbolic import HypothesisError, InputError, evaluate, get, results, solve

RTOL = 1e-12
LN2 = math.log(2.0)
C1 = 8.79  # KL constant of instance A (digest §5.3)


# ----------------------------------------------------------------------------- samplers
def logu(rng, n, lo, hi):
    return np.exp(rng.uniform(math.log(lo), math.log(hi), n))


def ints(rng, n, lo, hi):
    return rng.integers(lo, hi + 1, n).astype(float)


def base(rng, n):
    """Common scalar inputs (kappa between 1 and 50)."""
    mu = logu(rng, n, 0.05, 5.0)
    return {
        "mu": mu,
        "L": mu * logu(rng, n, 1.0, 50.0),
        "sigma2": logu(rng, n, 1e-3, 10.0),
        "K": ints(rng, n, 1, 400),
        "T": ints(rng, n, 1, 400),
        "Delta0": logu(rng, n, 1e-2, 10.0),
        "F0": logu(rng, n, 1e-2, 10.0),
        "DeltaLam0": logu(rng, n, 1e-2, 10.0),
        "V": rng.uniform(0.02, 1.0, n),
        "B": logu(rng, n, 1e-4, 1.0),
        "N": ints(rng, n, 1, 60),
        "eps": logu(rng, n, 1e-4, 1.0),
        "BiasSum": logu(rng, n, 1e-4, 10.0),
        "BiasF": logu(rng, n, 1e-4, 10.0),
        # rho(Lambda Lambda^T) >= 1 for a row-stochastic Lambda; = 1 when doubly stochastic
        "rho_W": np.where(rng.uniform(size=n) < 0.5, 1.0, rng.uniform(1.0, 3.0, n)),
        "invN_mean": rng.uniform(0.01, 1.0, n),
    }


def with_sumlam2(rng, v):
    n = len(v["N"])
    v["SumLam2"] = 1.0 + rng.uniform(0, 1, n) * (v["N"] - 1.0)  # between 1 and N
    v["Neps"] = np.minimum(v["N"], ints(rng, n, 1, 60))
    return v


def kappa(v):
    return v["L"] / v["mu"]


# ----------------------------------------------------------------------------- references
# Lower bound (digest §4.1-4.4, §5.3)
def ref_lemma1(v):
    return v["psi"] / 3


def ref_lemma2(v):
    return v["psi"] / 9


def ref_eq4(v):
    return 1 - (v["Itot"] + LN2) / np.log(v["Vcard"])


def ref_eq5(v):
    return (2.0 / 3.0 * np.log(v["Vcard"]) - LN2) / v["I1"]


def ref_thm1_printed(v):
    return v["r"] ** 2 * v["sigma2"] / (v["eps"] * v["Neps"])


def ref_thm1_explicit(v):
    d = v["d"]
    num = d / 3 * math.log(2 / math.sqrt(math.e)) - LN2
    return num / (C1 * 36 * d * v["eps"] * v["N_eff"])


def ref_thm1_corrected(v):
    return v["sigma2"] / (v["mu"] * v["eps"] * v["Neps"])


# AFO (digest §3.1, §4.5-4.7)
def A6(v):
    return 2 * v["mu"] ** 2 * v["K"] * v["Delta0"] / (v["sigma2"] * v["L"] * v["V"])


def ref_lemma3(v):
    return ((1 - v["eta"] * v["mu"]) * v["E_k"] + v["eta"] / 2 * v["gradgap2"]
            + v["eta"] ** 2 * v["sigma_g2"] * v["L"] / 2)


def ref_lemma4(v):
    return v["b"] ** 2 / (2 * v["mu"])


def ref_eq6(v):
    return np.minimum(1 / (2 * v["L"]), np.log(A6(v)) / (v["mu"] * v["K"]))


def ref_thm2_printed(v):
    return (v["Delta0"] * np.exp(-v["K"] / (2 * kappa(v)))
            + kappa(v) * v["sigma2"] / (v["mu"] * v["K"]) * v["V"] + v["B"] / v["mu"])


def ref_thm2_explicit(v):
    return ((1 - v["eta"] * v["mu"]) ** v["K"] * v["Delta0"]
            + v["eta"] * v["sigma2"] * v["L"] / (2 * v["mu"]) * v["V"] + v["B"] / (2 * v["mu"]))


def ref_thm2_proof(v):
    return (v["Delta0"] * np.exp(-v["K"] / kappa(v))
            + v["sigma2"] * v["L"] / (v["mu"] ** 2 * v["K"]) * np.log(A6(v)) * v["V"]
            + v["B"] / (2 * v["mu"]))


def ref_thm2_corrected(v):
    return (v["Delta0"] * np.exp(-v["K"] / (2 * kappa(v)))
            + v["sigma2"] * v["L"] * v["V"] / (2 * v["mu"] ** 2 * v["K"]) * (1 + np.log(A6(v)))
            + v["B"] / (2 * v["mu"]))


def ref_thm2p2_printed(v):
    return kappa(v) * v["sigma2"] / (v["mu"] * v["eps"]) / v["Neps"]


def ref_thm2p2_explicit(v):
    k = kappa(v)
    m = np.maximum(2 * k, 2 * k * v["sigma2"] / (v["mu"] * v["eps"] * v["Neps"]))
    return np.ceil(m * np.log(4 * v["Delta0"] / v["eps"]))


# AFA (digest §3.2, §4.8-4.10, §4.14)
def A7(v):
    num = 2 * v["mu"] ** 2 * v["K"] * v["DeltaLam0"]
    return num / (v["sigma2"] * v["L"] * v["SumLam2"] / v["N"])


def ref_lemma5_printed(v):
    return v["BiasF"] / v["N"]


def ref_lemma5_explicit(v):
    return v["BiasSum"] / (2 * v["mu"] * v["N"])


def ref_eq7_printed(v):
    return np.minimum(1 / (2 * v["L"]), np.log(A7(v)) / (v["mu"] * v["K"]))


def ref_eq7_corrected(v):
    return np.minimum(1 / (2 * v["L"] * v["rho_W"]), np.log(A7(v)) / (v["mu"] * v["K"]))


def ref_thm3_printed(v):
    return (v["F0"] * np.exp(-v["K"] / (2 * kappa(v)))
            + kappa(v) * v["sigma2"] / (v["K"] * v["mu"] * v["N"]) * v["SumLam2"]
            + v["BiasSum"] / (2 * v["mu"] * v["N"]))


def ref_thm3_explicit(v):
    return (v["DeltaLam0"] * np.exp(-v["K"] / (2 * kappa(v)))
            + kappa(v) * v["sigma2"] / (v["K"] * v["mu"] * v["N"]) * np.log(A7(v)) * v["SumLam2"]
            + v["BiasSum"] / (2 * v["mu"] * v["N"]))


def ref_thm3_corrected(v):
    return (v["F0"] * np.exp(-v["eta"] * v["mu"] * v["K"])
            + v["eta"] * v["L"] * v["sigma2"] * v["SumLam2"] / (v["mu"] * v["N"])
            + v["BiasSum"] / (2 * v["mu"] * v["N"]))


def ref_cor1_printed(v):
    k = kappa(v)
    return 2 * np.maximum(k * v["sigma2"] / (v["eps"] * v["mu"]) * v["invN_mean"], k) * np.log(
        v["F0"] / v["eps"])


def ref_cor1_corrected(v):
    k = kappa(v)
    m = np.maximum(2 * k, 4 * k * v["sigma2"] * v["invN_mean"] / (v["mu"] * v["eps"]))
    return np.ceil(m * np.log(4 * v["F0"] / v["eps"]))


def ref_lemma6(v):
    return (np.exp(-v["eta"] * v["mu"] * v["T"]) * v["Delta0"]
            + v["eta"] * v["L"] * v["sigma2"] / v["mu"])


def _l6arg(v):
    return v["Delta0"] * v["mu"] ** 2 * v["T"] / (v["L"] * v["sigma2"])


def ref_lemma6_tuned_printed(v):
    return (np.exp(-v["mu"] * v["T"] / (2 * v["L"])) * v["Delta0"]
            + v["L"] * v["sigma2"] / (v["mu"] ** 2 * v["T"]) * np.log(_l6arg(v)))


def ref_lemma6_tuned_corrected(v):
    return (np.exp(-v["mu"] * v["T"] / (2 * v["L"])) * v["Delta0"]
            + v["L"] * v["sigma2"] / (v["mu"] ** 2 * v["T"]) * (1 + np.log(_l6arg(v))))


def ref_lemma6_eps_printed(v):
    m = np.maximum(2 * v["L"] * v["sigma2"] / (v["eps"] * v["mu"] ** 2), 2 * v["L"] / v["mu"])
    return m * np.log(v["Delta0"] / v["eps"])


def ref_lemma6_eps_corrected(v):
    m = np.maximum(3 * v["L"] * v["sigma2"] / (v["eps"] * v["mu"] ** 2), 2 * v["L"] / v["mu"])
    return np.ceil(m * np.log(3 * v["Delta0"] / (2 * v["eps"])))


# Estimated biases (digest §4.11, §4.13)
def ref_thm4_printed(v):
    k = kappa(v)
    S, u, nu2 = v["S"], v["u"], v["nu2"]
    var = k * v["sigma2"] / (v["K"] * v["mu"]) * (1 / v["C"] + v["C"] * np.exp(-S * u / (8 * nu2)))
    ind = np.where(2 * u >= np.sqrt(v["Delta2"]), 1.0, 0.0)
    bias = (2 * v["D_star"] ** 2 * v["b_max"]
            * np.exp(-S * np.maximum(v["Delta2"] - 2 * u, 2 * u**2) / (8 * nu2))
            + 4 * u**2 * ind) / v["mu"]
    return v["F0"] * np.exp(-k / (2 * v["K"])) + var + bias


def ref_thm4_corrected(v):
    k = kappa(v)
    S, u, nu2 = v["S"], v["u"], v["nu2"]
    var = (k * v["sigma2"] / (v["K"] * v["mu"])
           * (1 / v["C"] + 2 * v["C"] * np.exp(-S * u / (8 * nu2))))
    ind = np.where(4 * u > v["Delta2"], 1.0, 0.0)
    tail = np.exp(-S * np.maximum(2 * u, v["Delta2"] - 2 * u) / (8 * nu2))
    bias = (2 * v["c_N"] * v["b_max"] ** 2 * tail + 4 * v["D_star"] ** 2 * u * ind) / (2 * v["mu"])
    return v["F0"] * np.exp(-v["K"] / (2 * k)) + var + bias


def ref_thm4_tail(v):
    return 2 * np.exp(-v["S"] * np.maximum(2 * v["u"], v["Delta2"] - 2 * v["u"]) / (8 * v["nu2"]))


def ref_thm4_variance(v):
    return 1 / v["C"] + 2 * v["C"] * np.exp(-v["S"] * v["u"] / (8 * v["nu2"]))


def ref_cor2_printed(v):
    return {
        "S": v["nu2"] * v["d_eff"] / v["Delta2"],
        "C": v["nu2"] * v["d_eff"] / v["eps"],
        "KC": kappa(v) * v["sigma2"] / (v["eps"] * v["mu"]),
        "K": kappa(v),
    }


def ref_cor2_corrected(v):
    nu2, D2 = v["nu2"], v["Delta2"]
    s = np.maximum.reduce([
        16 * nu2 * v["d_eff"] / D2,
        16 * nu2 / D2 * np.log(v["N"] * v["b_max"] ** 2 / (v["mu"] * v["eps"])),
        32 * nu2 / D2 * np.log(2 * v["C"] ** 2),
    ])
    return {
        "S": s,
        "KC": kappa(v) * v["sigma2"] / (v["eps"] * v["mu"]),
        "K": kappa(v) * np.log(v["F0"] / v["eps"]),
    }


# Appendix E concentration (digest §4.11-4.12), Section 5 baselines, speedups (§4.10, §4.13)
def ref_hkz_printed(v):
    return v["nu2"] * v["d_eff"] + 2 * np.sqrt(v["Sigma_F"] * v["t"]) + 2 * v["nu2"] * v["t"]


def ref_hkz_corrected(v):
    return v["nu2"] * v["d_eff"] + 2 * v["Sigma_F"] * np.sqrt(v["t"]) + 2 * v["nu2"] * v["t"]


def ref_hkz_norm_tail(v):
    return np.exp(-v["u"] / (2 * v["nu2"]))


def ref_thm4_recovery(v):
    return 1 - 2 * v["C"] * np.exp(-v["S"] * v["u"] / (8 * v["nu2"]))


def ref_thm4_bias_printed(v):
    near = np.where(4 * v["u"] ** 2 >= np.sqrt(v["Delta2"]), 1.0, 0.0)
    return v["b_max"] ** 2 * ref_thm4_tail(v) + 4 * v["u"] ** 2 * near


def ref_thm4_bias_corrected(v):
    near = np.where(4 * v["u"] > v["Delta2"], 1.0, 0.0)
    return v["N"] * ((v["N"] - v["C"]) * v["b_max"] ** 2 * ref_thm4_tail(v)
                     + 4 * v["D_star"] ** 2 * v["u"] * near)


def ref_local_printed(v):
    return v["F0"] * np.exp(-v["K"] / (2 * kappa(v))) + kappa(v) * v["sigma2"] / (v["K"] * v["mu"])


def ref_local_explicit(v):
    return (v["F0"] * np.exp(-v["eta"] * v["mu"] * v["K"])
            + v["eta"] * v["L"] * v["sigma2"] / v["mu"])


def ref_global_printed(v):
    return v["bsum"] / v["N"] ** 2


def ref_global_corrected(v):
    return v["b2sum"] / (2 * v["mu"] * v["N"] ** 2)


def ref_personalised_printed(v):
    return v["alpha"] / (v["N"] * (v["N"] - 1)) * v["bsum"]


def ref_personalised_corrected(v):
    return v["alpha"] / (v["N"] * (v["N"] - 1)) * v["b2sum"] / (2 * v["mu"])


def ref_cor1_remark(v):
    return kappa(v) * v["sigma2"] / (v["mu"] * v["eps"]) * v["invN_afo_mean"]


def ref_cor2_agents_printed(v):
    return v["M"] / v["eps"]


def ref_cor2_agents_corrected(v):
    return v["M"] * kappa(v) * v["sigma2"] / (v["K"] * v["mu"] * v["eps"])


# ----------------------------------------------------------------------------- samplers
def s_lower(rng, n):
    return {
        "psi": logu(rng, n, 1e-4, 10.0),
        "Vcard": logu(rng, n, 16.0, 1e6),
        "I1": logu(rng, n, 1e-4, 1.0),
    }


def s_eq4(rng, n):
    vcard = logu(rng, n, 16.0, 1e6)
    # keep (Itot + ln 2)/ln|V| in (0.05, 0.7) so that the value is not a cancellation
    itot = rng.uniform(0.05, 0.7, n) * np.log(vcard) - LN2
    return {"Vcard": vcard, "Itot": np.maximum(itot, 0.0)}


def s_thm1(rng, n):
    v = with_sumlam2(rng, base(rng, n))
    v["r"] = logu(rng, n, 0.1, 10.0)
    v["eps"] = logu(rng, n, 1e-5, 1 / 16)
    v["d"] = ints(rng, n, 11, 200)
    v["N_eff"] = ints(rng, n, 1, 50)
    return v


def s_thm1_explicit(rng, n):
    v = s_thm1(rng, n)
    v["eps"] = rng.uniform(0.01, 1.0, n) / (576 * v["d"])
    return v


def s_afo(rng, n):
    v = with_sumlam2(rng, base(rng, n))
    v["eta"] = rng.uniform(0.01, 1.0, n) / v["L"]
    v["E_k"] = logu(rng, n, 1e-3, 10.0)
    v["gradgap2"] = logu(rng, n, 1e-3, 10.0)
    v["sigma_g2"] = logu(rng, n, 1e-3, 10.0)
    v["b"] = logu(rng, n, 1e-3, 10.0)
    return v


def s_afa(rng, n):
    v = with_sumlam2(rng, base(rng, n))
    v["eta"] = rng.uniform(0.01, 1.0, n) / (2 * v["L"] * v["rho_W"])
    v["T"] = ints(rng, n, 1, 2000)
    return v


def s_lemma6(rng, n):
    v = s_afa(rng, n)
    v["eta"] = rng.uniform(0.01, 1.0, n) / (2 * v["L"])
    return v


def s_est(rng, n):
    v = with_sumlam2(rng, base(rng, n))
    v["S"] = ints(rng, n, 1, 200)
    v["C"] = ints(rng, n, 1, 60)
    v["nu2"] = logu(rng, n, 1e-2, 10.0)
    v["d_eff"] = logu(rng, n, 1.0, 100.0)
    # u >= 4 nu2 d_eff / S, sometimes well above (both sides of the indicator)
    v["u"] = 4 * v["nu2"] * v["d_eff"] / v["S"] * logu(rng, n, 1.0, 10.0)
    v["Delta2"] = v["u"] * logu(rng, n, 0.5, 50.0)
    v["D_star"] = logu(rng, n, 0.1, 10.0)
    v["b_max"] = logu(rng, n, 0.01, 10.0)
    v["c_N"] = rng.uniform(1.0, 50.0, n)
    return v


def s_clusters(rng, n):
    """Theorem 4's inputs with N = M C (M clusters of C agents)."""
    v = s_est(rng, n)
    v["M"] = ints(rng, n, 1, 20)
    v["N"] = v["M"] * v["C"]
    return v


def s_hkz(rng, n):
    v = {"nu2": logu(rng, n, 1e-2, 100.0), "d_eff": logu(rng, n, 1.0, 200.0),
         "t": logu(rng, n, 1e-2, 20.0)}
    # ||Sigma||_F lies between nu^2 and nu^2 sqrt(d_eff)
    v["Sigma_F"] = v["nu2"] * np.sqrt(v["d_eff"]) ** rng.uniform(0, 1, n)
    v["u"] = v["nu2"] * v["d_eff"] * logu(rng, n, 1.0, 10.0)
    return v


def s_baselines(rng, n):
    v = base(rng, n)
    v["N"] = ints(rng, n, 2, 60)
    v["bsum"] = logu(rng, n, 1e-3, 1e3)
    v["b2sum"] = logu(rng, n, 1e-3, 1e3)
    v["alpha"] = rng.uniform(0.0, 1.0, n)
    v["eta"] = rng.uniform(0.01, 1.0, n) / (2 * v["L"])
    return v


def s_speedup(rng, n):
    v = base(rng, n)
    v["invN_afo_mean"] = rng.uniform(0.01, 1.0, n)
    v["M"] = ints(rng, n, 1, 50)
    return v


# validity masks, written from the digest's side conditions
def ok_A6(v):
    return A6(v) > 1


def ok_A7(v):
    return A7(v) > 1


def ok_eta_1_over_L(v):
    return v["eta"] <= 1 / v["L"]


def ok_thm3_corrected(v):
    return (v["eta"] <= 1 / (2 * v["L"] * v["rho_W"])) & (v["rho_W"] <= 1)


def ok_l6arg(v):
    return _l6arg(v) > 1


def ok_delta0_gt_eps(v):
    return v["Delta0"] > v["eps"]


def ok_u(v):
    return v["u"] >= 4 * v["nu2"] * v["d_eff"] / v["S"]


def always(v):
    return np.ones(len(next(iter(v.values()))), dtype=bool)


@dataclass(frozen=True)
class Spec:
    rid: str
    form: str
    ref: Callable
    sampler: Callable
    valid: Callable = always
    hidden: bool = False


SPECS = [
    Spec("even2022.lemma1", "printed", ref_lemma1, s_lower),
    Spec("even2022.lemma2", "printed", ref_lemma2, s_lower),
    Spec("even2022.eq4", "printed", ref_eq4, s_eq4),
    Spec("even2022.eq5", "printed", ref_eq5, s_lower),
    Spec("even2022.theorem1", "printed", ref_thm1_printed, s_thm1,
         lambda v: v["eps"] < 1 / 16, hidden=True),
    Spec("even2022.theorem1", "explicit", ref_thm1_explicit, s_thm1_explicit,
         lambda v: (v["d"] >= 11) & (v["eps"] * v["d"] <= 1 / 576)),
    Spec("even2022.theorem1", "corrected", ref_thm1_corrected, s_thm1, hidden=True),
    Spec("even2022.lemma3", "printed", ref_lemma3, s_afo, ok_eta_1_over_L),
    Spec("even2022.lemma4", "printed", ref_lemma4, s_afo),
    Spec("even2022.eq6", "printed", ref_eq6, s_afo, ok_A6),
    Spec("even2022.theorem2", "printed", ref_thm2_printed, s_afo, ok_A6, hidden=True),
    Spec("even2022.theorem2", "explicit", ref_thm2_explicit, s_afo, ok_eta_1_over_L),
    Spec("even2022.theorem2", "proof", ref_thm2_proof, s_afo, ok_A6),
    Spec("even2022.theorem2", "corrected", ref_thm2_corrected, s_afo, ok_A6),
    Spec("even2022.theorem2_part2", "printed", ref_thm2p2_printed, s_afo, hidden=True),
    Spec("even2022.theorem2_part2", "explicit", ref_thm2p2_explicit, s_afo,
         lambda v: 4 * v["Delta0"] > v["eps"]),
    Spec("even2022.lemma5", "printed", ref_lemma5_printed, s_afa),
    Spec("even2022.lemma5", "explicit", ref_lemma5_explicit, s_afa),
    Spec("even2022.eq7", "printed", ref_eq7_printed, s_afa, ok_A7),
    Spec("even2022.eq7", "corrected", ref_eq7_corrected, s_afa, ok_A7),
    Spec("even2022.theorem3", "printed", ref_thm3_printed, s_afa, ok_A7, hidden=True),
    Spec("even2022.theorem3", "explicit", ref_thm3_explicit, s_afa, ok_A7),
    Spec("even2022.theorem3", "corrected", ref_thm3_corrected, s_afa, ok_thm3_corrected),
    Spec("even2022.corollary1", "printed", ref_cor1_printed, s_afa,
         lambda v: v["F0"] > v["eps"]),
    Spec("even2022.corollary1", "corrected", ref_cor1_corrected, s_afa,
         lambda v: (4 * v["F0"] > v["eps"]) & (v["rho_W"] <= 1)),
    Spec("even2022.lemma6", "printed", ref_lemma6, s_lemma6,
         lambda v: v["eta"] <= 1 / (2 * v["L"])),
    Spec("even2022.lemma6_tuned", "printed", ref_lemma6_tuned_printed, s_afa, ok_l6arg),
    Spec("even2022.lemma6_tuned", "corrected", ref_lemma6_tuned_corrected, s_afa, ok_l6arg),
    Spec("even2022.lemma6_eps", "printed", ref_lemma6_eps_printed, s_afa, ok_delta0_gt_eps),
    Spec("even2022.lemma6_eps", "corrected", ref_lemma6_eps_corrected, s_afa, ok_delta0_gt_eps),
    Spec("even2022.theorem4", "printed", ref_thm4_printed, s_est, ok_u, hidden=True),
    Spec("even2022.theorem4", "corrected", ref_thm4_corrected, s_est, ok_u, hidden=True),
    Spec("even2022.theorem4_tail", "printed", ref_thm4_tail, s_est, ok_u),
    Spec("even2022.theorem4_variance", "printed", ref_thm4_variance, s_est, ok_u),
    Spec("even2022.corollary2", "printed", ref_cor2_printed, s_est, hidden=True),
    Spec("even2022.corollary2", "corrected", ref_cor2_corrected, s_est, hidden=True),
    Spec("even2022.hkz_tail", "printed", ref_hkz_printed, s_hkz),
    Spec("even2022.hkz_tail", "corrected", ref_hkz_corrected, s_hkz),
    Spec("even2022.hkz_norm_tail", "printed", ref_hkz_norm_tail, s_hkz),
    Spec("even2022.theorem4_recovery", "printed", ref_thm4_recovery, s_clusters, ok_u),
    Spec("even2022.theorem4_bias", "printed", ref_thm4_bias_printed, s_clusters, ok_u),
    Spec("even2022.theorem4_bias", "corrected", ref_thm4_bias_corrected, s_clusters, ok_u),
    Spec("even2022.baseline_local", "printed", ref_local_printed, s_baselines, hidden=True),
    Spec("even2022.baseline_local", "explicit", ref_local_explicit, s_baselines),
    Spec("even2022.baseline_global", "printed", ref_global_printed, s_baselines),
    Spec("even2022.baseline_global", "corrected", ref_global_corrected, s_baselines),
    Spec("even2022.baseline_personalised", "printed", ref_personalised_printed, s_baselines),
    Spec("even2022.baseline_personalised", "corrected", ref_personalised_corrected,
         s_baselines),
    Spec("even2022.corollary1_remark", "printed", ref_cor1_remark, s_speedup, hidden=True),
    Spec("even2022.corollary2_agents", "printed", ref_cor2_agents_printed, s_speedup,
         hidden=True),
    Spec("even2022.corollary2_agents", "corrected", ref_cor2_agents_corrected, s_speedup,
         hidden=True),
]
SPEC_IDS = [f"{s.rid}[{s.form}]" for s in SPECS]


def _rng(key: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(key.encode()))


def valid_points(spec: Spec, n: int = 40) -> dict[str, np.ndarray]:
    r = get(spec.rid)
    names = r.inputs(spec.form)
    rng = _rng(spec.rid + spec.form)
    for _ in range(20):
        cand = spec.sampler(rng, 4 * n)
        mask = np.asarray(spec.valid(cand), dtype=bool)
        if mask.sum() >= n:
            idx = np.flatnonzero(mask)[:n]
            return {k: cand[k][idx] for k in names}
    raise AssertionError(f"could not sample valid points for {spec.rid} [{spec.form}]")


def assert_close(got, want):
    got = np.asarray(got, dtype=float)
    want = np.asarray(want, dtype=float)
    assert got.shape == want.shape
    assert np.all(np.isfinite(want))
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=0)


# ----------------------------------------------------------------------------- coverage
def test_every_even2022_form_has_an_independent_reference():
    encoded = {(r.id, f) for r in results("even2022") for f in r.forms}
    covered = {(s.rid, s.form) for s in SPECS}
    assert encoded == covered


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_inputs_are_the_ones_the_reference_uses(spec):
    r = get(spec.rid)
    pts = valid_points(spec, 3)
    assert set(pts) == set(r.inputs(spec.form))
    spec.ref(pts)  # the reference needs nothing beyond the declared inputs


# ----------------------------------------------------------------------------- agreement
@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_vectorised_evaluation_matches_independent_formula(spec):
    r = get(spec.rid)
    pts = valid_points(spec)
    ev = evaluate(r, spec.form, **pts)
    want = spec.ref(pts)
    if isinstance(want, dict):
        assert set(ev.value) == set(want)
        for part, w in want.items():
            assert_close(ev.value[part], w)
    else:
        assert_close(ev.value, want)
    assert ev.id == spec.rid and ev.form == spec.form
    if spec.hidden:
        assert ev.hidden_constants, "hidden constants must be reported"
        for h in ev.hidden_constants:
            assert "set to 1" in h and "no hidden logarithm" in h
    else:
        assert ev.hidden_constants == []


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_scalar_evaluation_matches_independent_formula(spec):
    r = get(spec.rid)
    pts = valid_points(spec, 4)
    for i in range(4):
        point = {k: float(v[i]) for k, v in pts.items()}
        ev = evaluate(r, spec.form, **point)
        want = spec.ref({k: np.float64(v) for k, v in point.items()})
        if isinstance(want, dict):
            for part, w in want.items():
                assert isinstance(ev.value[part], float)
                assert math.isclose(ev.value[part], float(w), rel_tol=RTOL)
        else:
            assert isinstance(ev.value, float)
            assert math.isclose(ev.value, float(want), rel_tol=RTOL)


def _spec(rid, form):
    return next(s for s in SPECS if s.rid == rid and s.form == form)


def test_random_points_cover_both_branches_of_min_max_and_indicators():
    v = valid_points(_spec("even2022.eq6", "printed"))
    cap = 1 / (2 * v["L"])
    logb = np.log(A6(v)) / (v["mu"] * v["K"])
    assert np.any(cap < logb) and np.any(cap > logb)
    v = valid_points(_spec("even2022.eq7", "corrected"))
    cap = 1 / (2 * v["L"] * v["rho_W"])
    logb = np.log(A7(v)) / (v["mu"] * v["K"])
    assert np.any(cap < logb) and np.any(cap > logb)
    v = valid_points(_spec("even2022.corollary1", "printed"))
    a = kappa(v) * v["sigma2"] / (v["eps"] * v["mu"]) * v["invN_mean"]
    assert np.any(a > kappa(v)) and np.any(a < kappa(v))
    v = valid_points(_spec("even2022.lemma6_eps", "corrected"))
    a = 3 * v["L"] * v["sigma2"] / (v["eps"] * v["mu"] ** 2)
    assert np.any(a > 2 * v["L"] / v["mu"]) and np.any(a < 2 * v["L"] / v["mu"])
    v = valid_points(_spec("even2022.theorem4", "corrected"))
    assert np.any(4 * v["u"] > v["Delta2"]) and np.any(4 * v["u"] < v["Delta2"])
    assert np.any(2 * v["u"] > v["Delta2"] - 2 * v["u"])
    assert np.any(2 * v["u"] < v["Delta2"] - 2 * v["u"])
    v = valid_points(_spec("even2022.theorem4", "printed"))
    assert np.any(2 * v["u"] >= np.sqrt(v["Delta2"])) and np.any(2 * v["u"] < np.sqrt(v["Delta2"]))


def test_hidden_constants_name_each_hidden_term():
    ev = evaluate(get("even2022.theorem2"), "printed", mu=1, L=2, sigma2=1, K=10, Delta0=1,
                  V=0.5, B=0.1)
    assert len(ev.hidden_constants) == 1
    assert ev.hidden_constants[0].startswith("Otilde(")
    assert "logarithmic" in ev.hidden_constants[0]
    ev = evaluate(get("even2022.corollary2"), "printed", nu2=1, d_eff=2, Delta2=0.5, eps=0.1,
                  L=2, mu=1, sigma2=1)
    assert len(ev.hidden_constants) == 4
    assert all(h.startswith("Omegatilde(") for h in ev.hidden_constants)
    ev = evaluate(get("even2022.theorem1"), "corrected", mu=1, sigma2=1, eps=0.1, Neps=2)
    assert ev.hidden_constants[0].startswith("Omega(")
    assert ev.value == pytest.approx(5.0, rel=RTOL)


# ----------------------------------------------------------------------------- indicators
def test_theorem4_indicators_at_the_tie():
    """Printed 1{2u >= Delta} includes the tie; corrected 1{4u > Delta^2} excludes it."""
    common = dict(F0=1.0, K=10, L=2.0, mu=1.0, sigma2=1.0, C=5, S=100, nu2=0.01, d_eff=2.0,
                  D_star=1.0, b_max=1.0)
    r = get("even2022.theorem4")
    v = dict(common, u=1.0, Delta2=4.0)  # 2u = sqrt(Delta2) and 4u = Delta2 exactly
    printed = evaluate(r, "printed", **v).value
    corrected = evaluate(r, "corrected", c_N=1.0, **v).value
    arr = {k: np.float64(x) for k, x in v.items()}
    assert printed == pytest.approx(float(ref_thm4_printed(arr)), rel=RTOL)
    assert corrected == pytest.approx(float(ref_thm4_corrected(dict(arr, c_N=1.0))), rel=RTOL)
    # at the tie the printed indicator contributes 4u^2/mu = 4, the corrected one nothing
    below = evaluate(r, "printed", **dict(v, Delta2=4.0000001)).value
    assert printed - below == pytest.approx(4.0, rel=1e-6)
    above = evaluate(r, "corrected", c_N=1.0, **dict(v, Delta2=3.9999999)).value
    assert above - corrected == pytest.approx(4 * 1.0 * 1.0 / 2, rel=1e-6)


# ----------------------------------------------------------------------------- solve
def _smallest_check(ref, valid, base_vals, var, target, k):
    """k satisfies (valid and value <= target) and k - 1 does not."""
    at = {n: np.float64(x) for n, x in base_vals.items()}
    at[var] = np.float64(k)
    assert bool(valid(at)) and float(ref(at)) <= target, (k, float(ref(at)))
    if k > 1:
        at[var] = np.float64(k - 1)
        assert (not bool(valid(at))) or float(ref(at)) > target


SOLVE_CASES = [
    ("even2022.theorem2", "corrected", "K", ref_thm2_corrected, ok_A6,
     dict(mu=1.0, L=2.0, sigma2=1.0, Delta0=1.0, V=0.5, B=0.01), [0.05, 0.02, 0.3]),
    ("even2022.theorem2", "corrected", "K", ref_thm2_corrected, ok_A6,
     dict(mu=0.3, L=9.0, sigma2=4.0, Delta0=0.5, V=0.2, B=0.0), [1e-2, 1e-3]),
    ("even2022.theorem2", "explicit", "K", ref_thm2_explicit, ok_eta_1_over_L,
     dict(eta=0.1, mu=1.0, L=2.0, sigma2=0.1, Delta0=1.0, V=0.3, B=0.01), [0.05, 0.02]),
    ("even2022.theorem2", "printed", "K", ref_thm2_printed, ok_A6,
     dict(mu=1.0, L=5.0, sigma2=1.0, Delta0=3.0, V=0.25, B=0.01), [0.5, 0.1]),
    ("even2022.theorem3", "corrected", "K", ref_thm3_corrected, ok_thm3_corrected,
     dict(eta=0.05, mu=0.5, L=2.0, sigma2=1.0, F0=5.0, SumLam2=3.0, BiasSum=0.1, N=6.0,
          rho_W=1.0), [0.3, 0.15]),
    ("even2022.theorem3", "explicit", "K", ref_thm3_explicit, ok_A7,
     dict(mu=0.5, L=2.0, sigma2=1.0, DeltaLam0=5.0, SumLam2=3.0, BiasSum=0.1, N=6.0),
     [0.3, 0.05]),
    ("even2022.lemma6", "printed", "T", ref_lemma6,
     lambda v: v["eta"] <= 1 / (2 * v["L"]),
     dict(eta=0.01, mu=1.0, L=3.0, sigma2=2.0, Delta0=10.0), [0.1, 0.07]),
    ("even2022.lemma6_tuned", "corrected", "T", ref_lemma6_tuned_corrected, ok_l6arg,
     dict(mu=1.0, L=3.0, sigma2=2.0, Delta0=10.0), [0.5, 0.05]),
    # the Min of the step size switches branch between K = 1 (1/(2L)) and the answer (log)
    ("even2022.eq6", "printed", "K", ref_eq6, ok_A6,
     dict(mu=1.0, L=1.0, sigma2=1.0, Delta0=50.0, V=1.0), [0.3, 0.1, 0.5]),
    ("even2022.eq7", "corrected", "K", ref_eq7_corrected, ok_A7,
     dict(mu=1.0, L=1.0, sigma2=1.0, DeltaLam0=50.0, SumLam2=4.0, N=4.0, rho_W=2.0),
     [0.2, 0.25]),
]


@pytest.mark.parametrize("case", SOLVE_CASES, ids=[f"{c[0]}[{c[1]}]:{c[2]}" for c in SOLVE_CASES])
def test_solve_returns_the_smallest_integer(case):
    rid, form, var, ref, valid, vals, targets = case
    r = get(rid)
    for target in targets:
        ev = solve(r, var, target, form, **vals)
        k = ev.value
        assert k == int(k) and k >= 1
        _smallest_check(ref, valid, vals, var, target, int(k))
        assert ev.solved_for == var and ev.target == target
        assert var not in ev.inputs


def test_solve_eq6_min_switches_branch():
    vals = dict(mu=1.0, L=1.0, sigma2=1.0, Delta0=50.0, V=1.0)
    r = get("even2022.eq6")
    # at K = 1 the cap 1/(2L) = 0.5 is active; at the answer for 0.3 the log branch is
    k = int(solve(r, "K", 0.3, **vals).value)
    at = {n: np.float64(x) for n, x in vals.items()}
    log_branch = lambda kk: math.log(A6(dict(at, K=np.float64(kk)))) / kk  # noqa: E731
    assert log_branch(1) > 0.5  # capped at K = 1
    assert log_branch(k) < 0.5 and log_branch(k) <= 0.3 < log_branch(k - 1)
    assert solve(r, "K", 0.5, **vals).value == 1.0  # cap branch meets the target at once
    # the log branch is not monotone for small K: log(100 K)/K first rises for 100 K < e
    low = dict(vals, Delta0=0.006)  # A = 0.012 K > 1 from K = 84
    k0 = int(solve(r, "K", 0.5, **low).value)
    assert k0 == 84
    _smallest_check(ref_eq6, ok_A6, low, "K", 0.5, k0)


def test_solve_theorem1_corrected_for_eps():
    r = get("even2022.theorem1")
    vals = dict(mu=2.0, sigma2=3.0, Neps=4)
    target = 1000.0
    ev = solve(r, "eps", target, "corrected", **vals)
    exact = 3.0 / (2.0 * 4 * target)
    assert ev.value == pytest.approx(exact, rel=1e-12)
    at = {n: np.float64(x) for n, x in vals.items()}
    assert ref_thm1_corrected(dict(at, eps=ev.value)) <= target
    assert ref_thm1_corrected(dict(at, eps=ev.value * (1 - 1e-10))) > target
    assert ev.hidden_constants


def test_solve_per_agent_from_matrices():
    lam = np.array([[0.5, 0.5, 0.0, 0.0],
                    [0.25, 0.25, 0.25, 0.25],
                    [0.0, 0.0, 1.0, 0.0],
                    [0.1, 0.2, 0.3, 0.4]])
    b = np.abs(np.subtract.outer([0.0, 0.1, 0.5, 1.0], [0.0, 0.1, 0.5, 1.0]))
    vals = dict(eta=0.05, mu=1.0, L=2.0, sigma2=0.5, Delta0=1.0)
    ev = solve(get("even2022.theorem2"), "K", 0.2, "explicit",
               matrices={"Lambda": lam, "b": b}, **vals)
    ks = np.asarray(ev.value)
    assert ks.shape == (4,)
    V = (lam**2).sum(axis=1)
    B = (lam * b**2).sum(axis=1)
    for i in range(4):
        per = dict(vals, V=V[i], B=B[i])
        _smallest_check(ref_thm2_explicit, ok_eta_1_over_L, per, "K", 0.2, int(ks[i]))
    assert set(ev.derived) == {"V", "B"}


def test_solve_unreachable_target_names_the_floor():
    # the floor eta L sigma2 V/(2 mu) + B/(2 mu) = 0.025 + 0.05 cannot be beaten
    from pflbounds.symbolic.evaluate import TargetUnreachable

    with pytest.raises(TargetUnreachable, match="target 0.04 is below the floor") as info:
        solve(get("even2022.theorem2"), "K", 0.04, "explicit", eta=0.5, mu=1.0, L=2.0,
              sigma2=0.1, Delta0=1.0, V=0.5, B=0.1)
    assert info.value.floor == pytest.approx(0.075, rel=1e-12)


# ----------------------------------------------------------------------------- matrices
def _bias_from_points(p):
    p = np.asarray(p, dtype=float)
    return np.abs(p[:, None] - p[None, :])  # obeys the triangle inequality, zero diagonal


P = [0.0, 0.09, 0.2, 0.45, 0.5, 1.0, 2.5]
BMAT = _bias_from_points(P)
N7 = len(P)


def _random_stochastic(rng, n):
    m = rng.uniform(0, 1, (n, n)) * (rng.uniform(0, 1, (n, n)) < 0.6)
    m[np.arange(n), np.arange(n)] += 0.1
    return m / m.sum(axis=1, keepdims=True)


def _sinkhorn(rng, n):
    m = rng.uniform(0.1, 1, (n, n))
    for _ in range(500):
        m /= m.sum(axis=1, keepdims=True)
        m /= m.sum(axis=0, keepdims=True)
    return m / m.sum(axis=1, keepdims=True)


def _rho(lam):
    return float(np.max(np.linalg.eigvalsh(lam @ lam.T)))


def _count(b, thr, strict=False):
    return ((b**2 < thr) if strict else (b**2 <= thr)).sum(axis=1).astype(float)


def test_afo_per_agent_V_and_B_from_matrices():
    rng = np.random.default_rng(1)
    lam = _random_stochastic(rng, N7)
    vals = dict(eta=0.1, mu=1.0, L=2.0, sigma2=0.5, K=30, Delta0=2.0)
    ev = evaluate(get("even2022.theorem2"), "explicit", matrices={"b": BMAT, "Lambda": lam},
                  **vals)
    V = np.array([sum(lam[i, j] ** 2 for j in range(N7)) for i in range(N7)])
    B = np.array([sum(lam[i, j] * BMAT[i, j] ** 2 for j in range(N7)) for i in range(N7)])
    np.testing.assert_allclose(ev.inputs["V"], V, rtol=RTOL)
    np.testing.assert_allclose(ev.inputs["B"], B, rtol=RTOL)
    assert np.shape(ev.value) == (N7,)
    want = ref_thm2_explicit({**{k: np.float64(x) for k, x in vals.items()}, "V": V, "B": B})
    assert_close(ev.value, want)
    assert set(ev.derived) == {"V", "B"}
    # Eq. (6) per agent as well
    ev6 = evaluate(get("even2022.eq6"), matrices={"Lambda": lam, "b": BMAT}, mu=1.0, L=2.0,
                   sigma2=0.5, K=30, Delta0=2.0)
    assert_close(ev6.value, ref_eq6(dict(mu=1.0, L=2.0, sigma2=0.5, K=30.0, Delta0=2.0, V=V)))


def test_afa_scalars_from_matrices_with_general_lambda():
    rng = np.random.default_rng(2)
    lam = _random_stochastic(rng, N7)
    vals = dict(mu=1.0, L=2.0, sigma2=0.5, K=40, DeltaLam0=2.0)
    m = {"b": BMAT, "Lambda": lam}
    ev = evaluate(get("even2022.eq7"), "corrected", matrices=m, **vals)
    sumlam2 = float(np.sum(lam * lam))
    rho = _rho(lam)
    assert rho > 1.0  # merely row-stochastic: rho(W) = ||Lambda||_2^2 exceeds 1
    assert ev.inputs["SumLam2"] == pytest.approx(sumlam2, rel=RTOL)
    assert ev.inputs["rho_W"] == pytest.approx(rho, rel=1e-10)
    assert ev.inputs["N"] == N7
    want = ref_eq7_corrected({**vals, "SumLam2": sumlam2, "rho_W": rho, "N": float(N7)})
    assert ev.value == pytest.approx(float(want), rel=1e-10)
    ev3 = evaluate(get("even2022.theorem3"), "printed", matrices=m, F0=3.0, **vals)
    bias = float(np.sum(lam * BMAT**2))
    assert ev3.inputs["BiasSum"] == pytest.approx(bias, rel=RTOL)
    want3 = ref_thm3_printed({**vals, "F0": 3.0, "SumLam2": sumlam2, "BiasSum": bias,
                              "N": float(N7)})
    assert ev3.value == pytest.approx(float(want3), rel=RTOL)
    ev5 = evaluate(get("even2022.lemma5"), "explicit", matrices=m, mu=0.5)
    assert ev5.value == pytest.approx(bias / (2 * 0.5 * N7), rel=RTOL)


def test_theorem3_corrected_from_doubly_stochastic_lambda():
    rng = np.random.default_rng(3)
    lam = _sinkhorn(rng, N7)
    assert _rho(lam) == pytest.approx(1.0, abs=1e-9)
    vals = dict(eta=0.2, mu=1.0, L=2.0, sigma2=0.5, K=40, F0=2.0)
    ev = evaluate(get("even2022.theorem3"), "corrected", matrices={"b": BMAT, "Lambda": lam},
                  **vals)
    want = ref_thm3_corrected({**vals, "SumLam2": float(np.sum(lam**2)),
                               "BiasSum": float(np.sum(lam * BMAT**2)), "N": float(N7)})
    assert ev.value == pytest.approx(float(want), rel=RTOL)
    assert set(ev.derived) == {"SumLam2", "BiasSum", "rho_W", "N"}


def test_neps_thresholds_are_each_results_own():
    mu, eps = 2.0, 0.01  # mu * eps = 0.02
    lb = _count(BMAT, 4 * mu * eps)        # Theorem 1 printed: b^2 <= 4 mu eps
    afo = _count(BMAT, mu * eps / 2)       # Theorem 2 part 2: b^2 <= mu eps / 2
    afa = _count(BMAT, mu * eps)           # Corollary 1: b^2 <= mu eps
    assert not np.array_equal(lb, afo) and not np.array_equal(afo, afa)
    assert np.all(afo <= afa) and np.all(afa <= lb)

    # Theorem 1 [printed]: its own derivation counts b^2 <= 4 mu eps (evaluating the form
    # from b is blocked by the input check, see test_theorem1_printed_from_bias_matrix)
    (dv,) = [d for d in get("even2022.theorem1").derivations
             if d.symbol == "Neps" and d.forms == ("printed",)]
    np.testing.assert_array_equal(dv.func({"b": BMAT}, {"mu": mu, "eps": eps}), lb)
    assert dv.per_agent and set(dv.uses) == {"mu", "eps"}

    for form, ref in (("printed", ref_thm2p2_printed), ("explicit", ref_thm2p2_explicit)):
        vals = dict(mu=mu, L=4.0, sigma2=1.0, eps=eps)
        if form == "explicit":
            vals["Delta0"] = 1.0
        ev = evaluate(get("even2022.theorem2_part2"), form, matrices={"b": BMAT}, **vals)
        np.testing.assert_array_equal(ev.inputs["Neps"], afo)
        assert_close(ev.value, ref(dict(vals, Neps=afo)))

    ev = evaluate(get("even2022.corollary1"), "printed", matrices={"b": BMAT}, mu=mu, L=4.0,
                  sigma2=1.0, eps=eps, F0=1.0)
    assert ev.inputs["invN_mean"] == pytest.approx(np.mean(1 / afa), rel=RTOL)
    assert ev.value == pytest.approx(
        float(ref_cor1_printed(dict(mu=mu, L=4.0, sigma2=1.0, eps=eps, F0=1.0,
                                    invN_mean=np.mean(1 / afa)))), rel=RTOL)

    ev = evaluate(get("even2022.theorem1"), "corrected", matrices={"b": BMAT}, sigma2=1.0,
                  mu=mu, eps=eps)
    np.testing.assert_array_equal(ev.inputs["Neps"], _count(BMAT, 36 * mu * eps))
    assert_close(ev.value, 1.0 / (mu * eps * _count(BMAT, 36 * mu * eps)))


def test_theorem1_printed_neps_derivation_needs_mu():
    with pytest.raises(InputError, match="Neps is computed from b but also needs mu"):
        evaluate(get("even2022.theorem1"), "printed", matrices={"b": BMAT}, r=1.0, sigma2=1.0,
                 eps=0.01)


def test_theorem1_printed_from_bias_matrix():
    mu, eps = 2.0, 0.01
    r = 1 / math.sqrt(mu)  # Theorem 1 sets mu = L = 1/r^2
    lb = _count(BMAT, 4 * mu * eps)  # Theorem 1 printed: b^2 <= 4 mu eps
    ev = evaluate(get("even2022.theorem1"), "printed", matrices={"b": BMAT}, r=r, sigma2=1.0,
                  mu=mu, eps=eps)
    np.testing.assert_array_equal(ev.inputs["Neps"], lb)
    assert_close(ev.value, r**2 / (eps * lb))


def test_theorem1_printed_refuses_mu_other_than_one_over_r2():
    # mu = 2 with r = 1 would count neighbours at b^2 <= 8 eps while the bound uses r^2 = 1
    with pytest.raises(ValueError, match=r"Theorem 1 sets mu = 1/r\^2: mu=2 but r=1 gives "
                                         r"1/r\^2=1"):
        evaluate(get("even2022.theorem1"), "printed", matrices={"b": BMAT}, r=1.0, sigma2=1.0,
                 mu=2.0, eps=0.01)


def test_corollary1_rho_from_threshold_weights():
    mu, eps = 1.0, 0.02
    close = (BMAT**2 <= mu * eps).astype(float)
    lam = close / close.sum(axis=1, keepdims=True)
    rho = _rho(lam)
    # these points give an irregular closeness graph: rho(W) > 1, so the corrected form refuses
    assert rho > 1
    with pytest.raises(HypothesisError, match="rho_W <= 1"):
        evaluate(get("even2022.corollary1"), "corrected", matrices={"b": BMAT}, mu=mu, L=2.0,
                  sigma2=1.0, eps=eps, F0=1.0)
    # clusters (a disjoint union of cliques) give rho(W) = 1 and the corrected form evaluates
    bc = _bias_from_points([0, 0, 0, 5, 5, 9])
    ev = evaluate(get("even2022.corollary1"), "corrected", matrices={"b": bc}, mu=mu, L=2.0,
                  sigma2=1.0, eps=eps, F0=1.0)
    assert ev.inputs["rho_W"] == pytest.approx(1.0, abs=1e-12)
    inv = np.mean(1 / np.array([3, 3, 3, 2, 2, 1.0]))
    assert ev.inputs["invN_mean"] == pytest.approx(inv, rel=RTOL)
    assert ev.value == ref_cor1_corrected(dict(mu=mu, L=2.0, sigma2=1.0, eps=eps, F0=1.0,
                                               invN_mean=inv))


def test_lemma4_per_pair_and_estimated_bmax():
    ev = evaluate(get("even2022.lemma4"), matrices={"b": BMAT}, mu=0.5)
    assert np.shape(ev.value) == (N7, N7)
    assert_close(ev.value, BMAT**2 / (2 * 0.5))
    vals = dict(F0=1.0, K=10, L=2.0, mu=1.0, sigma2=1.0, C=5, S=100, nu2=0.01, d_eff=2.0,
                D_star=1.0, u=0.01, Delta2=0.5, c_N=3.0)
    ev = evaluate(get("even2022.theorem4"), "corrected", matrices={"b": BMAT}, **vals)
    assert ev.inputs["b_max"] == 2.5
    assert ev.value == pytest.approx(float(ref_thm4_corrected(dict(vals, b_max=2.5))), rel=RTOL)
    ev = evaluate(get("even2022.corollary2"), "corrected", matrices={"b": BMAT}, nu2=0.1,
                  d_eff=3.0, Delta2=0.4, mu=1.0, eps=0.01, C=4, L=2.0, sigma2=1.0, F0=1.0)
    assert ev.inputs["N"] == N7 and ev.inputs["b_max"] == 2.5
    want = ref_cor2_corrected(dict(nu2=0.1, d_eff=3.0, Delta2=0.4, mu=1.0, eps=0.01, C=4.0,
                                   L=2.0, sigma2=1.0, F0=1.0, N=float(N7), b_max=2.5))
    for part, w in want.items():
        assert ev.value[part] == pytest.approx(float(w), rel=RTOL)


def test_theorem1_n_eff_threshold_is_strict():
    eps = 2.0**-14  # 36 eps = (3/64)^2 exactly
    b = _bias_from_points([0.0, 3.0 / 64, 1.0])
    assert b[0, 1] ** 2 == 36 * eps
    ev = evaluate(get("even2022.theorem1"), "explicit", matrices={"b": b}, d=11, eps=eps)
    np.testing.assert_array_equal(ev.inputs["N_eff"], _count(b, 36 * eps, strict=True))
