"""Theorem B.1 of scott2024 (App. B): the learning-to-learn PAC-Bayes bound, its two parts and
the pieces of Part I's proof (Gamma(lambda), lambda*, Gamma(lambda*)), printed and corrected
(digest §4.2.2).

The calculator cannot take the expectation over the sampled networks in the sample-level
term E_{eta~ ~ Q} sqrt((sum_i KL_i + ...)/(2mn)); it takes the mean of sum_i KL_i instead,
which by Jensen's inequality gives a value >= the paper's term: the calculator's bound is
never tighter than the theorem's.
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.scott2024.assumptions import PAC
from pflbounds.papers.scott2024.errata import ERRATA
from pflbounds.papers.scott2024.paper import cond, form, result
from pflbounds.papers.scott2024.symbols import (
    Kc,
    KLmeta,
    KLsum,
    M,
    delta,
    er_hat,
    lam_pb,
    m,
    n,
)
from pflbounds.symbolic.result import Kind

DELTA_POSITIVE = cond(sp.Gt(delta, 0), "delta > 0")
DELTA_AT_MOST_1 = cond(sp.Le(delta, 1), "delta <= 1")
N_AT_LEAST_8 = cond(sp.Ge(n, 8), "n >= 8 (Maurer's bound in Part II)")


def meta_term(kl: sp.Basic, conf: sp.Basic = delta) -> sp.Basic:
    """Client-level term sqrt((KL(Q||P) + log(4 sqrt(n)/delta))/(2n)) of Theorem B.1 (6)
    and Theorem 3.2 (3), scott2024."""
    return sp.sqrt((kl + sp.log(4 * sp.sqrt(n) / conf)) / (2 * n))


def sample_term(kl_sum: sp.Basic, conf: sp.Basic = delta) -> sp.Basic:
    """Sample-level term sqrt((sum_i KL_i + log(8mn/delta) + 1)/(2mn)) of Theorem B.1 (6)
    and (23), scott2024."""
    return sp.sqrt((kl_sum + sp.log(8 * m * n / conf) + 1) / (2 * m * n))


THEOREM_B1 = result(
    "theoremB1", "Theorem B.1 (learning-to-learn PAC-Bayes bound)", Kind.UPPER_BOUND,
    "er(Q): expected loss on future clients of the meta-posterior Q", "f",
    "With probability >= 1 - delta over the observed clients, for all Q: er(Q) <= er^(Q) + M "
    "sqrt((KL(Q||P) + log(4 sqrt(n)/delta))/(2n)) + M E_{A~Q} sqrt((sum_i KL(A(S_i)||P) + "
    "log(8mn/delta) + 1)/(2mn)).",
    [form("printed", er_hat + M * meta_term(KLmeta) + M * sample_term(KLsum),
          "KLsum: sum_i KL(A(S_i)||P) (its mean over A ~ Q gives a looser value, Jensen)."),
     form("corrected", er_hat + M * meta_term(KLmeta) + M * sample_term(KLsum),
          "delta in (0, 1] and n >= 8 made explicit (erratum19, erratum20).",
          conditions=(DELTA_AT_MOST_1, N_AT_LEAST_8))],
    source="Theorem B.1, App. B", equations=("6", "23", "24", "26"), hypotheses=(PAC.id,),
    conditions=(DELTA_POSITIVE,), errata=(ERRATA["erratum19"], ERRATA["erratum20"]),
    quantity_typst="\"er\"(cal(Q))",
    unchecked=("tested in parts by other results' checks. Checks P9_part1 and P9_part2 test its "
               "two parts, each at delta/2."),
    no_method=("a PAC-Bayes bound for any meta-posterior Q and any client algorithm A "
               "(Theorem 3.2 instantiates it for PeFLL)"),
)

THEOREM_B1_PART1 = result(
    "theoremB1_part1", "Theorem B.1, Part I (sample level)", Kind.UPPER_BOUND,
    "er~(Q) - er^(Q): expected minus empirical loss on the observed clients", "f",
    "With probability >= 1 - delta/2, for all Q: er~(Q) - er^(Q) <= M E_{A~Q} sqrt((sum_i "
    "KL(A(S_i)||P) + log(8mn/delta) + 1)/(2mn)).",
    [form("printed", M * sample_term(KLsum), "(23), Delta_i with the corrected sign (erratum15).")],
    source="Theorem B.1, Part I", equations=("8", "23"), hypotheses=(PAC.id,),
    conditions=(DELTA_POSITIVE,), errata=(ERRATA["erratum15"],),
    quantity_typst="tilde(\"er\")(cal(Q)) - hat(\"er\")(cal(Q))",
    no_method=("a PAC-Bayes bound for any meta-posterior Q and any client algorithm A "
               "(Theorem 3.2 instantiates it for PeFLL)"),
)

THEOREM_B1_PART2 = result(
    "theoremB1_part2", "Theorem B.1, Part II (client level)", Kind.UPPER_BOUND,
    "er(Q) - er~(Q): future-client minus observed-client expected loss", "f",
    "With probability >= 1 - delta/2, for all Q: er(Q) - er~(Q) <= M sqrt((KL(Q||P) + "
    "log(4 sqrt(n)/delta))/(2n)) (Maurer's bound with delta/2, then Pinsker).",
    [form("printed", M * meta_term(KLmeta)),
     form("corrected", M * meta_term(KLmeta), "n >= 8 (erratum20).", conditions=(N_AT_LEAST_8,))],
    source="Theorem B.1, Part II", equations=("24",), hypotheses=(PAC.id,),
    conditions=(DELTA_POSITIVE,), errata=(ERRATA["erratum20"],),
    quantity_typst="\"er\"(cal(Q)) - tilde(\"er\")(cal(Q))",
    no_method=("a PAC-Bayes bound for any meta-posterior Q and any client algorithm A "
               "(Theorem 3.2 instantiates it for PeFLL)"),
)

GAMMA = result(
    "theoremB1_gamma", "Theorem B.1, Part I: Gamma(lambda)", Kind.IDENTITY,
    "Gamma(lambda): the Part I bound at a free parameter lambda in (1, 4mn)", "1",
    "Gamma(lambda) = K/(lambda - 1) + lambda/(8mn), K = sum_i KL(Q_i||P) + log(8mn/delta) "
    "((20)-(21), after the union bound over lambda in {1, ..., 4mn}): with probability >= "
    "1 - delta/2 the Part I gap is at most Gamma(lambda) for every lambda in (1, 4mn).",
    [form("printed", Kc / (lam_pb - 1) + lam_pb / (8 * m * n),
          "(20)-(21) hold for lambda in (1, 4mn) only: the union bound covers the grid "
          "{1, ..., 4mn} and 1/floor(lambda) <= 1/(lambda - 1) needs lambda > 1.")],
    relation="=", source="Proof of Theorem B.1, Part I", equations=("20", "21"),
    conditions=(cond(sp.Gt(lam_pb, 1), "lambda > 1"),
                cond(sp.Lt(lam_pb, 4 * m * n), "lambda < 4mn (20)")),
    hypotheses=(PAC.id,), quantity_typst="Gamma(lambda)",
    example={"Kc": 10.0, "lam_pb": 50.0, "m": 20, "n": 10},
    unchecked=("tested inside another result's check. The check of erratum16 substitutes "
               "lambda* into this Gamma and bounds it."),
)

LAMBDA_STAR = result(
    "theoremB1_lambda_star", "Theorem B.1, Part I: lambda*", Kind.IDENTITY,
    "lambda*: the choice of lambda in Part I", "1",
    "lambda* = sqrt(8mn (sum_i KL + log(8mn/delta)) + 1) as printed (+1 inside the root).",
    [form("printed", sp.sqrt(8 * m * n * Kc + 1), "The +1 inside the root (as printed)."),
     form("corrected", sp.sqrt(8 * m * n * Kc) + 1,
          "The reading the derivation uses (erratum16): Gamma(lambda*) = sqrt(K/(2mn)) + "
          "1/(8mn).")],
    relation="=", source="Proof of Theorem B.1, Part I", equations=("22",),
    errata=(ERRATA["erratum16"],), quantity_typst="lambda^*",
    unchecked=("tested inside another result's check. The check of erratum16 evaluates both "
               "readings of lambda*."),
)

_LAMBDA_STAR_IN_RANGE = cond(
    sp.Lt(sp.sqrt(8 * m * n * Kc) + 1, 4 * m * n),
    "lambda* < 4mn: Gamma is the Part I bound for lambda in (1, 4mn) only (20)-(21)")

GAMMA_STAR = result(
    "theoremB1_gamma_star", "Theorem B.1, Part I: Gamma(lambda*)", Kind.UPPER_BOUND,
    "Gamma(lambda*) with lambda* = sqrt(8mnK) + 1", "1",
    "Gamma(lambda*) = sqrt(K/(2mn)) + 1/(8mn) <= sqrt((K + 1)/(2mn)) when the bound is "
    "non-trivial (K + 1 < 2mn); if lambda* >= 4mn the paper instead notes that (22) holds "
    "trivially (its right side is >= 1), a case in which Gamma(lambda*) is not the Part I "
    "bound and can exceed sqrt((K + 1)/(2mn)).",
    [form("explicit", sp.sqrt(Kc / (2 * m * n)) + 1 / (8 * m * n),
          "The exact value, the Part I bound while lambda* < 4mn."),
     form("printed", sp.sqrt((Kc + 1) / (2 * m * n)),
          "The bound used in (22), claimed for the non-trivial case K + 1 < 2mn: exact "
          "algebra gives Gamma(lambda*) <= sqrt((K + 1)/(2mn)) iff K <= 2mn (2 - 1/(16mn))^2, "
          "so it fails for large K (K = 1000, m = n = 1: 22.37 against Gamma(lambda*) = "
          "22.49); K + 1 < 2mn also puts lambda* below 4mn.",
          conditions=(cond(sp.Lt(Kc + 1, 2 * m * n), "K + 1 < 2mn (non-trivial)"),))],
    source="Proof of Theorem B.1, (22)", equations=("22",), errata=(ERRATA["erratum16"],),
    conditions=(_LAMBDA_STAR_IN_RANGE,), quantity_typst="Gamma(lambda^*)",
    example={"Kc": 10.0, "m": 20, "n": 10},
    no_method="an inequality about the free parameter lambda of Part I's proof",
)

__all__ = ["DELTA_AT_MOST_1", "DELTA_POSITIVE", "N_AT_LEAST_8", "meta_term", "sample_term"]
