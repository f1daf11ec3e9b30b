"""The scott2024 builder: its constants and results are declared through ``P``."""

from __future__ import annotations

from pflbounds.symbolic.builder import PaperBuilder

P = PaperBuilder("scott2024")
cond, form, result = P.cond, P.form, P.result
