"""MkDocs hooks: a page per paper, generated from the catalog at build time.

The navigation's ``Papers`` section lists ``papers/index.md`` and one page per paper the
catalog knows (in its order). A hand-written ``docs/papers/<paper>.md`` receives the
generated part at its marker; a paper without one gets a generated page. The generator is
:mod:`pflbounds.docsgen`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from pflbounds import docsgen

_SUITES: dict[str, list[str]] = {}


def _paper_uri(paper: str) -> str:
    return f"papers/{paper}.md"


def on_config(config: Any) -> Any:
    """Fill the ``Papers`` section of the navigation from the catalog."""
    root = Path(config["config_file_path"]).parent
    _SUITES.clear()
    _SUITES.update(docsgen.suite_membership(root / "validation"))
    pages = ["papers/index.md", *({p: _paper_uri(p)} for p in docsgen.paper_ids())]
    for item in config["nav"] or []:
        if isinstance(item, dict) and "Papers" in item:
            item["Papers"] = pages
    return config


def on_files(files: Files, config: Any) -> Files:
    """A generated page for every paper that has no hand-written one."""
    for paper in docsgen.paper_ids():
        uri = _paper_uri(paper)
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri,
                                        content=docsgen.page(paper, None, _SUITES)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Insert the generated part into the hand-written pages."""
    uri = page.file.src_uri
    if uri == "papers/index.md":
        return markdown.replace(docsgen.PAPERS_MARKER, docsgen.papers_table(), 1)
    for paper in docsgen.paper_ids():
        if uri == _paper_uri(paper) and not page.file.generated_by:
            return docsgen.page(paper, markdown, _SUITES)
    return markdown
