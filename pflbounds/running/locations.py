"""Where a run's suite comes from and where its results go.

A command names a suite by name or file (:func:`suite_file`), reads it (:func:`read_suite`)
and writes its results folder to ``--out`` or ``reports/SUITE_NAME``
(:func:`results_folder`); a report reads the outcomes of a results folder back
(:func:`read_results`). Every problem is a :class:`~pflbounds.running.suite.SuiteError` or a
:class:`~pflbounds.running.results.ResultsError` whose message is the one line the command
prints. The modules these rules need are imported on use: the command line names a bad
source before numpy loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome
    from pflbounds.running.suite import CheckSource, Suite

REPORTS_DIR = Path("reports")
"""The default home of results folders (``reports/SUITE_NAME``) and reports."""
DEFAULT_SUITE = "quick"


def results_folder(given: str | None, suite_name: str) -> Path:
    """The results folder of a run: ``given`` (``--out``), else ``reports/SUITE_NAME``."""
    return Path(given) if given else REPORTS_DIR / suite_name


def available_text() -> str:
    """``available suites: quick, even2022, ...`` (or that there are none)."""
    from pflbounds.running.suite import available_text as text

    return text()


def _results_not_suite(p: Path) -> Exception:
    """The error for a results folder (or its ``outcomes.json``) given where a suite belongs;
    a truncated or unreadable ``outcomes.json`` is named as such."""
    from pflbounds.running.results import OUTCOMES_FILE, ResultsError, load_outcomes
    from pflbounds.running.suite import SuiteError

    f = p / OUTCOMES_FILE if p.is_dir() else p
    try:
        load_outcomes(f)
    except ResultsError as e:
        return ResultsError(f"{e}; rerun pflbounds validate to write it again")
    except OSError as e:
        return ResultsError(f"{f} cannot be read ({e.strerror or e})")
    return SuiteError(f"{str(p)!r} holds results written by validate, not a suite; "
                      f"`pflbounds report {p}` writes their report; {available_text()}")


def suite_file(name: str | None) -> Path:
    """A suite file: ``name`` itself when it is a file, else the file of the suite name
    (``validation/NAME.toml`` here, else the shipped suite; default quick). A folder, a
    results folder or an unknown name is a ``SuiteError`` (a ``ResultsError`` for a damaged
    results folder)."""
    from pflbounds.running.results import OUTCOMES_FILE
    from pflbounds.running.suite import SuiteError, find_suite

    if name is None:
        name = DEFAULT_SUITE

    p = Path(name)
    if p.is_dir():
        if (p / OUTCOMES_FILE).is_file():
            raise _results_not_suite(p)
        raise SuiteError(f"suite {name!r} is a directory; expected a suite file (.toml); "
                         f"{available_text()}")
    if p.name == OUTCOMES_FILE and p.is_file():
        raise _results_not_suite(p)
    if p.exists():
        return p
    return find_suite(name)


def read_suite(path: Path, checks: CheckSource | None = None) -> Suite:
    """The suite of a file (its check ids resolved through ``checks``, default the check
    registry), every problem (not text, unreadable, invalid) a ``SuiteError`` naming the
    file."""
    from pflbounds.running.suite import SuiteError, load_suite

    try:
        return load_suite(path, checks)
    except UnicodeDecodeError:
        raise SuiteError(f"suite file {str(path)!r} is not text (not UTF-8); expected a TOML "
                         f"suite file; {available_text()}") from None
    except OSError as e:
        raise SuiteError(f"suite file {str(path)!r} cannot be read: {e.strerror or e}") \
            from None
    except (KeyError, ValueError) as e:
        raise SuiteError(str(e.args[0] if e.args else e)) from None


def results_name(src: str) -> str:
    """The suite name of a results folder (or its ``outcomes.json``): the folder's name."""
    p = Path(src)
    return (p.parent if p.name == "outcomes.json" else p).resolve().name or "results"


def read_results(src: Path) -> list[Outcome]:
    """The outcomes of a results folder (or its ``outcomes.json``); an empty, partial or
    damaged folder is a ``ResultsError`` saying how to write it."""
    from pflbounds.running.results import OUTCOMES_FILE, ResultsError, load_outcomes

    f = src if src.name == OUTCOMES_FILE else src / OUTCOMES_FILE
    folder = f.parent
    if not f.exists():
        try:
            present = sorted(x.name for x in folder.iterdir())
        except OSError as e:
            raise ResultsError(f"results folder {str(folder)!r} cannot be read ({e.strerror})"
                               ) from None
        what = "is empty" if not present else f"holds {', '.join(present[:5])}" + (
            " …" if len(present) > 5 else "") + f" but no {OUTCOMES_FILE} (a partial folder)"
        raise ResultsError(f"results folder {str(folder)!r} {what}; write it with `pflbounds "
                           f"validate SUITE --out {folder}`, or give a suite: "
                           f"{available_text()}")
    if f.is_dir():
        raise ResultsError(f"{f} is a folder; expected the {OUTCOMES_FILE} file that "
                           "pflbounds validate writes")
    try:
        outcomes = load_outcomes(f)
    except ResultsError as e:
        raise ResultsError(f"{e}; rerun pflbounds validate to write it again") from None
    except OSError as e:
        raise ResultsError(f"{f} cannot be read ({e.strerror or e})") from None
    if not outcomes:
        raise ResultsError(f"{f} holds no outcomes; rerun pflbounds validate to write it "
                           "again")
    return outcomes


def suite_seed(paper: str) -> int:
    """The seed of the paper's own suite (validation/PAPER.toml here, else the shipped
    one), else 0."""
    from pflbounds.running.suite import SuiteError, find_suite, load_suite

    try:
        return load_suite(find_suite(paper)).seed
    except (SuiteError, KeyError, ValueError):
        return 0
