"""Tests of hanzely2023, one module per topic of the paper (a package, so that a topic test
may share its name with another paper's: test_experiments.py, test_complexity.py)."""
