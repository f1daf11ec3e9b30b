"""The ``new-paper`` command: the skeleton of a paper package."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pflbounds.cli.errors import CliError


def cmd_new_paper(args: argparse.Namespace) -> int:
    """Write the skeleton of a paper package (:mod:`pflbounds.newpaper`)."""
    from pflbounds.newpaper import NewPaperError, write_skeleton
    from pflbounds.symbolic import catalog, loader

    papers = set(catalog.papers()) | {n.rsplit(".", 1)[-1] for n in loader.paper_packages()}
    folder = Path(args.dir) if args.dir else Path(".")
    try:
        files = write_skeleton(args.name, folder, papers)
    except NewPaperError as e:
        raise CliError(str(e)) from None
    pkg = files[0].parent
    inside = pkg.resolve().parent == Path(loader.__file__).resolve().parents[1] / "papers"
    env = "" if inside else f"PFLBOUNDS_PAPERS={pkg.parent} "
    print(f"wrote {pkg}{os.sep}: " + ", ".join(str(f.relative_to(pkg)) for f in files))
    print(f"  {env}pflbounds show {args.name}.theorem1")
    print(f"  {env}pflbounds validate {args.name}")
    print(f"  python -m pytest {pkg}")
    return 0

