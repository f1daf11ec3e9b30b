"""Suite files: a named list of checks with run settings, in TOML.

Format::

    name = "quick"
    description = "..."
    seed = 2022
    grid = "quick"             # default grid for the suite: "quick" or "full"

    [[checks]]
    id = "even2022.P1"         # an id, or a glob such as "even2022.*"
    replicas = 2000            # optional override (Monte Carlo checks)
    grid = "full"              # optional override

A check selected by several entries takes the settings of the last one and keeps the
position of the first. The name names the results folder (``reports/NAME``), so it is a name:
letters, digits, ``-``, ``_`` and ``.`` (not ``.`` or ``..``), at most 100 characters.
A suite file is at most 1 MB of text.

Suite names resolve (:func:`find_suite`) to the first of: ``validation/NAME.toml`` in the
current folder (a local folder wins), the suites shipped with pflbounds
(``pflbounds/suites/NAME.toml``, package data: they resolve from any folder), and
``suites/NAME.toml`` in the folder of a paper package (one installed with pip, from
``PFLBOUNDS_PAPERS``, or written by ``pflbounds new-paper``). In a clone of the repository,
``validation/`` is a link to ``pflbounds/suites/``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pflbounds.checking import registry
from pflbounds.checking.check import Check
from pflbounds.limits import MAX_REPLICAS
from pflbounds.running.config import effective_replicas

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome
    from pflbounds.running.cache import TaskCache
    from pflbounds.running.executor import Sweep
    from pflbounds.running.multiplicity import PaperFamily

LOCAL_SUITES = Path("validation")
"""The suites folder of the current folder: its files win over the shipped ones."""
SHIPPED_SUITES = Path(__file__).resolve().parent.parent / "suites"
"""The suites shipped with pflbounds (package data)."""
GRIDS = ("quick", "full")
MAX_BYTES = 1_000_000
"""The largest suite file read (a suite lists checks: a few kB)."""
_NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")
NAME_RULE = ("letters, digits, '-', '_' and '.' (not '.' or '..'), at most 100 characters; "
             "it names the results folder reports/NAME")
_TOP_KEYS = {"name", "description", "seed", "grid", "checks"}
_ENTRY_KEYS = {"id", "replicas", "grid"}


class SuiteError(ValueError):
    """A suite file that cannot be used; the message names the file and the problem."""


class SuiteNotFound(SuiteError):
    """A suite name that no suites folder holds (the message lists the suites there are)."""


def _paper_suite_dirs() -> list[Path]:
    """``suites/`` of every paper package that has one (found without importing the
    packages)."""
    import importlib.util

    from pflbounds.symbolic import loader

    out: list[Path] = []
    for name in loader.paper_packages():
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for loc in (spec.submodule_search_locations or []) if spec else []:
            d = Path(loc) / "suites"
            if d.is_dir() and d not in out:
                out.append(d)
    return out


def suite_dirs() -> list[Path]:
    """The folders searched for a suite name, in order (module docstring)."""
    out = [LOCAL_SUITES] if LOCAL_SUITES.is_dir() else []
    if SHIPPED_SUITES.is_dir() and not (
            out and out[0].resolve() == SHIPPED_SUITES.resolve()):
        out.append(SHIPPED_SUITES)
    return out + [d for d in _paper_suite_dirs() if d not in out]


def available_suites() -> dict[str, Path]:
    """Every suite name with the file it resolves to (a local file wins)."""
    found: dict[str, Path] = {}
    for d in suite_dirs():
        for f in sorted(d.glob("*.toml")):
            found.setdefault(f.stem, f)
    return found


def available_text() -> str:
    """``available suites: quick, even2022, ...`` (or that there are none)."""
    names = available_suites()
    if not names:
        return "no suite files found (none in validation/ here, none shipped)"
    return "available suites: " + ", ".join(names)


def find_suite(name: str) -> Path:
    """The file of suite ``name`` (module docstring); :class:`SuiteNotFound` otherwise."""
    if _NAME.fullmatch(name) and name not in (".", ".."):
        for d in suite_dirs():
            f = d / f"{name}.toml"
            if f.is_file():
                return f
    raise SuiteNotFound(f"suite {name!r} not found; {available_text()}")


@dataclass(frozen=True)
class SuiteEntry:
    """One check of a suite, with its resolved settings."""

    check: Check
    replicas: int | None
    quick: bool
    pattern: str


@dataclass(frozen=True)
class Suite:
    """A parsed suite: metadata and resolved entries."""

    name: str
    description: str
    seed: int
    grid: str
    entries: tuple[SuiteEntry, ...]
    path: Path | None = None

    @property
    def checks(self) -> list[Check]:
        """The checks, in suite order."""
        return [e.check for e in self.entries]


class CheckSource(Protocol):
    """Where a suite's check ids resolve: the check registry, or the papers' indexes
    (:class:`pflbounds.running.index.view.PaperIndex`)."""

    def get(self, check_id: str) -> Check: ...

    def match(self, pattern: str) -> list[Check]: ...


def load_suite(path: str | Path, checks: CheckSource | None = None) -> Suite:
    """Read and resolve a suite file (its check ids through ``checks``, default the check
    registry); raises :class:`SuiteError` with the file name."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise SuiteError(f"{path}: suite file not found") from None
    if len(raw) > MAX_BYTES:
        raise SuiteError(f"{path}: suite file larger than {MAX_BYTES // 1_000_000} MB; a suite "
                         "lists checks and their settings (a few kB)")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SuiteError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise SuiteError(f"{path}: invalid suite file: its arrays or tables nest too deeply "
                         "to read (a suite is a name, settings and [[checks]] entries)") from None
    return parse_suite(data, source=str(path), path=path, checks=checks)


