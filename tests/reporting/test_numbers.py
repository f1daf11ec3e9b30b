"""Numbers and parameters as the report prints them: never a Python repr."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking.verdicts import entry_text
from pflbounds.reporting.numbers import param_text, params_text, tidy_prose


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (np.float64(1.23456), "1.235"), (np.int64(7), "7"), (2.0, "2"),
        (True, "yes"), (np.bool_(False), "no"), ((3,), "3"), ([0.5, 2], "(0.5, 2)"),
        (np.array([1.0, 2.5]), "(1, 2.5)"), ({"a": 1, "b": (2, 3)}, "{a=1, b=(2, 3)}"),
        ("mx2", "mx2"), (None, "none"),
    ],
)
def test_param_text(value, text):
    assert param_text(value) == text


def test_params_text_and_tidy_prose_leave_no_repr():
    assert params_text({"lo": 0.6, "shared": True, "ks": (10,)}) == "lo=0.6, shared=yes, ks=10"
    detail = ('at group {"Lp": 0.2, "isotropic": true, "ks": [1, 2]}, entry (0,), '
              "np.float64(0.123456789), isotropic=True, shared=False; True-gradient")
    assert tidy_prose(detail) == ("at group {Lp=0.2, isotropic=yes, ks=(1, 2)}, entry 0, "
                                  "0.1235, isotropic=yes, shared=no; True-gradient")


def test_entry_text():
    assert entry_text((2,)) == "entry 2"
    assert entry_text((np.int64(2), 0)) == "entry (2, 0)"
