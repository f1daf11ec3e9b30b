"""Suite-level Holm correction (the checks of papers that declare no error family, in a suite):
the step-down levels against a reference implementation on p-values, and verdicts of Monte
Carlo checks whose t statistics are planted exactly."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from scipy.special import stdtr, stdtrit

from pflbounds.checking import Check, CheckKind, Verdict, mc_block
from pflbounds.running.executor import RunSpec, run_specs
from pflbounds.running.holm import holm_alphas

N_REPLICAS = 100


def weighted_holm_reference(p: Mapping[str, np.ndarray], level: float) -> dict[str, int]:
    """Textbook weighted Holm on explicit p-values: weights 1/(n m_c), hypotheses ordered by
    p/w, reject while p <= level * w / (weight not yet rejected)."""
    n = len(p)
    items = [(float(pj) * n * len(ps), c, float(pj), 1.0 / (n * len(ps)))
             for c, ps in p.items() for pj in ps]
    items.sort()
    left, out = 1.0, dict.fromkeys(p, 0)
    for _, c, pj, w in items:
        if pj > level * w / left:
            break
        out[c] += 1
        left -= w
    return out


def _counter(p: Mapping[str, np.ndarray]):
    return lambda alphas: {c: int(np.sum(ps <= alphas[c])) for c, ps in p.items()}


@pytest.mark.parametrize("seed", range(40))
def test_holm_alphas_match_the_reference_procedure(seed):
    rng = np.random.default_rng(seed)
    groups = {f"c{i}": rng.uniform(0, 1, rng.integers(1, 30)) ** rng.uniform(1, 12)
              for i in range(rng.integers(1, 7))}
    level = float(rng.choice([0.01, 0.05, 0.2]))
    alphas, r = holm_alphas(_counter(groups), {c: len(v) for c, v in groups.items()}, level)
    ref = weighted_holm_reference(groups, level)
    got = {c: int(np.sum(ps <= alphas[c])) for c, ps in groups.items()}
    assert got == ref
    assert r == sum(ref.values())


def test_holm_alphas_without_rejection_are_weighted_bonferroni():
    groups = {"a": np.full(4, 0.5), "b": np.full(1, 0.9)}
    alphas, r = holm_alphas(_counter(groups), {"a": 4, "b": 1}, 0.01)
    assert r == 0
    assert alphas == pytest.approx({"a": 0.01 / 8, "b": 0.01 / 2}, rel=1e-12)


def test_holm_alphas_equal_groups_is_classic_holm():
    # p = 0.001, 0.011, 0.02, 0.06 at level 0.05: 0.001 <= 0.05/4, 0.011 <= 0.05/3,
    # 0.02 <= 0.05/2, 0.06 > 0.05/1: three rejections (Bonferroni, 0.0125, would make one).
    p = {f"h{i}": np.array([v]) for i, v in enumerate((0.001, 0.011, 0.02, 0.06))}
    alphas, r = holm_alphas(_counter(p), dict.fromkeys(p, 1), 0.05)
    assert r == 3
    assert alphas["h3"] == pytest.approx(0.05)


def test_holm_alphas_refuse_an_empty_family_and_a_bad_level():
    with pytest.raises(ValueError, match="at least one comparison"):
        holm_alphas(lambda a: {}, {"a": 0}, 0.01)
    with pytest.raises(ValueError, match="level must lie in"):
        holm_alphas(lambda a: {"a": 0}, {"a": 1}, 1.5)


# ------------------------------------------------------------------- planted t statistics
def planted(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Samples with mean exactly bound + t * sd/sqrt(n) (sd 1), whatever the seed: the
    one-sided p-value of 'E <= bound' is 1 - T_{n-1}(t)."""
    z = np.linspace(-1.0, 1.0, n)
    z = (z - z.mean()) / z.std(ddof=1)
    t = stdtrit(n - 1.0, 1.0 - params["p"])
    samples = (1.0 + t / np.sqrt(n) + z)[:, None]
    return {"ks": np.array([1.0]), **mc_block(samples), "bound": np.array([1.0])}


def _check(name: str, p: float) -> Check:
    return Check(f"holmtest.{name}", f"planted p = {p}", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
                 planted, grid=({"p": p},), engine="mc", replicas=N_REPLICAS,
                 block_size=N_REPLICAS)


def test_planted_p_value_is_exact():
    ev = planted({"p": 0.004}, N_REPLICAS, np.random.SeedSequence(0))
    mean = ev["sum"][0] / N_REPLICAS
    sd = np.sqrt((ev["sumsq"][0] - N_REPLICAS * mean**2) / (N_REPLICAS - 1))
    t = (mean - 1.0) / (sd / np.sqrt(N_REPLICAS))
    assert 1 - stdtr(N_REPLICAS - 1.0, t) == pytest.approx(0.004, rel=1e-9)


def _verdicts(checks, multiplicity):
    """``holm``: the suite's correction of checks no paper registers (as validate judges
    them); ``per-check``: each at its own level."""
    if multiplicity == "holm":
        out = run_specs([RunSpec(c) for c in checks], progress=False, undeclared="holm")
    else:
        out = run_specs([RunSpec(c) for c in checks], multiplicity=multiplicity,
                        progress=False)
    return {o.check_id.split(".")[1]: o for o in out}


def test_per_check_bonferroni_flags_what_the_suite_level_correction_does_not():
    checks = [_check("a", 0.004), _check("b", 0.5), _check("c", 0.5)]
    per = _verdicts(checks, "per-check")
    holm = _verdicts(checks, "holm")
    assert per["a"].verdict is Verdict.VIOLATED  # 0.004 <= 0.01: a check on its own
    assert holm["a"].verdict is Verdict.INCONCLUSIVE  # 0.004 > 0.01/3: one of three checks
    assert "suite-level Holm" in holm["a"].detail and "Bonferroni over 1" in per["a"].detail
    rec = holm["a"].config["multiplicity"]
    assert rec == {"method": "holm", "family_level": 0.01, "alpha": pytest.approx(0.01 / 3),
                   "check_comparisons": 1, "comparisons": 3, "rejections": 0, "checks": 3}
    assert "multiplicity" not in per["a"].config


def test_holm_steps_down_after_a_clear_violation():
    # "z" is rejected at 0.01/3, leaving weight 2/3: "a" is then tested at 0.005 >= 0.004,
    # rejected, and "b" at 0.01 (p = 0.5): Holm stops with every level at 0.01.
    checks = [_check("a", 0.004), _check("b", 0.5), _check("z", 1e-12)]
    holm = _verdicts(checks, "holm")
    assert holm["z"].verdict is Verdict.VIOLATED
    assert holm["a"].verdict is Verdict.VIOLATED
    assert holm["b"].verdict is Verdict.INCONCLUSIVE
    assert holm["b"].config["multiplicity"]["alpha"] == pytest.approx(0.01)
    assert holm["a"].config["multiplicity"]["rejections"] == 2


def test_deterministic_checks_stay_out_of_the_family():
    exact = Check("holmtest.exact", "exact", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
                  lambda p, n, ss: {"ks": np.array([1.0]), "mean": np.array([0.5]),
                                    "bound": np.array([1.0])}, grid=({},), engine="exact")
    holm = _verdicts([exact, _check("a", 0.004)], "holm")
    assert "multiplicity" not in holm["exact"].config
    assert holm["a"].config["multiplicity"]["checks"] == 1
    assert holm["a"].verdict is Verdict.VIOLATED  # the only Monte Carlo check: level 0.01
