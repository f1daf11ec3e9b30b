"""A test-only paper whose import fails: the loader must name it."""

from pflbounds.symbolic.builder import PaperBuilder

P = PaperBuilder("brokenpaper")
P.register("A broken paper", "Nobody (test fixture).")
RATIO = 1 / 0
