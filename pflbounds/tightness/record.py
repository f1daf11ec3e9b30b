"""Records of worst-case searches, and their cache on disk.

A :class:`SearchRecord` holds one :class:`PointRecord` per point of the case's sweep: the
bound, the worst instance found (its parameter values, the raw coordinates and the seed that
reproduce it), the measured value there, the ratio measured / bound, how it was found
(``exact``, ``sdp`` or ``searched``), what the number says of the true worst case over the
sets (``worst_is``: ``exact``, ``sdp``, ``at least`` for a search of an upper bound, ``at
most`` for a lower bound), the ratio on the model's default instance, and the cost
(evaluations, seconds). Records are JSON; apart from wall times (the keys ``seconds``) they
are a function of the case, its seed and the code: :meth:`SearchRecord.fingerprint` hashes
them without the times, and two runs of one case give the same fingerprint.

The cache is a folder of ``KEY.json`` files, one per record, written atomically
(:func:`pflbounds.running.atomic.atomic_write`); the key hashes the case's canonical JSON,
the form's formula (so that an edited or mutated formula is never served an old record) and
the package version. A file at a key's path that is not a record written here is never
overwritten.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from pflbounds.checking.jsonsafe import canonical_json, decode_float, to_jsonable
from pflbounds.running.atomic import atomic_write

__all__ = ["FORMAT", "CacheError", "PointRecord", "RecordCache", "SearchRecord", "aggregate"]

FORMAT = "pflbounds.tightness/1"


class CacheError(ValueError):
    """A cache path that cannot be used (the message names it and why)."""


@dataclass
class PointRecord:
    """The search at one point of the sweep (module docstring)."""

    constants: dict[str, float]
    bound: float
    hidden_constants: list[str]
    measured: float
    stderr: float
    ratio: float
    verdict: str
    how: str
    mode: str
    worst_is: str
    instance: dict[str, Any]
    raw: list[float] | None
    seed: int
    default: dict[str, Any] | None
    evaluations: int
    seconds: float
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return to_jsonable(asdict(self))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PointRecord:
        names = {f.name for f in fields(cls)}
        d = {k: v for k, v in data.items() if k in names}
        for k in ("bound", "measured", "stderr", "ratio", "seconds"):
            d[k] = float(decode_float(d[k]))
        return cls(**d)


def aggregate(verdicts: list[str]) -> str:
    """One verdict for several: VIOLATED if any, else REFUSED or INCONCLUSIVE if any, else
    HOLDS."""
    for v in ("VIOLATED", "REFUSED", "INCONCLUSIVE"):
        if v in verdicts:
            return v
    return "HOLDS" if verdicts else "NO POINTS"


@dataclass
class SearchRecord:
    """All points of one case, with the key it is cached under."""

    key: str
    version: str
    case: dict[str, Any]
    sense: str
    points: list[PointRecord]
    seconds: float
    cached: bool = field(default=False, compare=False)
    """Whether the record came from the cache (not part of its JSON)."""

    @property
    def verdict(self) -> str:
        return aggregate([p.verdict for p in self.points])

    @property
    def worst(self) -> PointRecord:
        """The point with the largest ratio (smallest for a lower bound)."""
        def k(p: PointRecord) -> float:
            r = p.ratio if not math.isnan(p.ratio) else -math.inf
            return r if self.sense == "max" else -r
        return max(self.points, key=k)

    @property
    def evaluations(self) -> int:
        return sum(p.evaluations for p in self.points)

    def to_json(self, timings: bool = True) -> dict[str, Any]:
        """The record as JSON; ``timings=False`` drops every ``seconds`` (the only entries
        that differ between two runs of a case)."""
        out = {"format": FORMAT, "key": self.key, "version": self.version, "case": self.case,
               "sense": self.sense, "verdict": self.verdict,
               "worst_ratio": self.worst.ratio if self.points else None,
               "evaluations": self.evaluations, "seconds": self.seconds,
               "points": [p.to_json() for p in self.points]}
        out = to_jsonable(out)
        return out if timings else _drop_seconds(out)

    def fingerprint(self) -> str:
        """SHA-256 of the record's canonical JSON without wall times."""
        return hashlib.sha256(canonical_json(self.to_json(timings=False)).encode()).hexdigest()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SearchRecord:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a tightness record (format {data.get('format')!r})")
        return cls(key=data["key"], version=data["version"], case=data["case"],
                   sense=data["sense"],
                   points=[PointRecord.from_json(p) for p in data["points"]],
                   seconds=float(data["seconds"]))


def _drop_seconds(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _drop_seconds(v) for k, v in obj.items() if k != "seconds"}
    if isinstance(obj, list):
        return [_drop_seconds(v) for v in obj]
    return obj


class RecordCache:
    """Records in a folder, one ``KEY.json`` each (module docstring)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise CacheError(f"{self.folder} is a file, not a folder for tightness records")

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def _read(self, key: str) -> tuple[bool, SearchRecord | None]:
        """(whether a file is there, the record when it is one of ours for this key)."""
        p = self.path(key)
        if not p.exists():
            return False, None
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
            rec = SearchRecord.from_json(data)
        except (OSError, ValueError, KeyError, TypeError):
            return True, None
        return True, rec if rec.key == key else None

    def get(self, key: str) -> SearchRecord | None:
        """The stored record of ``key``, or None."""
        _, rec = self._read(key)
        if rec is not None:
            rec.cached = True
        return rec

    def check_writable(self, key: str) -> None:
        """:class:`CacheError` when the path of ``key`` holds a file that is not a record of
        this key (it is never overwritten)."""
        exists, old = self._read(key)
        if exists and old is None:
            raise CacheError(f"{self.path(key)} exists and is not a tightness record written "
                             "by pflbounds: it is left alone; choose another cache folder")

    def put(self, record: SearchRecord) -> Path:
        """Store ``record`` (atomically); refuses to replace a file that is not a record of
        this key."""
        self.check_writable(record.key)
        p = self.path(record.key)
        atomic_write(p, json.dumps(record.to_json(), indent=1, sort_keys=True,
                                   allow_nan=False) + "\n")
        return p
