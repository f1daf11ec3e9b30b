"""The running commands: ``check``, ``validate`` and ``cache``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pflbounds.cli.errors import EXIT_UNEXPECTED, CliError, with_paper_hint
from pflbounds.cli.output import fmt_bytes, print_json

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.running.cache import TaskCache
    from pflbounds.running.index.view import PaperIndex
    from pflbounds.running.suite import CheckSource, Suite


def cmd_check(args: argparse.Namespace) -> int:
    from pflbounds.checking import registry
    from pflbounds.running.executor import run_check

    try:
        check = registry.get(args.check_id)
    except KeyError as e:
        ids = [c.id for c in registry.all_checks()]
        raise CliError(with_paper_hint(str(e.args[0]), "check id", args.check_id, ids)) from None
    from pflbounds.running.executor import require_extras

    require_extras(check)  # MissingExtra: one line naming the pip install to run
    if args.replicas is not None and not check.deterministic:
        from pflbounds.limits import LimitError, check_replicas
        from pflbounds.running.config import effective_replicas

        try:
            effective_replicas(check, args.replicas)  # a comparison's draws are declared
        except ValueError as e:
            raise CliError(str(e)) from None

        try:
            check_replicas("--replicas", args.replicas, len(check.grid_for(args.quick)),
                           check.block_size)
        except LimitError as e:
            raise CliError(str(e)) from None
    _, outcome = sweep(args, lambda **kw: run_check(
        check, replicas=args.replicas, quick=args.quick, base_seed=args.seed, jobs=args.jobs,
        **kw))
    if args.json:
        print_json(outcome.to_dict())
    else:
        _print_outcomes([outcome])
    return 0 if outcome.as_expected else EXIT_UNEXPECTED


def load_suite_arg(name: str | None, checks: CheckSource | None = None) -> Suite:
    """The suite a command names (a suite name or a file; default quick), read
    (:mod:`pflbounds.running.locations`), its check ids resolved through ``checks`` (default
    the check registry); every problem is one line."""
    from pflbounds.running.locations import read_suite, suite_file
    from pflbounds.running.results import ResultsError
    from pflbounds.running.suite import SuiteError

    try:
        return read_suite(suite_file(name), checks)
    except (SuiteError, ResultsError) as e:
        raise CliError(str(e)) from None


def _print_outcomes(outcomes) -> None:
    """One line per outcome (:mod:`pflbounds.checking.lines`)."""
    from pflbounds.checking.lines import outcome_line

    width = max(len(o.check_id) for o in outcomes)
    for o in outcomes:
        print(outcome_line(o, width))


def open_cache(args: argparse.Namespace) -> TaskCache | None:
    """The task cache of a run (None with --no-cache)."""
    from pflbounds.running.cache import CacheError, TaskCache

    if getattr(args, "no_cache", False):
        return None
    try:
        return TaskCache(args.cache_dir)
    except CacheError as e:
        raise CliError(f"{e}; choose another with --cache-dir or run with --no-cache") from None


def _progress_mode(args: argparse.Namespace) -> str:
    """A bar on an interactive terminal; a line per check in logs and with --json."""
    return "lines" if getattr(args, "json", False) or not sys.stderr.isatty() else "bar"


def _run_stats_line(stats, cache) -> str:
    where = f"task cache {cache.root}" if cache is not None else "no task cache"
    failed = f", {stats.failed} failed" if stats.failed else ""
    warned = (f", {stats.warned} with numerical warnings (recorded with the task)"
              if stats.warned else "")
    return (f"{stats.tasks} tasks: {stats.cached} from the cache, {stats.computed} computed"
            f"{failed}{warned} in {stats.seconds:.1f} s ({where})")


def sweep(args: argparse.Namespace, run: Callable[..., Any]) -> tuple[TaskCache | None, Any]:
    """Run ``run(cache=..., scheduler=..., progress=...)`` with the run options; Ctrl-C or
    SIGTERM end it with one line (finished tasks stay in the cache)."""
    from pflbounds.running.backends import connect
    from pflbounds.running.executor import terminate_on_sigterm

    cache = open_cache(args)
    client = connect(args.scheduler)[0] if args.scheduler else None
    try:
        with terminate_on_sigterm():
            return cache, run(cache=cache, scheduler=client, progress=_progress_mode(args))
    except KeyboardInterrupt:
        kept = f"finished tasks are in the task cache {cache.root}; the same command " \
            "resumes the run" if cache is not None else "nothing was kept (--no-cache)"
        print(f"pflbounds {args.command}: interrupted; {kept}", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        if client is not None:
            client.close()


def cmd_validate(args: argparse.Namespace) -> int:
    from pflbounds.checking.vocabulary import summary_line
    from pflbounds.running.atomic import OutputError
    from pflbounds.running.locations import results_folder
    from pflbounds.running.results import check_results_folder, save_outcomes
    from pflbounds.running.suite import sweep_suite

    idx = _run_index(args)
    if idx is not None:
        idx.ensure("checks")  # every paper, a broken one named, as a full load would
    suite = load_suite_arg(args.suite, idx)
    if args.jobs < 1:
        raise CliError(f"--jobs must be >= 1, got {args.jobs}")
    out = results_folder(args.out, suite.name)
    label = "--out " if args.out else "results folder "
    try:  # before the run: a bad place fails now, not after hours of work
        check_results_folder(out, parents=not args.out)
    except OutputError as e:
        raise CliError(f"{label}{e}") from None
    multiplicity = "per-check" if args.per_check else "paper"
    families = None if idx is None else idx.families()
    cache, run = sweep(args, lambda **kw: sweep_suite(
        suite, jobs=args.jobs, multiplicity=multiplicity, families=families, **kw))
    if idx is not None and cache is not None:
        idx.save(cache.root)  # what was built before the run made the cache folder
    outcomes = run.outcomes
    try:
        save_outcomes(outcomes, out, run.provenance, parents=not args.out,
                      skipped=run.skipped)
    except OutputError as e:
        raise CliError(f"{label}{e}") from None
    except OSError as e:
        raise CliError(f"cannot write the results to {out} ({e.strerror or e}); the folder keeps "
                       "its previous results, and the finished tasks are in the task cache"
                       ) from None
    bad = [o for o in outcomes if not o.as_expected]
    st = run.stats
    if args.json:
        print_json({"suite": suite.name, "out": str(out),
                    "outcomes": [o.to_dict() for o in outcomes],
                    "unexpected": [o.check_id for o in bad],
                    "skipped": [{"check_id": k, "reason": v} for k, v in run.skipped.items()],
                    "summary": summary_line(outcomes, run.skipped),
                    "tasks": {"total": st.tasks, "cached": st.cached, "computed": st.computed,
                              "failed": st.failed, "warned": st.warned,
                              "seconds": st.seconds},
                    "cache": None if cache is None else str(cache.root)})
    else:
        if outcomes:
            _print_outcomes(outcomes)
        print_skipped(run.skipped)
        print(_run_stats_line(st, cache))
        print(f"{len(outcomes) - len(bad)}/{len(outcomes)} verdicts as expected; "
              f"results in {out}")
        print(summary_line(outcomes, run.skipped))
    return EXIT_UNEXPECTED if bad else 0


def _run_index(args: argparse.Namespace) -> PaperIndex | None:
    """The papers' index of a run (:mod:`pflbounds.running.index`): in its task cache folder, or
    kept in memory until the run makes the folder; None where the command line loaded the
    papers first (the index is off, ``--no-cache``, or papers were loaded in this
    process)."""
    if not getattr(args, "use_index", False):
        return None
    from pflbounds.running.index.store import existing_root
    from pflbounds.running.index.view import PaperIndex

    return PaperIndex(existing_root(args.cache_dir), keep=True)


def print_skipped(skipped: dict[str, str]) -> None:
    """One line per check skipped for a missing extra, with the reason."""
    width = max((len(k) for k in skipped), default=0)
    for cid, why in skipped.items():
        print(f"-- {cid:<{width}}  skipped: {why.removeprefix(f'check {cid} ')}")


def _cache_stale(cache) -> tuple[dict[str, str | None], object]:
    """The current fingerprint of every registered check, and a test of stale entries (of a
    check that is gone or whose code changed)."""
    from pflbounds.checking import registry
    from pflbounds.running.fingerprint import check_fingerprint

    current = {c.id: check_fingerprint(c) for c in registry.all_checks()}
    return current, lambda meta: current.get(meta.get("check_id")) != meta.get("fingerprint")


def cmd_cache(args: argparse.Namespace) -> int:
    from pflbounds.running import shared
    from pflbounds.running.cache import CacheError, TaskCache
    from pflbounds.running.index import store as index_store

    try:
        cache = TaskCache(args.cache_dir, create=False)
    except CacheError as e:
        raise CliError(str(e)) from None
    _, stale = _cache_stale(cache)
    if args.action == "clear":
        n, size = cache.clear(args.check, stale if args.stale else None)
        sn, ssize = (0, 0) if args.check else shared.clear(cache.root, stale_only=args.stale)
        if not args.check and not args.stale:  # the papers' indexes: rebuilt when needed
            index_store.clear(cache.root)
        kept = cache.foreign()
        if args.json:
            print_json({"path": str(cache.root), "removed": n, "bytes": size,
                        "shared_removed": sn, "shared_bytes": ssize, "kept": kept})
        else:
            also = f" and {sn} shared computations ({fmt_bytes(ssize)})" if sn else ""
            left = (f"; left the files pflbounds did not write: {', '.join(kept)}"
                    + (" …" if len(kept) >= 5 else "")) if kept else ""
            print(f"removed {n} tasks ({fmt_bytes(size)}){also} from the task cache "
                  f"{cache.root}{left}")
        return 0
    info = cache.info()
    sinfo = shared.info(cache.root)
    stale_by: dict[str, int] = {}
    for e in cache.entries():
        if not isinstance(e, Path) and stale(e.meta):
            stale_by[e.check_id] = stale_by.get(e.check_id, 0) + 1
    for cid, c in info.checks.items():
        c["stale"] = stale_by.get(cid, 0)
    if args.json:
        print_json({**info.to_dict(), "stale": sum(stale_by.values()), "shared": sinfo})
        return 0
    print(f"task cache {cache.root}" + ("" if cache.root.is_dir() else " (empty, not created)"))
    print(f"  {info.entries} tasks of {len(info.checks)} checks, {fmt_bytes(info.bytes)}, "
          f"{info.compute_s:.1f} s of computation; {sum(stale_by.values())} stale (their check "
          "is gone or its code changed: `pflbounds cache clear --stale`)"
          + (f"; {info.unreadable} unreadable" if info.unreadable else ""))
    if sinfo["entries"]:
        print(f"  {sinfo['entries']} shared computations, {fmt_bytes(sinfo['bytes'])}, "
              f"{sinfo['compute_s']:.1f} s of computation; {sinfo['stale']} stale")
    width = max((len(c) for c in info.checks), default=0)
    for cid, c in info.checks.items():
        print(f"  {cid:<{width}}  {c['entries']:>6} tasks  {fmt_bytes(c['bytes']):>9}  "
              f"{c['compute_s']:>9.1f} s" + (f"  ({c['stale']} stale)" if c["stale"] else ""))
    return 0

