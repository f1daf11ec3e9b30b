"""Print sympy expressions as Typst math.

sympy ships LaTeX, MathML and text printers but none for Typst. This module adds one:

>>> import sympy as sp
>>> mu, K, sigma2 = sp.symbols("mu K sigma2", positive=True)
>>> typst_math(sigma2 / (mu * K))
'frac(sigma^2, K mu)'

The output is the inside of a Typst equation; :func:`typst_display` wraps it as a block
equation (``$ ... $``) and :func:`typst_inline` as an inline one (``$...$``).

Symbol names follow the rules of :mod:`pflbounds.symbolic.typst_names`.

Layout choices
--------------
* products are juxtaposed (``2 K mu``), with ``dot`` before a factor that starts with a
  number; negative powers become ``frac(a, b)``;
* sums lead with a positive term (``1 - eta mu``);
* inside superscripts fractions are written inline with a slash (``e^(-K mu\\/(2 L))``),
  since stacked fractions there are too small to read; an exponent longer than
  ``exp_inline_max`` characters, or holding a min/max/log/sum, prints as ``exp(...)``;
* ``Heaviside(a - b)`` prints as the indicator ``bb(1)_(a >= b)``; with ``H0 = 0``
  (``Heaviside(a - b, 0)``) the inequality is strict, ``bb(1)_(a > b)``;
* ``Min``/``Max`` print as ``min(...)``/``max(...)``, ``log`` as ``ln``, ``Abs`` as
  ``abs``, ``Piecewise`` as ``cases``.

Hidden constants
----------------
Any sympy ``Function`` subclass whose class sets ``hidden_constant = True`` and a
``typst_name`` (e.g. ``tilde(cal(O))``, ``cal(O)``, ``Omega``) prints as
``typst_name(inner)``. Objects may also define ``_typst(self, printer)`` to print themselves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import sympy as sp
from sympy.printing.precedence import PRECEDENCE, precedence_traditional
from sympy.printing.printer import Printer

from pflbounds.symbolic.typst_names import GREEK, attachment, symbol_to_typst, typst_string

__all__ = [
    "GREEK",
    "TypstPrinter",
    "symbol_to_typst",
    "typst_display",
    "typst_inline",
    "typst_math",
    "typst_string",
]

# Typst math operators that exist under the same name as the sympy function class.
_TYPST_OPERATORS = frozenset(
    "sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth det gcd lcm".split()
)


def _apply(name: str, args: str) -> str:
    """``name(args)``; a space keeps ``f_i (x)`` from parsing as ``f_(i(x))``."""
    sep = " " if ("_" in name or "^" in name) else ""
    return f"{name}{sep}({args})"


def _is_compound(text: str) -> bool:
    """True if ``text`` carries a superscript or a space outside parentheses and quotes.

    Such a symbol rendering (``sigma^2``, ``D^*``, a mapped ``sum_i lambda_i``) must be
    parenthesized before it is raised to a power.
    """
    depth = 0
    quoted = False
    prev = ""
    for ch in text:
        if quoted:
            quoted = not (ch == '"' and prev != "\\")
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch in "^ ":
            return True
        prev = ch
    return False


def _is_hidden_constant(expr: Any) -> bool:
    func = getattr(expr, "func", None)
    return (
        isinstance(expr, sp.Function)
        and getattr(func, "hidden_constant", False) is True
        and isinstance(getattr(func, "typst_name", None), str)
    )


class TypstPrinter(Printer):
    """sympy printer producing Typst math (the inside of ``$ ... $``).

    Settings: ``symbol_names`` (mapping sympy name -> Typst), ``float_digits`` (significant
    digits for floats, default 6), ``order`` (term order passed to sympy, default None),
    ``exp_inline_max`` (longest exponent, in characters of Typst source, still printed as
    ``e^(...)``; longer ones print as ``exp(...)``, default 40).
    """

    printmethod = "_typst"
    _default_settings: dict[str, Any] = {
        "symbol_names": None,
        "float_digits": 6,
        "order": None,
        "exp_inline_max": 40,
    }

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        super().__init__(settings)
        self._inline_frac = 0

    # -- helpers -----------------------------------------------------------------------------
    def parenthesize(self, item: Any, level: int, strict: bool = False) -> str:
        """Print ``item``, wrapped in parentheses if it binds less tightly than ``level``."""
        prec = precedence_traditional(item)
        if prec < level or (strict and prec == level):
            return f"({self._print(item)})"
        return self._print(item)

    def _needs_pow_parens(self, base: Any) -> bool:
        if isinstance(base, sp.Symbol):
            # sigma2 -> sigma^2 and D_star -> D^* already carry a superscript; a mapped
            # name containing spaces is a compound expression.
            return _is_compound(self._print(base))
        if isinstance(base, (sp.Pow, sp.exp)) or _is_hidden_constant(base):
            return True
        if isinstance(base, sp.Rational) and not base.is_Integer:
            return True
        if isinstance(base, sp.Float):
            return True
        if base.is_Number and base.is_negative:
            return True
        return precedence_traditional(base) <= PRECEDENCE["Pow"]

    def _print_factor(self, item: Any) -> str:
        """Print a factor of a product, parenthesizing sums and relations."""
        return self.parenthesize(item, PRECEDENCE["Mul"])

    def _join_factors(self, parts: list[str]) -> str:
        """Juxtapose factors; a factor starting with a digit or sign gets a ``dot``.

        Typst prints ``2 3`` as "23" and ``x 2`` as "x2", so numbers after the first factor
        need an explicit operator.
        """
        out = ""
        for s in parts:
            if not out:
                out = s
            elif s[:1].isdigit() or s[:1] in ".-":
                out += " dot " + s
            else:
                out += " " + s
        return out

    # -- atoms -------------------------------------------------------------------------------
    def emptyPrinter(self, expr: Any) -> str:  # noqa: N802 - sympy API name
        return typst_string(str(expr))

    def _print_str(self, expr: str) -> str:
        return typst_string(expr)

    def _print_Symbol(self, expr: sp.Symbol) -> str:
        return symbol_to_typst(expr.name, self._settings["symbol_names"])

    _print_Dummy = _print_Symbol

    def _print_Integer(self, expr: sp.Integer) -> str:
        return str(expr.p)

    def _print_int(self, expr: int) -> str:
        return str(expr)

    def _print_float(self, expr: float) -> str:
        return self._print_Float(sp.Float(expr))

    def _print_Rational(self, expr: sp.Rational) -> str:
        if expr.q == 1:
            return str(expr.p)
        sign = "-" if expr.p < 0 else ""
        if self._inline_frac:
            return f"{sign}{abs(expr.p)}\\/{expr.q}"
        return f"{sign}frac({abs(expr.p)}, {expr.q})"

    def _print_Float(self, expr: sp.Float) -> str:
        value = float(expr)
        if math.isnan(value):
            return '"NaN"'
        if math.isinf(value):
            return "infinity" if value > 0 else "-infinity"
        text = f"{value:.{self._settings['float_digits']}g}"
        if "e" not in text:
            return text
        mantissa, exponent = text.split("e")
        exp_int = int(exponent)
        if mantissa in ("1", "-1"):
            return f"{mantissa[:-1]}10^({exp_int})"
        return f"{mantissa} times 10^({exp_int})"

    def _print_Infinity(self, expr: Any) -> str:
        return "infinity"

    def _print_NegativeInfinity(self, expr: Any) -> str:
        return "-infinity"

    def _print_ComplexInfinity(self, expr: Any) -> str:
        return "tilde(infinity)"

    def _print_NaN(self, expr: Any) -> str:
        return '"NaN"'

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_Pi(self, expr: Any) -> str:
        return "pi"

    def _print_ImaginaryUnit(self, expr: Any) -> str:
        return "i"

    def _print_EulerGamma(self, expr: Any) -> str:
        return "gamma"

    def _print_BooleanTrue(self, expr: Any) -> str:
        return '"true"'

    def _print_BooleanFalse(self, expr: Any) -> str:
        return '"false"'

    # -- arithmetic --------------------------------------------------------------------------
    def _print_Add(self, expr: sp.Add) -> str:
        terms = list(self._as_ordered_terms(expr, order=self._settings["order"]))
        # Lead with a positive term when there is one: "1 - eta mu", not "-eta mu + 1".
        if terms[0].could_extract_minus_sign():
            first_pos = next((t for t in terms if not t.could_extract_minus_sign()), None)
            if first_pos is not None:
                terms.remove(first_pos)
                terms.insert(0, first_pos)
        out = ""
        for i, term in enumerate(terms):
            if term.could_extract_minus_sign():
                s = self._print_factor(-term) if (-term).is_Add else self._print(-term)
                out += ("-" if i == 0 else " - ") + s
            else:
                s = self._print(term)
                out += s if i == 0 else " + " + s
        return out

    def _split_fraction(self, expr: sp.Expr) -> tuple[list[Any], list[Any]]:
        """Split a (positive) product into numerator and denominator factors."""
        numer: list[Any] = []
        denom: list[Any] = []
        for f in expr.as_ordered_factors():
            if isinstance(f, sp.Rational) and not f.is_Integer:
                if f.p != 1:
                    numer.append(sp.Integer(f.p))
                denom.append(sp.Integer(f.q))
            elif (
                isinstance(f, sp.Pow)
                and f.exp.is_number
                and f.exp.is_extended_negative
                or isinstance(f, sp.Pow)
                and not f.exp.is_number
                and f.exp.could_extract_minus_sign()
            ):
                denom.append(f.base if f.exp == -1 else sp.Pow(f.base, -f.exp, evaluate=False))
            else:
                numer.append(f)
        return numer, denom

    def _print_product(self, factors: list[Any]) -> str:
        if not factors:
            return "1"
        if len(factors) == 1:
            return self._print(factors[0])
        parts = []
        for f in factors:
            if f.is_Number and f.is_negative:
                parts.append(f"({self._print(f)})")
            else:
                parts.append(self._print_factor(f))
        return self._join_factors(parts)

    def _print_Mul(self, expr: sp.Mul) -> str:
        # Unevaluated products with explicit numbers are shown factor by factor.
        if any(isinstance(a, sp.Number) for a in expr.args[1:]) or expr.args[0] is sp.S.One:
            return self._join_factors([self._print_factor(a) for a in expr.args])
        sign = ""
        if expr.could_extract_minus_sign():
            expr = -expr
            sign = "-"
            if not expr.is_Mul:
                return sign + self._print_factor(expr)
        numer, denom = self._split_fraction(expr)
        if not denom:
            return sign + self._print_product(numer)
        if self._inline_frac:
            return sign + self._slash_fraction(numer, denom)
        # A sum or relation alone in a numerator needs no parentheses inside frac().
        snum = self._print(numer[0]) if len(numer) == 1 else self._print_product(numer)
        sden = self._print(denom[0]) if len(denom) == 1 else self._print_product(denom)
        return f"{sign}frac({snum}, {sden})"

    def _slash_fraction(self, numer: list[Any], denom: list[Any]) -> str:
        """``a\\/b`` for fractions inside superscripts, parenthesized where needed."""
        snum = self._print_product(numer)
        if len(numer) == 1 and precedence_traditional(numer[0]) < PRECEDENCE["Mul"]:
            snum = f"({snum})"
        sden = self._print_product(denom)
        single = len(denom) == 1 and (
            denom[0].is_Atom
            or isinstance(denom[0], sp.Function)
            or (isinstance(denom[0], sp.Pow) and denom[0].base.is_Atom and denom[0].exp.is_Integer)
        )
        if not single:
            sden = f"({sden})"
        return f"{snum}\\/{sden}"

    def _print_exponent(self, exp: Any) -> str:
        """Print an exponent with inline slash fractions (stacked ones are unreadably small)."""
        self._inline_frac += 1
        try:
            return self._print(exp)
        finally:
            self._inline_frac -= 1

    def _print_Pow(self, expr: sp.Pow) -> str:
        base, exp = expr.base, expr.exp
        if exp is sp.S.Half:
            return f"sqrt({self._print(base)})"
        if exp.is_Rational and exp.p == 1 and exp.q > 2:
            return f"root({exp.q}, {self._print(base)})"
        if (exp.is_number and exp.is_extended_negative) or (
            not exp.is_number and exp.could_extract_minus_sign()
        ):
            inner = base if exp == -1 else sp.Pow(base, -exp, evaluate=False)
            if self._inline_frac:
                return self._slash_fraction([sp.S.One], [inner])
            return f"frac(1, {self._print(inner)})"
        sbase = self._print(base)
        if isinstance(base, sp.Symbol) and sbase.endswith("^*"):
            # D_star**2 -> D^(*2), the usual way to square a starred quantity.
            return f"{sbase[:-2]}^(*{self._print_exponent(exp)})"
        if self._needs_pow_parens(base):
            sbase = f"({sbase})"
        if exp.is_Rational and not exp.is_Integer:
            # An inline slash reads better than a stacked fraction in a superscript.
            return f"{sbase}^({exp.p}\\/{exp.q})"
        return f"{sbase}^{attachment(self._print_exponent(exp))}"

    def _print_exp(self, expr: sp.exp) -> str:
        """``e^(...)`` for short exponents, ``exp(...)`` for long or nested ones."""
        inline = self._print_exponent(expr.args[0])
        if len(inline) > self._settings["exp_inline_max"] or any(
            w in inline for w in ("min(", "max(", "ln(", "sum_", "cases(", "frac(")
        ):
            return f"exp({self._print(expr.args[0])})"
        return f"e^{attachment(inline)}"

    def _print_log(self, expr: sp.log) -> str:
        if len(expr.args) == 2:
            return f"log_{attachment(self._print(expr.args[1]))}({self._print(expr.args[0])})"
        return f"ln({self._print(expr.args[0])})"

    def _print_Abs(self, expr: sp.Abs) -> str:
        return f"abs({self._print(expr.args[0])})"

    def _print_floor(self, expr: Any) -> str:
        return f"floor({self._print(expr.args[0])})"

    def _print_ceiling(self, expr: Any) -> str:
        return f"ceil({self._print(expr.args[0])})"

    def _print_factorial(self, expr: Any) -> str:
        return f"{self.parenthesize(expr.args[0], PRECEDENCE['Atom'])}!"

    def _print_binomial(self, expr: Any) -> str:
        return f"binom({self._print(expr.args[0])}, {self._print(expr.args[1])})"

    def _print_Mod(self, expr: Any) -> str:
        a = self.parenthesize(expr.args[0], PRECEDENCE["Mul"])
        b = self.parenthesize(expr.args[1], PRECEDENCE["Mul"])
        return f"{a} mod {b}"

    def _minmax(self, name: str, expr: Any) -> str:
        args = sorted(expr.args, key=sp.default_sort_key)
        return f"{name}({', '.join(self._print(a) for a in args)})"

    def _print_Min(self, expr: sp.Min) -> str:
        return self._minmax("min", expr)

    def _print_Max(self, expr: sp.Max) -> str:
        return self._minmax("max", expr)

    # -- relations and logic -----------------------------------------------------------------
    _REL_OPS = {"==": "=", "!=": "!=", "<=": "<=", ">=": ">=", "<": "<", ">": ">"}

    def _print_Relational(self, expr: Any) -> str:
        op = self._REL_OPS.get(expr.rel_op, expr.rel_op)
        lhs = self.parenthesize(expr.lhs, PRECEDENCE["Relational"], strict=True)
        rhs = self.parenthesize(expr.rhs, PRECEDENCE["Relational"], strict=True)
        return f"{lhs} {op} {rhs}"

    def _print_And(self, expr: Any) -> str:
        args = sorted(expr.args, key=sp.default_sort_key)
        return ' " and " '.join(self.parenthesize(a, PRECEDENCE["And"]) for a in args)

    def _print_Or(self, expr: Any) -> str:
        args = sorted(expr.args, key=sp.default_sort_key)
        return ' " or " '.join(self.parenthesize(a, PRECEDENCE["Or"]) for a in args)

    def _print_Not(self, expr: Any) -> str:
        return f"not {self.parenthesize(expr.args[0], PRECEDENCE['Not'])}"

    def _print_Piecewise(self, expr: sp.Piecewise) -> str:
        rows = []
        for e, c in expr.args:
            cond = '"otherwise"' if c is sp.true else f'"if " {self._print(c)}'
            rows.append(f"{self._print(e)} & quad {cond}")
        return f"cases({', '.join(rows)})"

    def _print_Heaviside(self, expr: Any) -> str:
        """Indicator 𝟙_(lhs >= rhs) for Heaviside(lhs - rhs).

        ``Heaviside(x, 0)`` (value 0 at the origin) prints a strict ``>``; any other value at
        the origin (sympy's default 1/2, or 1) prints ``>=``.
        """
        arg = expr.args[0]
        h0 = expr.args[1] if len(expr.args) > 1 else sp.S.Half
        op = ">" if h0 == 0 else ">="
        pos, neg = [], []
        for t in sp.Add.make_args(arg):
            if t.could_extract_minus_sign():
                neg.append(-t)
            else:
                pos.append(t)
        lhs = sp.Add(*pos) if pos else sp.S.Zero
        rhs = sp.Add(*neg) if neg else sp.S.Zero
        return f"bb(1)_({self._print(lhs)} {op} {self._print(rhs)})"

    # -- calculus and structure --------------------------------------------------------------
    def _print_limits(self, op: str, expr: Any) -> str:
        fn = expr.function
        body = self.parenthesize(fn, PRECEDENCE["Mul"])
        head = ""
        for lim in reversed(expr.limits):
            var = self._print(lim[0])
            if len(lim) == 3:
                head += f"{op}_({var} = {self._print(lim[1])})^{attachment(self._print(lim[2]))} "
            else:
                head += f"{op}_{attachment(var)} "
        return head + body

    def _print_Sum(self, expr: sp.Sum) -> str:
        return self._print_limits("sum", expr)

    def _print_Product(self, expr: sp.Product) -> str:
        return self._print_limits("product", expr)

    def _print_Indexed(self, expr: Any) -> str:
        base = self._print(expr.base.label)
        idx = " ".join(self._print(i) for i in expr.indices)
        return f"{base}_{attachment(idx)}"

    def _print_IndexedBase(self, expr: Any) -> str:
        return self._print(expr.label)

    def _print_Tuple(self, expr: Any) -> str:
        return f"({', '.join(self._print(a) for a in expr.args)})"

    _print_tuple = _print_Tuple

    def _print_MatrixBase(self, expr: Any) -> str:
        rows = "; ".join(
            ", ".join(self._print(expr[i, j]) for j in range(expr.cols)) for i in range(expr.rows)
        )
        return f"mat({rows})"

    _print_ImmutableDenseMatrix = _print_MatrixBase
    _print_MutableDenseMatrix = _print_MatrixBase

    def _print_Order(self, expr: Any) -> str:
        return f"cal(O)({self._print(expr.expr)})"

    def _print_Function(self, expr: Any) -> str:
        args = ", ".join(self._print(a) for a in expr.args)
        if _is_hidden_constant(expr):
            return _apply(expr.func.typst_name, args)
        name = expr.func.__name__
        if name in _TYPST_OPERATORS:
            return f"{name}({args})"
        return _apply(symbol_to_typst(name, self._settings["symbol_names"]), args)

    def _print_gamma(self, expr: Any) -> str:
        return f"Gamma({self._print(expr.args[0])})"

    def _print_Derivative(self, expr: Any) -> str:
        """``frac(d, d x) f``; partial derivatives (``partial``) for several variables."""
        op = "partial" if len(expr.variable_count) > 1 or len(expr.free_symbols) > 1 else "d"
        total = sum(int(n) for _, n in expr.variable_count)
        den = " ".join(
            f"{op} {self._print(v)}" + (f"^{attachment(self._print(n))}" if n != 1 else "")
            for v, n in expr.variable_count
        )
        num = op if total == 1 else f"{op}^{attachment(str(total))}"
        return f"frac({num}, {den}) {self.parenthesize(expr.expr, PRECEDENCE['Mul'])}"

    def _print_Lambda(self, expr: Any) -> str:
        sig = ", ".join(self._print(a) for a in expr.signature)
        return f"({sig}) |-> {self._print(expr.expr)}"


def typst_math(expr: Any, symbol_names: Mapping[str, str] | None = None, **settings: Any) -> str:
    """Typst math for ``expr``: the inside of ``$ ... $``.

    ``symbol_names`` maps sympy symbol (or function) names to raw Typst math; other names
    follow the rules in the module docstring. Extra ``settings`` go to :class:`TypstPrinter`.
    """
    printer = TypstPrinter({"symbol_names": dict(symbol_names or {}), **settings})
    return printer.doprint(sp.sympify(expr) if isinstance(expr, (int, float)) else expr)


def typst_display(expr: Any, symbol_names: Mapping[str, str] | None = None, **settings: Any) -> str:
    """A Typst block equation ``$ ... $`` for ``expr`` (see :func:`typst_math`)."""
    return f"$ {typst_math(expr, symbol_names, **settings)} $"


def typst_inline(expr: Any, symbol_names: Mapping[str, str] | None = None, **settings: Any) -> str:
    """A Typst inline equation ``$...$`` for ``expr`` (see :func:`typst_math`)."""
    return f"${typst_math(expr, symbol_names, **settings)}$"
