"""Constants scoped by paper and the paper loader, on the test-only papers."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.cli import main
from pflbounds.symbolic import catalog, evaluate, loader
from pflbounds.symbolic.constants import constant, get_constant
from pflbounds.symbolic.evaluate import InputError


def test_second_paper_loads_next_to_even2022_and_evaluates(extra_paper, capsys):
    extra_paper("toypaper")
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "toypaper.theorem1" in out and "even2022.theorem2" in out
    assert set(catalog.papers()) >= {"toypaper", "even2022"}

    r = catalog.get("toypaper.theorem1")
    v = evaluate(r, "printed", eta=0.1, mu=1.0, L=2.0, K=10, Delta0=1.0, sigma2=1.0, B=4).value
    assert v == pytest.approx(0.9**10 + 0.1 * 2.0 / (2 * 4))
    assert main(["eval", "toypaper.theorem1", "eta=0.1", "mu=1", "L=2", "K=10", "Delta0=1",
                 "sigma2=1", "B=4", "--json"]) == 0
    assert f'"value": {v!r}' in capsys.readouterr().out
    r.dimension_check("printed")  # units come from the paper's own declarations


def test_same_names_mean_different_things_per_paper(extra_paper, capsys):
    extra_paper("toypaper")
    catalog.load_papers()
    toy_B, even_B = get_constant("B", "toypaper"), get_constant("B", "even2022")
    assert toy_B.domain == "positive_integer" and even_B.domain == "nonnegative"
    assert toy_B.symbol.is_integer and not even_B.symbol.is_integer
    assert get_constant("b", "toypaper").meaning.startswith("local steps")
    assert get_constant("b", "even2022").meaning.startswith("bias bound")
    assert get_constant("L", "toypaper").meaning.endswith("average loss")
    assert get_constant("L", "even2022").meaning == "smoothness constant"  # the core's
    # a minibatch size must be an integer; even2022's bias factor need not be
    with pytest.raises(InputError, match=r"B=2\.5 is outside its domain: expected an integer"):
        evaluate(catalog.get("toypaper.theorem1"), eta=0.1, mu=1.0, L=2.0, K=10, Delta0=1.0,
                 sigma2=1.0, B=2.5)
    even = evaluate(catalog.get("even2022.theorem2"), "explicit", eta=0.25, mu=1.0, L=2.0,
                    K=10, Delta0=1.0, sigma2=1.0, V=0.5, B=2.5).value
    assert np.isfinite(even)
    # the paper's own notation is used when its results are printed
    assert r"\bar L" in catalog.get("toypaper.theorem1").latex()
    assert r"\bar L" not in catalog.get("even2022.theorem2").latex("explicit")


def test_redeclaration_in_one_scope_must_agree(extra_paper):
    extra_paper("toypaper")
    catalog.load_papers()
    assert constant("B", "minibatch size", "1", "positive_integer", paper="toypaper") is \
        get_constant("B", "toypaper").symbol
    with pytest.raises(ValueError, match="declared twice in paper toypaper"):
        constant("B", "minibatch size", "1", "positive", paper="toypaper")
    with pytest.raises(KeyError, match="unknown constant 'delta2' for paper toypaper"):
        get_constant("delta2", "toypaper")


def test_a_broken_paper_is_a_loud_one_line_error(extra_paper, capsys):
    extra_paper("brokenpaper")
    with pytest.raises(loader.PaperLoadError, match="paper 'brokenpaper' failed to load"):
        catalog.load_papers()
    assert main(["list"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "brokenpaper" in err[0] and "ZeroDivisionError" in err[0]
    assert "Traceback" not in err[0]
    # and again: the failure is remembered, not swallowed after the first try
    assert main(["check", "even2022.P1"]) == 2
    assert "brokenpaper" in capsys.readouterr().err


def test_paper_packages_lists_the_extra_ones_after_the_builtin(extra_paper):
    extra_paper("toypaper")
    names = loader.paper_packages()
    assert names.index("pflbounds.papers.even2022") < names.index("toypaper")


def test_eval_loads_only_the_paper_of_its_result(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys; from pflbounds.cli import main; "
        "rc = main(['eval', 'even2022.eq7', 'mu=1', 'L=2', 'K=100', 'DeltaLam0=1', "
        "'sigma2=1', 'SumLam2=2', 'N=2']); "
        "others = [m for m in sys.modules if m.startswith('pflbounds.papers.') "
        "and not m.startswith('pflbounds.papers.even2022')]; "
        "print(rc, others)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, check=True).stdout.strip().splitlines()[-1]
    assert out == "0 []"


def test_eval_of_a_sound_paper_works_beside_a_broken_one(extra_paper, capsys):
    extra_paper("brokenpaper")
    assert main(["eval", "even2022.eq7", "mu=1", "L=2", "K=100", "DeltaLam0=1", "sigma2=1",
                 "SumLam2=2", "N=2"]) == 0
    capsys.readouterr()
    assert main(["eval", "brokenpaper.x", "mu=1"]) == 2
    assert "paper 'brokenpaper' failed to load" in capsys.readouterr().err
