"""The restricted value grammar: numbers, names, operators, functions; never eval."""

from __future__ import annotations

import math

import pytest
import sympy
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sympy.parsing import sympy_parser

from pflbounds.symbolic import parsing
from pflbounds.symbolic.parsing import (
    ParseError,
    parse_assignments,
    parse_value,
    resolve_assignments,
)


@pytest.mark.parametrize(
    "text, want",
    [
        ("0.1", 0.1),
        ("3", 3.0),
        ("5.", 5.0),
        (".5", 0.5),
        ("1e-3", 1e-3),
        ("2.5E+2", 250.0),
        ("  7  ", 7.0),
        ("-3", -3.0),
        ("+3", 3.0),
        ("--3", 3.0),
        ("1 + 2 * 3", 7.0),
        ("(1 + 2) * 3", 9.0),
        ("1 - 2 - 3", -4.0),
        ("8 / 4 / 2", 1.0),
        ("2^3", 8.0),
        ("2**3", 8.0),
        ("2^3^2", 512.0),
        ("-2^2", -4.0),
        ("2^-1", 0.5),
        ("log(exp(2))", 2.0),
        ("ln(1)", 0.0),
        ("sqrt(16)", 4.0),
        ("min(3, 1, 2)", 1.0),
        ("max(3, 1, 2)", 3.0),
        ("max(1/(2*4), 0.1)", 0.125),
        ("inf", math.inf),
        ("1e307*10", 1e308),
    ],
)
def test_numbers_and_operators(text, want):
    got = parse_value(text)
    assert isinstance(got, float)
    assert got == pytest.approx(want, rel=1e-15)


def test_names_resolve_to_given_values():
    assert parse_value("1/(2*L)", {"L": 4.0}) == 0.125
    assert parse_value("mu*eps/(2*L*sigma2)", {"mu": 1, "eps": 0.1, "L": 2, "sigma2": 0.5}) == (
        pytest.approx(0.05)
    )
    assert parse_value("log(F0/eps)", {"F0": math.e**2, "eps": 1.0}) == pytest.approx(2.0)
    assert parse_value("K_1 + x2", {"K_1": 1, "x2": 2}) == 3.0


@pytest.mark.parametrize(
    "text, names, pieces",
    [
        ("__import__('os')", {}, ["unexpected character", "'"]),
        ("__import__", {}, ["unknown name '__import__'"]),
        ("os.system('ls')", {}, ["unexpected character '.'"]),
        ("L.real", {"L": 1.0}, ["unexpected character '.'"]),
        ("(1).__class__", {}, ["unexpected character '.'"]),
        ("L[0]", {"L": 1.0}, ["unexpected character '['"]),
        ("lambda: 1", {}, ["unexpected character ':'"]),
        ("x", {}, ["unknown name 'x'", "give it a value first"]),
        ("2*mu", {"L": 1.0}, ["unknown name 'mu'"]),
        ("eval(1)", {}, ["unknown function 'eval'", "allowed: exp, ln, log, max, min, sqrt"]),
        ("open(1)", {}, ["unknown function 'open'"]),
        ("1 2", {}, ["unexpected '2'"]),
        ("1 + 2)", {}, ["unexpected ')'"]),
        ("(1 + 2", {}, ["expected ')' but found end of input"]),
        ("1 +", {}, ["expected a value but found end of input"]),
        ("", {}, ["expected a value but found end of input"]),
        ("*3", {}, ["unexpected '*'"]),
        ("max(1,", {}, ["expected a value"]),
        ("1/0", {}, ["division by zero"]),
        ("log(0)", {}, ["undefined"]),
        ("sqrt(-1)", {}, ["undefined"]),
        ("1;2", {}, ["unexpected character ';'"]),
        ("0.1.2", {}, ["unexpected '.2'"]),
        ("3 = 4", {}, ["unexpected character '='"]),
    ],
)
def test_rejections_have_clear_messages(text, names, pieces):
    with pytest.raises(ParseError) as info:
        parse_value(text, names)
    msg = str(info.value)
    for p in pieces:
        assert p in msg, (p, msg)


def test_message_quotes_the_input():
    with pytest.raises(ParseError, match=r"in '1/\(2\*M\)'"):
        parse_value("1/(2*M)", {"L": 1})


@pytest.mark.parametrize("text, piece", [
    ("2^10000", "2^10000 overflows double precision"),
    ("exp(1000)", "exp(1000) overflows double precision"),
    ("exp(710)", "exp(710) overflows"),
    ("0^-1", "0^(-1) is a division by zero"),
    ("(-8)^(1/3)", "(-8)^0.3333333333333333 is not a real number"),
    ("10^400", "10^400 overflows"),
    ("1e400", "1e400 overflows double precision"),
    ("1e200*1e200", "the product of 1e+200 and 1e+200 overflows"),
    ("1e308+1e308", "the sum overflows"),
    ("-1e308-1e308", "the difference overflows"),
    ("1e300/1e-300", "the quotient of 1e+300 and 1e-300 overflows"),
    ("log(1, 1)", "log(1, 1) is undefined"),
    ("log(-1)", "log needs a number > 0"),
    ("sqrt(1, 2)", "sqrt takes 1 argument, got 2"),
    ("exp()", "unexpected ')'"),
])
def test_arithmetic_failures_are_parse_errors_that_say_why(text, piece):
    with pytest.raises(ParseError) as info:
        parse_value(text)
    msg = str(info.value)
    assert piece in msg, msg
    assert "(34," not in msg and "math range error" not in msg and ".0,)" not in msg


