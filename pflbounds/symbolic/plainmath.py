"""Typesetting the plain-text math notation of statements, labels and captions.

Statements, assumptions, notes, check titles and axis labels are written in the plain
notation of the papers' digests: ``E||grad l(x, xi_i) - grad f_i(x)||^2 <= sigma^2``,
``f_i(x_j^*) - f_i^* <= b_ij^2/(2 mu)``, ``K_eps (oracle calls)``. :func:`parse` splits such a
text into prose and math runs; :func:`to_typst` turns it into Typst markup with inline
equations and :func:`to_mathtext` into a matplotlib label with ``$...$`` segments.

The notation: ``x_i``, ``b_ij`` (two indices), ``x_{...}`` and ``x^{...}`` (grouped),
``x^*``/``f_i*`` (a star), ``x_bar``/``b_hat_ij``/``Fbar``/``hat theta``/``er~``/``er^``/
``Õ``/``Ω̃`` (accents), ``cal(C)``/``Lcal`` (calligraphic; ``O(...)`` is the calligraphic O),
Greek letters by name (``eps`` for epsilon, ``lam`` for lambda, ``grad`` for nabla; ``sigma2``
is sigma squared but ``sigma2^2`` is sigma_2 squared), ``E[...]``/``P(...)`` (expectation,
probability), ``<= >= != -> << >~ ~``, ``||x||`` (norm), ``|S|``, ``<u, v>`` (inner
product), ``(.)``, ``||.||``, ``sqrt(…)`` (a placeholder argument), ``1{...}``
(indicator), ``#{...}`` (cardinality), ``T = inf`` (infinity), ``ln exp min max sup inf sum
sqrt ceil floor Tr``. Words that are not notation stay prose; a hyphen glued to a word
(``mu-strongly``, ``eps-close``) is a hyphen; ``'...'`` quotes are quotation marks.

A paper's own constant names (``L1``, ``epsG``, ``lam_h``) are read as the symbols the paper
declares for them (``L_1``, ``epsilon_G``, ``lambda_h``): pass ``paper=`` or typeset inside
``with notation_of(paper):``. Names the generic rules read as ids (``A1``, ``P15``, ``C2``)
stay ids unless the paper declares them as constants.
The output always compiles: names Typst does not know become upright text.

The vocabulary and the declared names are in :mod:`~pflbounds.symbolic.plainmath_words`,
the reading in :mod:`~pflbounds.symbolic.plainmath_scan` and
:mod:`~pflbounds.symbolic.plainmath_parse`, the writers in
:mod:`~pflbounds.symbolic.plainmath_typst` and :mod:`~pflbounds.symbolic.plainmath_mathtext`.
"""

from __future__ import annotations

from pflbounds.symbolic.plainmath_mathtext import to_mathtext
from pflbounds.symbolic.plainmath_parse import parse
from pflbounds.symbolic.plainmath_typst import to_typst, to_typst_math
from pflbounds.symbolic.plainmath_words import GREEK, current_paper, declared_names, notation_of

__all__ = ["GREEK", "current_paper", "declared_names", "notation_of", "parse", "to_mathtext",
           "to_typst", "to_typst_math"]