def check_suite_name(name: object, source: str, *, from_stem: bool = False) -> str:
    """``name`` if it is a suite name (module docstring), else :class:`SuiteError` naming
    the file, the value and what is expected."""
    if isinstance(name, str) and _NAME.fullmatch(name) and name not in (".", ".."):
        return name
    if from_stem:
        what = f"the file name gives the suite name {name!r}, which is not a suite name"
    elif isinstance(name, str):
        what = f"name {name!r} is not a suite name"
    else:
        what = f"name {name!r} is not a string"
    raise SuiteError(f"{source}: {what}: expected {NAME_RULE}"
                     + ("; give the file a name = \"...\" line" if from_stem else ""))


def parse_suite(data: Mapping[str, Any], *, source: str = "<suite>",
                path: Path | None = None, checks: CheckSource | None = None) -> Suite:
    """Validate a suite mapping and resolve its check ids and globs (through ``checks``,
    default the check registry)."""
    resolver: CheckSource = registry if checks is None else checks  # type: ignore[assignment]

    def fail(msg: str) -> SuiteError:
        return SuiteError(f"{source}: {msg}")

    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise fail(f"unknown keys {unknown}; expected some of {sorted(_TOP_KEYS)}")
    name = check_suite_name(data.get("name", path.stem if path else "suite"), source,
                            from_stem="name" not in data)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise fail("description must be a string")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise fail(f"seed must be an integer >= 0, got {seed!r}")
    grid = data.get("grid", "full")
    if grid not in GRIDS:
        raise fail(f"grid must be one of {GRIDS}, got {grid!r}")
    items = data.get("checks")
    if not isinstance(items, list) or not items:
        raise fail("a suite needs at least one [[checks]] entry")

    chosen: dict[str, SuiteEntry] = {}
    for n, item in enumerate(items, start=1):
        where = f"checks entry {n}"
        if not isinstance(item, Mapping):
            raise fail(f"{where} must be a table")
        bad = sorted(set(item) - _ENTRY_KEYS)
        if bad:
            raise fail(f"{where}: unknown keys {bad}; expected some of {sorted(_ENTRY_KEYS)}")
        pattern = item.get("id")
        if not isinstance(pattern, str) or not pattern:
            raise fail(f"{where} needs an id (a check id or a glob)")
        replicas = item.get("replicas")
        if replicas is not None and (
            not isinstance(replicas, int) or isinstance(replicas, bool) or replicas < 1
            or replicas > MAX_REPLICAS
        ):
            raise fail(f"{where} ({pattern}): replicas must be an integer in [1, "
                       f"{MAX_REPLICAS:.0e}], got {replicas!r}")
        egrid = item.get("grid", grid)
        if egrid not in GRIDS:
            raise fail(f"{where} ({pattern}): grid must be one of {GRIDS}, got {egrid!r}")
        if any(ch in pattern for ch in "*?["):
            found = resolver.match(pattern)
            if not found:
                raise fail(f"{where}: pattern {pattern!r} matches no registered check")
        else:
            try:
                found = [resolver.get(pattern)]
            except KeyError as exc:
                raise fail(f"{where}: {exc}") from None
        for check in found:
            try:
                effective_replicas(check, replicas)  # a comparison's draws are declared
            except ValueError as exc:
                raise fail(f"{where}: {exc}") from None
            chosen[check.id] = SuiteEntry(check, replicas, egrid == "quick", pattern)
    return Suite(name, description, seed, grid, tuple(chosen.values()), path)


def run_suite(suite: Suite, jobs: int = 1, progress: bool | str = True,
              multiplicity: str = "paper", *, scheduler: Any = None,
              cache: TaskCache | None = None) -> list[Outcome]:
    """Run every check of a suite in one pool, with the suite's seed.

    By default each Monte Carlo check is judged at its share of its paper's family-wise level
    (:mod:`pflbounds.running.multiplicity`), whatever else the suite holds; the checks of a
    paper that declares no family are judged at their own ``1 - confidence``.
    ``multiplicity="per-check"`` judges each at its own ``1 - confidence``
    (:func:`pflbounds.running.executor.run_specs`).
    """
    return sweep_suite(suite, jobs=jobs, progress=progress, multiplicity=multiplicity,
                       scheduler=scheduler, cache=cache).outcomes


def sweep_suite(suite: Suite, *, jobs: int = 1, progress: bool | str = True,
                multiplicity: str = "paper", scheduler: Any = None,
                cache: TaskCache | None = None,
                families: Mapping[str, PaperFamily | None] | None = None) -> Sweep:
    """:func:`run_suite` with per grid point provenance and the run's statistics; a check
    that needs an extra that is not installed is skipped, with the reason
    (:attr:`~pflbounds.running.executor.Sweep.skipped`). ``families``: the error families of
    papers, resolved already (read from the papers' indexes)."""
    from pflbounds.running.executor import RunSpec, sweep  # the executors load to run

    specs = [RunSpec(e.check, e.replicas, e.quick) for e in suite.entries]
    return sweep(specs, base_seed=suite.seed, jobs=jobs, progress=progress,
                 multiplicity=multiplicity, scheduler=scheduler, cache=cache,
                 skip_missing=True, families=families)