def test_infinity_by_name_stays_infinity():
    assert parse_value("inf*2") == math.inf and parse_value("-inf") == -math.inf
    assert parse_value("min(inf, 3)") == 3.0


@pytest.mark.parametrize("text", [
    "(" * 400 + "1" + ")" * 400,
    "^".join(["2"] * 150),
    "-" * 300 + "1",
    "sqrt(" * 120 + "1" + ")" * 120,
    "(" * 200000,
])
def test_deep_nesting_is_refused_before_the_stack_runs_out(text):
    with pytest.raises(ParseError) as info:
        parse_value(text)
    msg = str(info.value)
    assert f"nesting deeper than {parsing.MAX_DEPTH}" in msg or "longer than" in msg
    assert len(msg) < 200  # the text is quoted by its start, not whole


def test_nesting_up_to_the_limit_is_read():
    depth = parsing.MAX_DEPTH - 1
    assert parse_value("(" * depth + "2" + ")" * depth) == 2.0
    assert parse_value("-" * (parsing.MAX_DEPTH - 2) + "1") == 1.0


def test_long_values_are_refused():
    text = "+".join(["1"] * 600)
    with pytest.raises(ParseError, match=r"value longer than 1000 characters \(1199\)"):
        parse_value(text)
    assert parse_value("+".join(["1"] * 500)) == 500.0


# ----------------------------------------------------------------------------- fuzzing
_ALPHABET = "0123456789.eE+-*/^(),_ abcdxyzLmuKlogexpsqrtminax'\"[]{}:;=@!#%&|<>~`\\\n\t"
_NAMES = {"L": 2.0, "mu": 0.5, "K": 10.0, "x": 3.0}


def _no_code_runs(monkeypatch):
    """Make every route from the parser to code execution loud."""

    def boom(*a, **k):
        raise AssertionError("code execution attempted")

    for name in ("eval", "exec", "compile", "__import__"):
        # module globals shadow builtins for every call made from the parser module
        monkeypatch.setattr(parsing, name, boom, raising=False)
    monkeypatch.setattr(sympy, "sympify", boom)
    monkeypatch.setattr(sympy_parser, "parse_expr", boom)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=_ALPHABET, max_size=40))
@example("__import__('os').system('echo hi')")
@example("().__class__.__bases__[0].__subclasses__()")
@example("exp(log(2))")
def test_arbitrary_text_is_a_float_or_a_parse_error(monkeypatch, text):
    _no_code_runs(monkeypatch)
    try:
        got = parse_value(text, _NAMES)
    except ParseError:
        return
    assert isinstance(got, float)  # a real number or a ParseError, nothing else


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_arbitrary_unicode_never_executes(text):
    try:
        got = parse_value(text)
    except (ParseError, OverflowError, ZeroDivisionError):
        return
    assert isinstance(got, (float, complex))


_num = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(_num, _num, st.sampled_from(["+", "-", "*"]))
def test_binary_arithmetic_matches_python(a, b, op):
    text = f"({a!r}) {op} ({b!r})"
    want = {"+": a + b, "-": a - b, "*": a * b}[op]
    assert parse_value(text) == want


# ----------------------------------------------------------------------------- assignments
def test_parse_assignments_splits_words():
    assert parse_assignments(["mu=1", " L = 2 ", "eta=1/(2*L)"]) == {
        "mu": "1", "L": "2", "eta": "1/(2*L)"}


@pytest.mark.parametrize(
    "words, piece",
    [
        (["mu"], "expected name=value, got 'mu'"),
        (["mu="], "expected name=value, got 'mu='"),
        (["=1"], "expected name=value, got '=1'"),
        (["1mu=1"], "expected name=value, got '1mu=1'"),
        (["a-b=1"], "expected name=value"),
        (["mu=1", "mu=2"], "mu is given twice"),
    ],
)
def test_parse_assignments_rejects_bad_words(words, piece):
    with pytest.raises(ParseError) as info:
        parse_assignments(words)
    assert piece in str(info.value)


def test_resolve_in_dependency_order():
    raw = {"eta": "1/(2*L)", "T": "K*N", "L": "kappa*mu", "kappa": "10", "mu": "0.5",
           "K": "100", "N": "4"}
    got = resolve_assignments(raw)
    assert got == {"kappa": 10.0, "mu": 0.5, "K": 100.0, "N": 4.0, "L": 5.0, "eta": 0.1,
                   "T": 400.0}


def test_resolve_circular_definitions():
    with pytest.raises(ParseError, match="circular definitions among a, b"):
        resolve_assignments({"a": "b + 1", "b": "2*a"})
    with pytest.raises(ParseError, match="circular definitions among a, b, c"):
        resolve_assignments({"a": "c", "b": "a", "c": "b", "d": "1"})


def test_resolve_self_reference_and_unknown_name():
    with pytest.raises(ParseError, match="a: unknown name 'a'"):
        resolve_assignments({"a": "a + 1"})
    with pytest.raises(ParseError, match="eta: unknown name 'L'"):
        resolve_assignments({"eta": "1/(2*L)", "mu": "1"})


def test_resolve_reports_the_assignment_with_a_syntax_error():
    with pytest.raises(ParseError, match=r"^eta: unexpected character"):
        resolve_assignments({"mu": "1", "eta": "1/(2*mu))'"})
