"""The audit folder: where ``pflbounds audit ...`` writes its JSON files.

``--out DIR``, default ``reports/audit``, where ``pflbounds report --audit DIR`` finds them:
``mutants-PAPER.json``, ``tightness-PAPER.json`` (with the PEPit cache ``pepit-cache.json``)
and ``false-alarms-SUITE.json``. Every problem is an :class:`AuditFolderError` whose message
is the one line the command prints.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

AUDIT_DIR = Path("reports") / "audit"


class AuditFolderError(ValueError):
    """An audit folder that cannot receive the audit's files."""


def audit_folder(out: str | None) -> Path:
    """The audit folder, checked before any work as ``validate`` checks its own: a folder
    that can be written (the default is created; a given one's parent must exist)."""
    from pflbounds.running.atomic import OutputError, check_files_folder

    folder = Path(out) if out else AUDIT_DIR
    label = "--out " if out else "audit folder "
    if folder.exists() and not folder.is_dir():
        raise AuditFolderError(f"{label}{str(folder)!r} is a file; expected a folder for the "
                               "audit files")
    try:
        check_files_folder(folder, parents=not out)
    except OutputError as e:
        raise AuditFolderError(f"{label}{e}") from None
    return folder


def write_audit_file(out: str | None, name: str, doc: dict[str, Any]) -> Path:
    """Write ``doc`` as ``name`` in the audit folder (atomically); returns its path."""
    from pflbounds.running.atomic import atomic_write

    folder = audit_folder(out)
    path = folder / name
    try:
        folder.mkdir(exist_ok=True)
        atomic_write(path, json.dumps(doc, indent=1, default=str))
    except OSError as e:
        raise AuditFolderError(f"cannot write {path} ({e.strerror or e}); the audit ran but "
                               "its file was not written") from None
    return path
