"""A test-only paper whose checks all read one shared computation, which logs every time it
is computed and every time a task reads it.

Loaded as a paper through ``PFLBOUNDS_PAPERS=sharedtoy`` (with ``tests/running/sweeppaper``
on the path), so that a ``pflbounds validate --jobs 2`` in a child process finds its checks;
the shared-computation tests count how often the table was computed.
"""
