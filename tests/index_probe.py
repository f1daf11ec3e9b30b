"""Run pflbounds commands in one process and print their outputs as one JSON document (for
tests/test_cli_index_outputs.py; not a test module).

    python tests/index_probe.py MODE COMMANDS.json

MODE ``index``: every command reads the papers' indexes (as a fresh command does, even after
the first command of this process has loaded papers); MODE ``live``: the caller sets
``PFLBOUNDS_NO_INDEX=1`` and the commands load the papers as before. The document holds each
command with its exit status, stdout and stderr, the checks registered in this process (by
importing their modules), and the check and problem modules it imported.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys


def main() -> None:
    mode, commands = sys.argv[1], sys.argv[2]
    if mode == "index":
        from pflbounds.running.index import view

        view.usable = lambda: True  # each command as a fresh one: through the index
    from pflbounds.cli import main as cli

    out = []
    with open(commands, encoding="utf-8") as fh:
        argvs = json.load(fh)
    for argv in argvs:
        o, e = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
            rc = cli(argv)
        out.append([argv, rc, o.getvalue(), e.getvalue()])
    mods = sorted(sys.modules)
    registry = sys.modules.get("pflbounds.checking.registry")
    print(json.dumps({
        "outputs": out,
        "registered_checks": [c.id for c in registry.loaded_checks()] if registry else [],
        "check_modules": [m for m in mods if m.startswith("pflbounds.papers.")
                          and ".checks" in m],
        "problem_modules": [m for m in mods if m.startswith("pflbounds.problems.")],
    }))


if __name__ == "__main__":
    main()
