"""sympy's tensor module deferred (pflbounds.symbolic.deferred_tensor): sums come out the
same without it, and any use of tensors loads the real module. Each case runs in a fresh
interpreter, whose sys.modules it may change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SUMS = """
import json, sys
from pflbounds.symbolic.deferred_tensor import defer_tensor_module
deferred = defer_tensor_module() if sys.argv[1] == "defer" else False
import sympy as sp
x, y = sp.symbols("x y", positive=True)
K = sp.Symbol("K", integer=True, positive=True)
exprs = [x + y + 2 * x, sp.exp(-x) - 1 + x / 2, (1 - x * y) ** K + sp.Rational(1, 2) * x,
         sp.Max(x, y) + sp.log(2 * x / y), sp.Le(x, y), x - x, sp.Sum(x ** K, (K, 1, 3))]
print(json.dumps({"deferred": deferred, "srepr": [sp.srepr(e) for e in exprs],
                  "combinatorics": "sympy.combinatorics" in sys.modules,
                  "stand_in": type(sys.modules.get("sympy.tensor.tensor")).__name__}))
"""

TENSORS = """
import json, sys
from pflbounds.symbolic.deferred_tensor import defer_tensor_module
assert defer_tensor_module()
import sympy as sp
x = sp.Symbol("x")
before = type(sys.modules["sympy.tensor.tensor"]).__name__
s = x + 2 * x
from sympy.tensor.tensor import TensExpr, TensorIndexType, tensor_indices, TensorHead
import sympy.tensor.tensor as tt
L = TensorIndexType("L")
i = tensor_indices("i", L)
A, B = TensorHead("A", [L]), TensorHead("B", [L])
t = A(i) + B(i) + A(i)
print(json.dumps({"before": before, "after": type(sys.modules["sympy.tensor.tensor"]).__name__,
                  "same_module": tt is sys.modules["sympy.tensor.tensor"],
                  "attribute": sp.tensor.tensor is tt,
                  "real_class": TensExpr is tt.TensExpr and isinstance(t, TensExpr),
                  "sum": type(t).__name__, "text": str(t), "scalar": str(s + x),
                  "again": defer_tensor_module()}))
"""


def _run(code: str, *args: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                       env=env, timeout=300, check=True)
    return json.loads(r.stdout)


def test_sums_are_the_same_and_load_no_combinatorics():
    deferred, real = _run(SUMS, "defer"), _run(SUMS, "real")
    assert deferred["deferred"] is True and real["deferred"] is False
    assert deferred["srepr"] == real["srepr"]
    assert deferred["stand_in"] == "_Deferred" and deferred["combinatorics"] is False
    assert real["stand_in"] == "module" and real["combinatorics"] is True


def test_any_use_of_tensors_loads_the_real_module():
    got = _run(TENSORS)
    assert got["before"] == "_Deferred" and got["after"] == "module"
    assert got["same_module"] and got["attribute"] and got["real_class"]
    assert got["sum"] == "TensAdd" and got["text"] == "2*A(i) + B(i)"
    assert got["scalar"] == "4*x"
    assert got["again"] is False  # the real module is there: nothing to defer
