"""What the commands read from the papers' indexes: results, checks, methods and records.

:class:`PaperIndex` answers from the stored part of each paper's index whose key is current,
and builds (imports) only the parts that are missing or stale, storing them for the next
command. Its checks are rebuilt from their records (:mod:`pflbounds.checking.indexed`), and
any check registered in this process (imported since) is served instead of its record, so a
check is never seen twice. Like the check registry it answers :meth:`get` and :meth:`match`,
so that a suite resolves its check ids through it
(:func:`pflbounds.running.suite.parse_suite`).

The commands use an index only in a process that has loaded no paper yet
(:func:`usable`): where papers are loaded, the registries are the truth and already paid for.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pflbounds.running.index import build, keys, store
from pflbounds.symbolic import loader

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.check import Check


def usable() -> bool:
    """Whether an index may answer in this process: it is not turned off, and no result or
    check is registered yet (a fresh command; elsewhere the registries answer)."""
    if store.disabled():
        return False
    import sys

    catalog = sys.modules.get("pflbounds.symbolic.catalog")  # none loaded: no result yet
    registry = sys.modules.get("pflbounds.checking.registry")  # none loaded: no check yet
    return not (catalog is not None and catalog.loaded_results()) \
        and not (registry is not None and registry.loaded_checks())


class PaperIndex:
    """The papers' indexes in the task cache folder ``root``; see the module docstring.
    Without a folder (``root`` None) parts are built in memory; with ``keep``, they are kept
    with their keys for :meth:`save`, once a run has made the folder."""

    def __init__(self, root: Path | None, *, keep: bool = False) -> None:
        self.root = root
        self.keep = keep
        self._parts: dict[tuple[str, str], dict[str, Any]] = {}
        self._checks: dict[str, dict[str, Check] | None] = {}
        self._env: dict[str, Any] | None = None
        self._core: str | None = None
        self._built: list[tuple[str, str, str]] = []
        self._packages: list[str] | None = None

    # ------------------------------------------------------------------ parts
    def _key(self, package: str, *, fresh: bool = False) -> str | None:
        """The current key of a package's index (``fresh``: the sources hashed again)."""
        folder = keys.package_folder(package)
        if folder is None:
            return None
        if self._env is None or fresh:
            self._env, self._core = keys.environment(), keys.core_digest()
        return keys.index_key(package, folder, self._env, self._core)

    def part(self, package: str, part: str) -> dict[str, Any]:
        """One part of a package's index: stored under the current key, else built (and
        stored, or kept, when the sources did not change meanwhile)."""
        if (package, part) in self._parts:
            return self._parts[(package, part)]
        key = self._key(package) if self.root is not None or self.keep else None
        data = None if key is None or self.root is None else \
            store.read(self.root, package, part, key)
        if data is None:
            data = build.build_part(package, part)
            if key is not None and build.storable(data) and \
                    self._key(package, fresh=True) == key:
                if self.root is not None:
                    store.write(self.root, package, part, key, data)
                else:
                    self._built.append((package, part, key))
        self._parts[(package, part)] = data
        return data

    def save(self, root: Path) -> None:
        """Store in the task cache folder ``root`` the parts kept in memory (module
        docstring), those whose sources did not change since."""
        for package, part, key in self._built:
            if self._key(package, fresh=True) == key:
                store.write(root, package, part, key, self._parts[(package, part)])
        self._built.clear()

    def packages(self, paper: str | None = None) -> list[str]:
        """Every paper package in the loader's order (read once: the list reads the installed
        distributions' entry points), or those of ``paper``."""
        if paper is not None:
            return loader.packages_of(paper)
        if self._packages is None:
            self._packages = loader.paper_packages()
        return list(self._packages)

    def ensure(self, part: str) -> None:
        """Make ``part`` of every paper package current (a paper that fails to import raises
        its error, as a full load does)."""
        for package in self.packages():
            self.part(package, part)

    # ------------------------------------------------------------------ results
    def papers(self, part: str = "results") -> dict[str, dict[str, str]]:
        """The record of every paper (``catalog.papers()``), in the loader's order."""
        out: dict[str, dict[str, str]] = {}
        for package in self.packages():
            rec = self.part(package, part).get("paper")
            if rec is not None:
                out.setdefault(rec["id"], rec)
        return out

    def result_rows(self, paper: str | None = None) -> list[dict[str, Any]]:
        """The listing row of every result (of one paper), in the catalog's order;
        ``KeyError`` naming the known papers for an unknown one."""
        papers = self.papers()
        if paper is not None and paper not in papers:
            raise KeyError(f"unknown paper {paper!r}; known: {', '.join(sorted(papers))}")
        rows = [row for package in self.packages()
                for row in self.part(package, "results")["results"]]
        return [r for r in rows if paper is None or r["id"].split(".", 1)[0] == paper]

    def algorithms(self, result_id: str) -> list[dict[str, Any]]:
        """The methods of a result: ``name``, ``source`` (file and line, or None) and
        ``missing`` (why it does not exist, or None)."""
        for package in self.packages(result_id.split(".", 1)[0]):
            found = self.part(package, "results")["algorithms"].get(result_id)
            if found:
                return found
        return []

    def paper_record(self, paper: str) -> dict[str, str] | None:
        """The record of one paper (title, citation, digest), or None."""
        for package in self.packages(paper):
            rec = self.part(package, "results").get("paper")
            if rec is not None and rec["id"] == paper:
                return rec
        return None

    # ------------------------------------------------------------------ checks
    def _package_checks(self, package: str) -> dict[str, Check]:
        from pflbounds.checking import registry
        from pflbounds.checking.indexed import check_of

        if self._checks.get(package) is None:
            records = self.part(package, "checks")["checks"]
            if records is None:  # built just now, from the imported modules
                found = {c.id: c for c in registry.loaded_checks()
                         if build.within(registry.module_of(c.id), package)}
            else:
                found = {r["id"]: check_of(r) for r in records}
            self._checks[package] = found
        out = dict(self._checks[package])  # type: ignore[arg-type]
        for cid in out:
            live = registry.find(cid)
            if live is not None:
                out[cid] = live
        return out

    def families(self) -> dict[str, Any]:
        """The error family of every paper whose checks part is stored (a
        :class:`~pflbounds.running.multiplicity.PaperFamily`, or None when the paper declares
        none), by paper id; a paper left out is resolved by the run itself."""
        from pflbounds.running.multiplicity import PaperFamily

        out: dict[str, Any] = {}
        for package in self.packages():
            part = self.part(package, "checks")
            if part.get("checks") is not None and "family" in part:
                fam = part["family"]
                out[build.paper_id(package)] = None if fam is None else \
                    PaperFamily.from_dict(fam)
        return out

    def checks(self, paper: str | None = None) -> list[Check]:
        """The checks of every paper package (or of one paper's), sorted by id, with those
        registered in this process besides (``registry.all_checks``)."""
        from pflbounds.checking import registry

        found: dict[str, Check] = {}
        for package in self.packages(paper):
            found.update(self._package_checks(package))
        found.update({c.id: c for c in registry.loaded_checks(paper)})
        return sorted((c for c in found.values() if paper is None or c.paper == paper),
                      key=lambda c: c.id)

    def find(self, check_id: str) -> Check | None:
        """The check with this id, or None (only the packages of its paper are read)."""
        paper = check_id.split(".", 1)[0]
        for c in self.checks(paper if self.packages(paper) else None):
            if c.id == check_id:
                return c
        return None

    def get(self, check_id: str, *, module: str | None = None) -> Check:
        """The check with this id (``registry.get``: an unknown id loads every paper for its
        error message, which names close ids)."""
        from pflbounds.checking import registry

        found = self.find(check_id)
        return found if found is not None else registry.get(check_id, module=module)

    def match(self, pattern: str) -> list[Check]:
        """Checks whose id matches a glob pattern, sorted by id (``registry.match``: a
        pattern that names its paper reads only that paper's checks)."""
        paper = pattern.split(".", 1)[0]
        named = "." in pattern and not any(ch in paper for ch in "*?[") \
            and bool(self.packages(paper))
        return [c for c in self.checks(paper if named else None)
                if fnmatch.fnmatchcase(c.id, pattern)]
