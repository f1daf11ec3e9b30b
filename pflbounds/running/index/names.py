"""The names of the index files in a task cache folder (``ROOT/index/``), which the cache
must know as its own (:func:`pflbounds.running.cache.owned_layout`)."""

from __future__ import annotations

import re
from pathlib import Path

FOLDER = "index"
PARTS = ("results", "checks")
FILE = re.compile(r"(?P<package>[A-Za-z_][A-Za-z0-9_.]*)\.(?P<part>results|checks)\."
                  r"(?P<key>[0-9a-f]{64})\.json")
"""The name of an index file: ``PACKAGE.PART.KEY.json``."""
LEFTOVER = re.compile(r"\.[A-Za-z_][A-Za-z0-9_.]*\.(?:results|checks)\.[0-9a-f]{64}\.json"
                      r"\.tmp-\d+-[0-9a-f]{8}")
"""The temporary sibling of an index file being written (:mod:`pflbounds.running.atomic`)."""


def owned(rel: Path, is_dir: bool) -> bool:
    """Whether ``rel`` (relative to a cache folder) is a path the indexes write: the folder
    ``index``, its files and their temporary siblings."""
    parts = rel.parts
    if not parts or parts[0] != FOLDER:
        return False
    if len(parts) == 1:
        return is_dir
    return len(parts) == 2 and not is_dir and bool(
        FILE.fullmatch(parts[1]) or LEFTOVER.fullmatch(parts[1]))
