"""Package exports load lazily: one submodule does not drag in cvxpy or JAX."""

from __future__ import annotations

import subprocess
import sys

import pytest

import pflbounds.algorithms as algorithms
import pflbounds.problems as problems


@pytest.mark.parametrize("package", [problems, algorithms])
def test_every_export_resolves_to_its_module(package):
    for name, sub in package.EXPORTS.items():
        value = getattr(package, name)
        assert getattr(sys.modules[f"{package.__name__}.{sub}"], name) is value


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        problems.nope  # noqa: B018


def test_one_submodule_does_not_import_the_solvers():
    code = ("import sys\nfrom pflbounds.problems import sinkhorn\n"
            "import pflbounds.algorithms.collaborative\n"
            "print(sorted(m for m in ('cvxpy', 'jax', 'sklearn') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=True, timeout=300)
    assert r.stdout.strip() == "[]"
