"""The inputs of ``eval``, ``solve`` and ``complexity``: ``name=value`` words, matrix files
(``b=FILE``, ``Lambda=FILE``) and per-client vectors (``sigma2=0.5,1,2`` or a file)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pflbounds.cli.errors import CliError
from pflbounds.shown import shown

if TYPE_CHECKING:
    import numpy as np

MATRIX_INPUTS = ("b", "Lambda")
MAX_ENTRY = 1e100
"""The largest magnitude of a matrix or per-client entry (squares and sums of squares of
N^2 of them stay within double precision)."""
VECTOR_INPUTS = ("sigma2",)
"""Names that may hold one value per agent (a comma list or a .csv/.npy file), accepted by a
result whose per-agent derivations read them (philippenko2025's sigma_k^2)."""


def load_matrix(path: str, name: str = "matrix") -> np.ndarray:
    """Load an N x N real matrix from ``.npy`` or ``.csv`` (numbers separated by commas, one
    row per line, no header); every problem with the file is a :class:`CliError`."""
    import numpy as np

    p = Path(path)
    what = f"{name} file {path!r}"
    if not p.exists():
        raise CliError(f"{what} does not exist")
    if p.is_dir():
        raise CliError(f"{what} is a directory; expected a .npy or .csv file")
    if p.suffix not in (".npy", ".csv", ".txt"):
        raise CliError(f"{what}: expected a .npy or .csv file")
    try:
        if p.suffix == ".npy":
            _check_npy(p, what, 2)
            m = np.load(p, allow_pickle=False)
        else:
            m = _read_csv(p, what)
    except CliError:
        raise
    except (ValueError, OSError, EOFError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise CliError(f"{what} could not be read: {reason}") from None
    m = np.asarray(m)
    if m.dtype.kind == "c":
        raise CliError(f"{what} holds complex numbers; expected a real matrix")
    if m.dtype.kind not in "fiub":
        raise CliError(f"{what} holds {m.dtype} values; expected a real matrix")
    m = m.astype(float)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.size == 0:
        raise CliError(f"{what} has shape {m.shape}; expected an N x N matrix")
    _check_clients(what, m.shape[0])
    bad = np.argwhere(~np.isfinite(m))
    if bad.size:
        i, j = bad[0]
        raise CliError(f"{what}: entry ({i}, {j}) is {m[i, j]}; expected finite numbers")
    big = np.argwhere(np.abs(m) > MAX_ENTRY)
    if big.size:
        i, j = big[0]
        raise CliError(f"{what}: entry ({i}, {j}) is {shown(m[i, j])}; expected numbers of "
                       f"magnitude at most {MAX_ENTRY:g} (the formulas square and sum them); "
                       "rescale the units")
    return m


def _check_clients(what: str, n: int) -> None:
    from pflbounds.limits import MAX_CLIENTS

    if n > MAX_CLIENTS:
        raise CliError(f"{what} has {n} clients: at most {MAX_CLIENTS}")


def _check_npy(p: Path, what: str, ndim: int) -> None:
    """A .npy file by its header, before its data is read: numpy's format, and not more
    than MAX_CLIENTS clients along any of its axes."""
    import numpy as np

    from pflbounds.limits import MAX_CLIENTS

    with p.open("rb") as fh:
        if fh.read(6) != b"\x93NUMPY":
            raise CliError(f"{what} is not a .npy file (written by numpy.save)")
        fh.seek(0)
        try:
            read = {(1, 0): np.lib.format.read_array_header_1_0,
                    (2, 0): np.lib.format.read_array_header_2_0}.get(
                np.lib.format.read_magic(fh))
            if read is None:
                return  # a later format: np.load reads or names it
            shape = read(fh)[0]
        except (ValueError, OSError, EOFError, SyntaxError):
            return  # np.load names the damage
    if len(shape) == ndim and any(s > MAX_CLIENTS for s in shape):
        _check_clients(what + f" (shape {tuple(shape)})", max(shape))


def _read_csv(p: Path, what: str) -> np.ndarray:
    """Rows of comma-separated numbers (no header); empty, space- or semicolon-separated and
    ragged files are named as such."""
    import numpy as np

    from pflbounds.limits import MAX_CSV_BYTES

    try:
        if p.stat().st_size > MAX_CSV_BYTES:
            raise CliError(f"{what} is larger than {MAX_CSV_BYTES // 10**6} MB; write a large "
                           "matrix as .npy (numpy.save)")
    except OSError as e:
        raise CliError(f"{what} could not be read: {e.strerror or e}") from None
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CliError(f"{what} is not a text file; expected numbers separated by commas") \
            from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise CliError(f"{what} is empty; expected N rows of N numbers separated by commas")
    rows = []
    for k, line in enumerate(lines, start=1):
        cells = line.split(",")
        if (len(cells) == 1 and len(line.split()) > 1) or ";" in line:
            raise CliError(f"{what}, line {k}: values must be separated by commas "
                           f"(found {line.strip()[:40]!r})")
        try:
            rows.append([float(c) for c in cells])
        except ValueError:
            hint = " (no header line)" if k == 1 else ""
            raise CliError(f"{what}, line {k}: expected numbers separated by commas{hint}, "
                           f"found {line.strip()[:40]!r}") from None
    if len({len(r) for r in rows}) > 1:
        raise CliError(f"{what}: rows have different lengths "
                       f"({', '.join(str(len(r)) for r in rows[:6])})")
    return np.array(rows, dtype=float)


def load_vector(text: str, name: str) -> np.ndarray:
    """One value per agent from a comma list (``1,2,0.5``), a ``.csv`` file (one row or one
    column of numbers separated by commas) or a 1-D ``.npy`` file; entries must be finite and
    > 0. Every problem is a :class:`CliError` naming the entry."""
    import numpy as np

    if Path(text).suffix in (".npy", ".csv", ".txt") or Path(text).exists():
        what = f"{name} file {text!r}"
        p = Path(text)
        if not p.is_file():
            raise CliError(f"{what} does not exist" if not p.exists() else
                           f"{what} is a directory; expected a .npy or .csv file")
        if p.suffix == ".npy":
            _check_npy(p, what, 1)
            try:
                v = np.load(p, allow_pickle=False)
            except (ValueError, OSError, EOFError) as e:
                raise CliError(f"{what} could not be read: {e}") from None
        else:
            v = _read_csv(p, what)
            v = v.ravel() if 1 in v.shape else v
        if np.asarray(v).dtype.kind not in "fiub":
            raise CliError(f"{what} holds {np.asarray(v).dtype} values; expected real numbers")
    else:
        what = f"{name}={text}"
        try:
            v = [float(c) for c in text.split(",")]
        except ValueError:
            raise CliError(f"{what}: expected numbers separated by commas (one per client)") \
                from None
    v = np.asarray(v, dtype=float)
    if v.ndim != 1 or v.size == 0:
        raise CliError(f"{what} has shape {v.shape}; expected one number per client")
    _check_clients(what, v.size)
    bad = np.flatnonzero(~np.isfinite(v) | (v <= 0) | (v > MAX_ENTRY))
    if bad.size:
        k = int(bad[0])
        raise CliError(f"{what}: entry {k} (client {k}) is {shown(v[k])}; expected a finite "
                       f"number > 0 and at most {MAX_ENTRY:g} for every client")
    return v


def check_vector_inputs(values: dict[str, Any], results: Sequence[Any], what: str) -> None:
    """A per-agent vector is refused where no per-agent derivation of ``results`` reads it
    (there, the name is one number and a vector would be read as a sweep)."""
    check_vector_names(values, per_agent_inputs(results), what)


def per_agent_inputs(results: Sequence[Any]) -> set[str]:
    """The inputs a per-agent derivation of ``results`` reads (one value per client)."""
    return {n for r in results for dv in r.derivations if dv.per_agent for n in dv.uses}


def check_vector_names(values: dict[str, Any], per_agent: Collection[str], what: str) -> None:
    """:func:`check_vector_inputs`, given the inputs that may be per-agent vectors."""
    import numpy as np

    for n in VECTOR_INPUTS:
        if np.ndim(values.get(n, 0.0)) == 0:
            continue
        if n not in per_agent:
            raise CliError(f"{n}={','.join(shown(x) for x in values[n])}: {what} reads {n} as "
                           "one number, not one per client (a per-client vector is read by "
                           "results that derive per-client values from it, with their matrix)")


def matrix_inputs(results: Sequence[Any] | None = None) -> tuple[str, ...]:
    """Names whose value may be a matrix file: ``b`` and ``Lambda``, and every matrix that a
    derivation of a loaded paper reads (a paper's own, e.g. philippenko2025's ``c``);
    ``results``: of these results instead of the loaded ones."""
    from pflbounds.symbolic import catalog

    names = dict.fromkeys(MATRIX_INPUTS)
    for r in catalog.loaded_results() if results is None else results:
        for dv in r.derivations:
            names.update(dict.fromkeys(dv.needs))
    return tuple(names)


def parse_inputs(items: Sequence[str], matrix_names: Sequence[str] | None = None
                 ) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """Split ``name=value`` words into scalar values and matrices (``b=FILE``);
    ``matrix_names``: the names that may be matrix files (default :func:`matrix_inputs`)."""
    from pflbounds.symbolic.parsing import ParseError, parse_assignments, resolve_assignments

    try:
        raw = parse_assignments(list(items))
    except ParseError as e:
        raise CliError(str(e)) from None
    matrices = {
        n: load_matrix(raw.pop(n), n)
        for n in (matrix_inputs() if matrix_names is None else matrix_names)
        if n in raw and (Path(raw[n]).suffix in (".npy", ".csv", ".txt") or Path(raw[n]).exists())
    }
    if len({m.shape for m in matrices.values()}) > 1:
        raise CliError("the matrices differ in size: " + ", ".join(
            f"{n} is {m.shape[0]} x {m.shape[1]}" for n, m in matrices.items()))
    vectors = {n: load_vector(raw.pop(n), n) for n in VECTOR_INPUTS
               if n in raw and ("," in raw[n] or Path(raw[n]).suffix in (".npy", ".csv", ".txt")
                                or Path(raw[n]).exists())}
    for n, v in vectors.items():
        for m, mat in matrices.items():
            if v.size != mat.shape[0]:
                raise CliError(f"{n} has {v.size} values but {m} is {mat.shape[0]} x "
                               f"{mat.shape[0]}: expected one value per client "
                               f"({mat.shape[0]})")
    try:
        values = resolve_assignments(raw)
    except ParseError as e:
        raise CliError(str(e)) from None
    return {**values, **vectors}, matrices

