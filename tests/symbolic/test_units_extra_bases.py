"""Extra base dimensions beyond [f] and [x] (declared by name)."""

from fractions import Fraction

import pytest
import sympy as sp

from pflbounds.symbolic.units import (
    DimensionError,
    Unit,
    declare_base_dimension,
    dimension,
    extra_base_dimensions,
)


def test_declared_base_parses_and_combines():
    declare_base_dimension("qq")
    u = Unit.parse("f/qq")
    assert u == Unit(f=Fraction(1), extra=(("qq", Fraction(-1)),))
    assert str(u) == "[f]*[qq]^-1"
    assert (u * Unit.parse("qq")) == Unit.parse("f")
    assert (u**2).extra == (("qq", Fraction(-2)),)
    assert not u.dimensionless and (u / u).dimensionless
    assert "qq" in extra_base_dimensions()


def test_extra_base_enters_dimension_analysis():
    declare_base_dimension("qq")
    a, w = sp.symbols("a w", positive=True)
    units = {a: Unit.parse("f/qq"), w: Unit.parse("qq")}
    assert dimension(a * w, units) == Unit.parse("f")
    with pytest.raises(DimensionError, match="a sum mixes units"):
        dimension(a * w + a, units)


@pytest.mark.parametrize("bad", ["f", "x", "2a", "", "a-b"])
def test_bad_base_names_are_refused(bad):
    with pytest.raises(ValueError, match="bad base dimension name"):
        declare_base_dimension(bad)


def test_undeclared_base_still_refused():
    with pytest.raises(ValueError, match="unknown base dimension 'zz_undeclared'"):
        Unit.parse("f/zz_undeclared")
