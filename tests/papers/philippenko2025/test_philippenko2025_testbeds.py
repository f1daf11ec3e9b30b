"""philippenko2025's own testbed TB-Q (digest §6.0) on the shared quadratic family."""

from __future__ import annotations

import numpy as np

from pflbounds.papers.philippenko2025.testbeds import tb_q


def test_tb_q_constants():
    fam = tb_q(np.array([0, 1, 0, 1]), np.array([[0.0, 0], [3, 0]]), 2.0, 1.0)
    assert fam.mu == fam.L == 2.0 and np.allclose(fam.sigma2_agents, 1.0)
    assert np.allclose(fam.bias_matrix()[0, 1], 6.0)
