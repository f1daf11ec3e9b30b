"""What "math set as code" looks like in report text, for the tests that look for it.

Typst typesets math as Unicode (≤, ‖, √, 𝐿₁): text extracted from the PDF, or the prose
parts of the Typst source, must hold none of the ASCII spellings of the plain notation.
"""

from __future__ import annotations

import re

# ASCII relations and norms, sqrt(, cal(, grouped scripts and any caret, a Greek-name
# subscript (lam_h, eps_i: not an id such as even2022.A1_personalisation, which has a
# dot before it), camel-case constants (epsG), and Python reprs: a one-element tuple,
# numpy scalars, booleans as parameter values, list or dict reprs of strings.
CODE_MATH = re.compile(
    r"<=|>=|!=|\|\||\*\*|sqrt\(|cal\(|_\{|\^"
    r"|(?<![.\w])[a-z]{2,}_[a-z]\b|\beps[A-Z]"
    r"|\(\s*-?\d+(?:\.\d+)?,\s*\)|\bnp\.\w+\(|(?:=|: )(?:True|False|None)\b|[\[{]\s*'"
)


def code_math(text: str) -> list[str]:
    """Each piece of code-math in ``text``, with a little context."""
    return [text[max(0, m.start() - 40) : m.end() + 20] for m in CODE_MATH.finditer(text)]


def typst_parts(markup: str) -> tuple[str, list[str]]:
    """The prose of Typst markup written by the plain-notation reader (escapes undone, each
    equation replaced by a space) and the strings (upright text) inside its equations."""
    prose: list[str] = []
    strings: list[str] = []
    i, n = 0, len(markup)
    while i < n:
        ch = markup[i]
        if ch == "\\" and i + 1 < n:
            prose.append(markup[i + 1])
            i += 2
        elif ch == "$":
            depth, i = 0, i + 1
            while i < n:
                c = markup[i]
                if c == '"':
                    j, buf = i + 1, []
                    while j < n and markup[j] != '"':
                        j += markup[j] == "\\"
                        buf.append(markup[j])
                        j += 1
                    strings.append("".join(buf))
                    i = j + 1
                    continue
                if c == "$" and markup[i - 1] == "(":
                    depth += 1  # #math.norm($...$): an equation inside the equation
                elif c == "$" and depth and markup[i + 1 : i + 2] == ")":
                    depth -= 1
                elif c == "$":
                    break
                i += 1
            prose.append(" ")
            i += 1
        else:
            prose.append(ch)
            i += 1
    return "".join(prose), strings
