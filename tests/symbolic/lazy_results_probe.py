"""Run as a script: build each module of a deferring paper alone (a forked child per module)
and print, as JSON, the repr of every result so built next to its repr after a full load."""

from __future__ import annotations

import importlib
import json
import os
import re
import sys

from pflbounds.symbolic import catalog, evaluate  # noqa: F401  (loaded before the forks)
from pflbounds.symbolic.loader import load_paper, result_modules


def dump(paper: str) -> dict[str, str]:
    return {rid: re.sub(r"0x[0-9a-f]+", "0x", repr(r))
            for rid, r in catalog._RESULTS.items() if r.paper == paper}


def main(paper: str) -> None:
    importlib.import_module(f"pflbounds.papers.{paper}")
    index = result_modules(f"pflbounds.papers.{paper}")
    partial: dict[str, str] = {}
    for mod in dict.fromkeys(index.values()):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            importlib.import_module(f"pflbounds.papers.{paper}.{mod}")
            mine = {k: v for k, v in dump(paper).items() if index.get(k.split(".", 1)[1]) == mod}
            with os.fdopen(w, "w") as fh:
                json.dump(mine, fh)
            os._exit(0)
        os.close(w)
        with os.fdopen(r) as fh:
            partial.update(json.load(fh))
        os.waitpid(pid, 0)
    load_paper(paper)
    print(json.dumps({"partial": partial, "full": dump(paper)}))


if __name__ == "__main__":
    main(sys.argv[1])
