"""A test-only paper whose checks take a set time per task and log every task they run.

Loaded as a paper through ``PFLBOUNDS_PAPERS=slowtoy`` (with ``tests/running/sweeppaper`` on
the path), so that a ``pflbounds validate`` in a child process finds its checks. The kill and
resume tests use it to land signals mid-run and to count how often each task was computed.
"""
