"""scott2024's communication counts (theory/communication_costs.py,
checks/communication_costs.py): the floats per round by hand, the paper's LeNet sizes, and P14
ending with its expected verdict."""

from __future__ import annotations

import pytest

from pflbounds.checking import bound
from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.papers.scott2024.checks.communication_costs import lenet_size
from pflbounds.papers.scott2024.theory.communication_costs import (
    COMMUNICATION,
    COMMUNICATION_FEDAVG,
)
from pflbounds.running import run_check


def test_floats_per_round_by_hand():
    c, d, dv, l = 5, 121182, 2000, 25
    assert float(bound(COMMUNICATION, c=c, dtheta=d, deta_v=dv, l_desc=l)) == 2 * c * (d + dv + l)
    assert float(bound(COMMUNICATION_FEDAVG, c=c, dtheta=d)) == 2 * c * d


def test_lenet_sizes_of_table_3():
    # conv 5x5 3->16, conv 5x5 16->32, FC 800->120, FC 120->84, FC 84->C, weights and biases
    by_hand = 3 * 25 * 16 + 16 + 16 * 25 * 32 + 32 + 800 * 120 + 120 + 120 * 84 + 84
    assert lenet_size(3, 10) == by_hand + 84 * 10 + 10 == 121182
    assert lenet_size(3, 100) == by_hand + 84 * 100 + 100 == 128832


@pytest.mark.parametrize("cid", ["P14"])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"scott2024.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail
