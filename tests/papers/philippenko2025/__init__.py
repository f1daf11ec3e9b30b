"""Tests of philippenko2025, one module per theory topic (a package, so that its module names
never collide with another paper's test modules of the same topic)."""
