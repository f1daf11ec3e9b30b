"""Exit statuses and the error of the command line."""

from __future__ import annotations

from collections.abc import Sequence

EXIT_BAD_INPUT = 2
EXIT_UNEXPECTED = 1
EXIT_INTERNAL = 3
"""A defect of pflbounds (an exception no input should cause), reported in one line."""


class CliError(Exception):
    """An error reported to the user as one line with exit status 2."""


def with_paper_hint(message: str, what: str, given: str, ids: Sequence[str]) -> str:
    """``message``, or a suggestion of the ids that add the paper to a bare id (``P11`` ->
    ``even2022.P11``)."""
    full = [i for i in ids if i.split(".", 1)[-1].lower() == given.lower()]
    if full and given not in ids:
        return f"unknown {what} {given!r}; did you mean {', '.join(full)}?"
    if any(i.startswith(given + ".") for i in ids):
        return (f"{given!r} is a paper, not a {what}; ids look like {given}.<name> "
                f"(`pflbounds list --paper {given}` lists them)")
    return message

