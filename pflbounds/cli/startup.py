"""The start and the end of a one-shot command run from the shell (``eval``, ``solve``).

Such a command imports sympy and numpy, builds a few formulas, prints a line and exits: most
of its time is the start, and the interpreter's shutdown, which frees every object of
sympy and numpy one by one, adds about a tenth to it. Run as the ``pflbounds`` program (not
called from Python with arguments), such a command

- runs without the cyclic garbage collector (:func:`begin`): importing sympy makes a few
  hundred thousand objects, and each collection while they are made walks them all again
  (about 5% of ``import sympy``); the command makes little garbage and ends at once;
- defers ``sympy.tensor.tensor`` (:mod:`pflbounds.symbolic.deferred_tensor`);
- ends as the interpreter's shutdown would in what can be seen (:func:`finish`): the exit
  handlers run and stdout and stderr are flushed, then the process exits without freeing its
  objects one by one. When a flush fails (a closed pipe) or a thread is still running, the
  shutdown runs as usual instead.

The outputs are the same, byte for byte (``tests/test_cli_one_shot.py``).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys

ONE_SHOT = ("eval", "solve")
"""The commands that start and end this way when run from the shell."""


def begin() -> None:
    """Start a one-shot command: no cyclic garbage collection, sympy's tensor module
    deferred (imports sympy)."""
    gc.disable()
    from pflbounds.threads import prefer_one_thread

    prefer_one_thread()  # before anything can load numpy, as for every command
    from pflbounds.symbolic.deferred_tensor import defer_tensor_module

    try:
        defer_tensor_module()
    except Exception:  # noqa: BLE001 - a sympy that cannot load: the command names it
        pass


def finish(code: int) -> int:
    """End the process with exit status ``code`` (see the module docstring); returns
    ``code`` only where the usual shutdown must run."""
    atexit._run_exitfuncs()  # what Py_Finalize runs first; they do not run twice
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return code
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BrokenPipeError:  # the reader is gone: nothing more to say, end as a pipe does
        os._exit(reader_gone())
    except (OSError, ValueError):  # a closed stream: the shutdown reports it
        return code
    os._exit(code)


EXIT_READER_GONE = 141
"""The exit status when the reader of the output closed the pipe (128 + SIGPIPE, as a shell
reports a command a pipe stopped)."""


def reader_gone() -> int:
    """Stop quietly when the output's reader is gone (``pflbounds list --checks | head``):
    what is left unwritten goes nowhere (stdout is pointed at the null device, so the final
    flush cannot fail); returns :data:`EXIT_READER_GONE`."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_READER_GONE
