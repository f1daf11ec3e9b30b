"""scott2024 training checks on population A: the catalog forms they evaluate, and (slow) the
evidence of short runs."""

import numpy as np
import pytest

from pflbounds.papers.scott2024.checks import training as tr


def test_theorem_forms_differ_as_the_paper_prints_them():
    v = dict(Delta0=2.0, L1=2.5, b1=4.0, b2=6.0, sigma1_2=16.0, sigma2_2=0.0, sigma3_2=0.0,
             b=20.0, L=135.0, gammaG2=3.0, c=5.0, T=1000.0, k=5.0)
    printed = tr.form_value("theorem3_1", "printed", **v)
    rederived = tr.form_value("theorem3_1", "rederived", **v)
    head = v["L"] * (6 * 16 + 4 * 5 * 3) / (5 * np.sqrt(5000))
    assert rederived - printed == pytest.approx(head, rel=1e-12)  # (iii) doubles (i)'s term
    beta = 2 * np.sqrt(5) / (5 * np.sqrt(1000))
    assert tr.form_value("theorem3_1", "explicit", beta=beta, **v) == pytest.approx(
        rederived, rel=1e-12)
    assert not tr.conditions_hold("theorem3_1", "corrected", beta=beta, **v)
    assert tr.conditions_hold("theorem3_1", "corrected", **dict(v, beta=1e-9))
    L = tr.form_value("lemmaC1", "printed", b1=2.0, b2=3.0, L1=0.5, L2=1.5, L3=0.1)
    assert L == pytest.approx(2 * 1.5 + 9 * 0.5 + 0.1)


@pytest.mark.slow
def test_p1_evidence_on_a_short_run():
    p = tr._pts(T=200, c=5, k=5)
    out = tr.simulate_p1(p, 2, np.random.SeedSequence(3))
    assert out["samples"].shape == (2, len(tr.THEOREM_FORMS))
    assert np.all(out["bound"] > out["samples"].max())  # every form holds, by far
    assert float(out["step_conditions_hold"]) == 0.0  # C7: T is far below T_min
    assert float(out["F_T"]) >= float(out["F_star"])
    assert float(out["const_L"]) == pytest.approx(
        out["const_b1"] * out["const_L2"] + out["const_b2"] ** 2 * out["const_L1"]
        + out["const_L3"])
    again = tr.simulate_p1(p, 2, np.random.SeedSequence(3))
    assert np.array_equal(again["samples"], out["samples"])


@pytest.mark.slow
def test_p6_step_length_forms_are_ordered():
    out = tr.simulate_p6(tr._pts(T=2000, T0=20, c=5, k=5, what="C5"), 50,
                         np.random.SeedSequence(0))
    printed, explicit, corrected = out["bound"]
    assert printed == explicit  # b = m: sigma_2 = sigma_3 = 0
    assert corrected > printed  # b2^2 > 1 multiplies the sigma_1^2 term
    assert out["samples"].mean() < printed


def test_fixed_start_gives_every_replica_the_same_eta0():
    inst, arch, _ = tr.setup(tr._pts(T=10, c=2, k=1, n=4, m=5))
    a = tr.fixed_start(arch, inst.n, 0, 3)
    b = tr.fixed_start(arch, inst.n, 1, 3)
    ha, hb = np.asarray(a["h"][0]["W"]), np.asarray(b["h"][0]["W"])
    assert ha.shape[0] == 3 and np.array_equal(ha[0], ha[2])
    assert not np.array_equal(ha[0], hb[0])  # another init seed, another eta_0


def test_p1_figure_has_every_form_against_T():
    from pflbounds.checking.outcome import Outcome

    evs = [{"params": tr._pts(T=T, c=5, k=5), "mean": np.full(6, 1.0 / T),
            "lo": np.full(6, 0.9 / T), "hi": np.full(6, 1.1 / T),
            "bound": np.arange(1.0, 7.0) * 1e4 / T} for T in (8000, 500, 2000)]
    evs.append({"params": tr._pts(T=2000, c=10, k=2), "mean": np.full(6, 1e-3),
                "bound": np.full(6, 5.0)})
    o = Outcome("scott2024.P1", "bound_holds", "HOLDS", "HOLDS", evidence=evs)
    figs = tr.p1_against_T(o)
    assert len(figs) == 1  # (10, 2) has one T only
    labels = [s["label"] for s in figs[0]["series"]]
    assert len(labels) == 1 + len(tr.THEOREM_FORMS)
    assert figs[0]["series"][0]["x"] == [500.0, 2000.0, 8000.0]
    assert figs[0]["series"][-1]["y"][0] == pytest.approx(6e4 / 500)  # corrected, T = 500


@pytest.mark.slow
def test_minibatch_variance_is_a_diagnostic_only():
    """Switching the sigma_1^2 diagnostic off (the default) keeps the trajectory bit for bit
    and reports NaN; on, it is the exact variance, positive with a local minibatch."""
    import jax

    from pflbounds.algorithms import pefll

    p = tr._pts(T=6, c=2, k=2, n=6, m=5, record_every=3)
    inst, arch, data = tr.setup(p)
    keys = jax.random.split(jax.random.key(5), 2)
    on = pefll.train(arch, data, tr.config(p, minibatch_variance=True), keys)
    off = pefll.train(arch, data, tr.config(p), keys)
    flat = [np.asarray(jax.flatten_util.ravel_pytree(o["eta"])[0]) for o in (on, off)]
    assert np.array_equal(*flat)
    assert np.array_equal(np.asarray(on["trace"]["grad2"]), np.asarray(off["trace"]["grad2"]))
    assert np.all(np.asarray(on["sigma1_2"]) > 0)
    assert np.all(np.isnan(np.asarray(off["sigma1_2"])))


def test_p2_figure_draws_the_claim_boundary_not_the_band_centre():
    from pflbounds.checking.outcome import Outcome

    T = [500.0, 2000.0, 8000.0]
    evs = [{"point": i, "params": tr._pts(T=int(t), c=5, k=5, init=0), "lo": [0.9 / t],
            "hi": [1.1 / t]} for i, t in enumerate(T)]
    fit = {"points": [0, 1, 2], "x": T, "cost": [1 / t for t in T], "slope": -1.0,
           "intercept": 0.0, "estimate": -1.0, "lo": -1.2, "hi": -0.8, "predicted": -1.5,
           "tolerance": 1.0}
    o = Outcome("scott2024.P2", "scaling", "HOLDS", "HOLDS", evidence=evs, fits=[fit])
    (fig,) = tr.plot_p2(o)
    labels = [s["label"] for s in fig["series"]]
    assert labels[-1].startswith("claim boundary: slope -1/2")
    assert not any("-1.5" in lab for lab in labels)
    ref = fig["series"][-1]["y"]
    assert np.log(ref[2] / ref[0]) / np.log(16) == pytest.approx(-0.5)
    assert fig["series"][0]["lo"] == pytest.approx([0.9 / t for t in T])
