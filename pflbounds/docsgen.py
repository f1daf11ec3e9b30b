"""Pages of the user guide generated from the catalog and the check registry.

The MkDocs hook ``docs/hooks.py`` calls :func:`paper_markdown` for every paper the catalog
knows, so a paper's page lists what the code declares (results with their forms, inputs
and conditions; assumptions; errata with their severity and how each is known; checks with
their kind and expected verdict) and cannot drift from it. A hand-written page
``docs/papers/<paper>.md`` carries the prose; the generated part replaces its marker
:data:`MARKER`. No paper is named here: papers come from
:mod:`pflbounds.symbolic.catalog`, checks from :mod:`pflbounds.checking.registry`, and the
optional ``errata`` module of a paper package (errata that no result carries) is found
like its ``checks`` module.
"""

from __future__ import annotations

import html
import importlib
import importlib.util
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

MARKER = "<!-- generated: catalog -->"
"""Where a hand-written paper page receives the generated part."""

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|#])")


def text(s: str) -> str:
    """``s`` as literal Markdown text: HTML-escaped, Markdown's special characters escaped
    (a statement such as ``E[f_i(x^K)] <= ...`` must not turn into emphasis or a link)."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(" ".join(str(s).split()), quote=False))


def code(s: str) -> str:
    """``s`` as an inline code span (for formulas and ids; a backtick inside gets a double
    fence). Markdown's table rows do not split at a ``|`` inside a code span."""
    s = " ".join(str(s).split())
    fence = "``" if "`" in s else "`"
    pad = " " if "`" in s else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def _key(full_id: str) -> str:
    """The part of an id after the paper (``even2022.theorem2`` -> ``theorem2``)."""
    return full_id.split(".", 1)[1] if "." in full_id else full_id


def _anchor(prefix: str, full_id: str) -> str:
    return prefix + "-" + re.sub(r"[^A-Za-z0-9_-]", "-", _key(full_id))


def _link(prefix: str, full_id: str, paper: str) -> str:
    """The link target of an id's block: on this page, or on its own paper's page."""
    own = full_id.split(".", 1)[0]
    return ("" if own == paper else f"{own}.md") + "#" + _anchor(prefix, full_id)


def paper_ids() -> list[str]:
    """Every paper of the catalog, in the loader's order."""
    from pflbounds.symbolic import catalog

    return list(catalog.papers())


def suite_membership(validation_dir: Path) -> dict[str, list[str]]:
    """Check id -> names of the suites (``validation/*.toml``) that run it."""
    from pflbounds.running.suite import load_suite

    out: dict[str, list[str]] = {}
    for path in sorted(Path(validation_dir).glob("*.toml")):
        suite = load_suite(path)
        for c in suite.checks:
            names = out.setdefault(c.id, [])
            if suite.name not in names:
                names.append(suite.name)
    return out


def _errata_module_entries(paper: str) -> list[Any]:
    """The errata of ``paper``'s optional ``errata`` module (its ``ERRATA`` mapping or
    sequence), found through the loader like its ``checks`` module."""
    from pflbounds.symbolic import loader

    for pkg in loader.paper_packages():
        if pkg.rsplit(".", 1)[-1] != paper:
            continue
        name = pkg + ".errata"
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            return []
        found = getattr(importlib.import_module(name), "ERRATA", ())
        return list(found.values()) if isinstance(found, Mapping) else list(found)
    return []


def paper_errata(paper: str) -> list[tuple[Any, list[str]]]:
    """Every erratum of ``paper`` with the ids of the results that carry it: those of its
    results first (in the catalog's order), then the ones its ``errata`` module declares
    that no result carries."""
    from pflbounds.symbolic import catalog

    seen: dict[str, tuple[Any, list[str]]] = {}
    for r in catalog.results(paper):
        for e in r.errata:
            seen.setdefault(e.id, (e, []))[1].append(r.id)
    for e in _errata_module_entries(paper):
        seen.setdefault(e.id, (e, []))
    return list(seen.values())


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _tally(items: Iterable[str], order: Sequence[str]) -> str:
    items = list(items)
    parts = [f"{items.count(k)} {k}" for k in order if items.count(k)]
    parts += [f"{items.count(k)} {k}" for k in sorted(set(items) - set(order))]
    return ", ".join(parts)


def paper_markdown(paper: str, suites: Mapping[str, Sequence[str]] | None = None) -> str:
    """The generated part of ``paper``'s page (Markdown): a summary, the assumptions, every
    result, the errata and the checks. ``suites``: check id -> suites that run it
    (:func:`suite_membership`)."""
    from pflbounds.checking import registry
    from pflbounds.symbolic import catalog
    from pflbounds.symbolic.result import ERRATUM_KNOWN, ERRATUM_SEVERITIES

    suites = suites or {}
    info = catalog.papers()[paper]
    results = catalog.results(paper)
    registry.load_papers()
    checks = registry.all_checks(paper)
    errata = paper_errata(paper)
    checks_of: dict[str, list[str]] = {}
    for c in checks:
        if c.result_id:
            checks_of.setdefault(c.result_id, []).append(c.id)
    for e, rids in errata:
        for rid in rids:
            if e.check_id and e.check_id not in checks_of.get(rid, []):
                checks_of.setdefault(rid, []).append(e.check_id)

    out: list[str] = []
    add = out.append
    forms = [f for r in results for f in r.forms]
    add("## From the code")
    add("")
    add("This part of the page is generated from the catalog and the check registry when "
        "the guide is built.")
    add("")
    add("| | |")
    add("|---|---|")
    add(f"| title | {text(info['title'])} |")
    add(f"| citation | {text(info['citation'])} |")
    add(f"| results | {len(results)} ({_tally(forms, ('printed', 'explicit', 'corrected'))} "
        "forms) |")
    add(f"| checks | {len(checks)} ({_tally([c.role for c in checks], ('claim', 'control'))}) |")
    add(f"| errata | {len(errata)} ("
        f"{_tally([e.severity for e, _ in errata], tuple(ERRATUM_SEVERITIES))}; known by: "
        f"{_tally([e.known for e, _ in errata], tuple(ERRATUM_KNOWN))}) |")
    if info.get("digest"):
        add(f"| digest | {code(info['digest'])} |")
    add("")
    add(f"List the results with `pflbounds list --paper {paper}`, and any one with "
        f"`pflbounds show {paper}.<result>`; run the checks with `pflbounds validate "
        f"{paper}` (every check on its full grid) or `pflbounds check {paper}.<check>`.")
    add("")

    assumptions = catalog.assumptions(paper)
    if assumptions:
        add("## Assumptions")
        add("")
        add("| id | name | statement |")
        add("|---|---|---|")
        for a in assumptions:
            add(f"| {code(a.id)} | {text(a.name)} | {text(a.statement)} |")
        add("")

    add("## Results")
    add("")
    add("Each result in every form the code holds (`printed`: as the paper states it; "
        "`explicit`: constants from the proof; `corrected`: errata applied; other forms as "
        "named), with its inputs and the conditions it is evaluated under.")
    add("")
    for r in results:
        out.extend(_result_block(r, checks_of.get(r.id, []), paper))

    add("## Errata")
    add("")
    if not errata:
        add("None recorded.")
        add("")
    else:
        add("Severity: " + "; ".join(f"**{k}**, {text(v)}" for k, v in
                                     ERRATUM_SEVERITIES.items()) + ".")
        add("")
        add("Known: " + "; ".join(f"**{k}**, {text(v)}" for k, v in ERRATUM_KNOWN.items())
            + ".")
        add("")
    for e, rids in errata:
        add(f"### {code(e.id)} {{#{_anchor('e', e.id)}}}")
        add("")
        add(f"*{text(e.where)}*; severity **{e.severity}**; known: **{e.known}**.")
        add("")
        add(f"- **What**: {text(e.what)}")
        add(f"- **Fix**: {text(e.fix)}")
        if e.check_id:
            add(f"- **Check**: [{code(e.check_id)}]({_link('c', e.check_id, paper)})")
        if rids:
            add("- **Results**: " + ", ".join(f"[{code(rid)}]({_link('r', rid, paper)})"
                                              for rid in rids))
        else:
            add("- **Results**: none (declared in the paper's errata module only)")
        if e.digest_ref:
            add(f"- **Digest**: {text(e.digest_ref)}")
        add("")

    add("## Checks")
    add("")
    add("Every registered check, with the verdict it expects (`pflbounds validate` fails "
        "only when a verdict differs from its expectation). *claim*: the verdict is about "
        "the paper; *control*: a planted claim or a power check, about the checker.")
    add("")
    add("| check | kind | expects | result [form] | role | engine | suites |")
    add("|---|---|---|---|---|---|---|")
    for c in checks:
        target = ""
        if c.result_id:
            target = f"[{code(c.result_id)}]({_link('r', c.result_id, paper)})"
            target += f" [{c.form}]" if c.form else ""
        add(f"| [{code(_key(c.id))}](#{_anchor('c', c.id)}) | {c.kind.value} | "
            f"{c.expected.value} | {target} | {c.role} | {c.engine} | "
            f"{', '.join(suites.get(c.id, [])) or '-'} |")
    add("")
    for c in checks:
        add(f"### {code(c.id)} {{#{_anchor('c', c.id)}}}")
        add("")
        add(f"**{text(c.title)}**")
        add("")
        if c.description:
            add(text(c.description))
            add("")
    return "\n".join(out) + "\n"


def _result_block(r: Any, check_ids: Sequence[str], paper: str) -> list[str]:
    import sympy as sp

    from pflbounds.symbolic.constants import DOMAINS, get_constant

    out = [f"### {text(r.label)} {{#{_anchor('r', r.id)}}}", ""]
    meta = [code(r.id), str(r.kind)]
    if r.source:
        meta.append(text(r.source))
    if r.equations:
        meta.append("equations " + ", ".join(text(e) for e in r.equations))
    out += ["; ".join(meta) + ".", ""]
    out += [text(r.statement), ""]
    if r.hypotheses:
        out += ["Hypotheses: " + ", ".join(code(h) for h in r.hypotheses) + ".", ""]
    for c in r.conditions:
        out += [f"Condition: {code(c)}" + (f" ({text(c.label)})" if c.label else "") + ".",
                ""]
    for name, f in r.forms.items():
        exprs = f.exprs
        if f.parts:
            body = "; ".join(f"{p}: {code(sp.sstr(e))}" for p, e in exprs.items())
        else:
            body = code(f"{r.quantity} {r.relation} {sp.sstr(f.expr)}")
        line = f"- **{name}**: {body}"
        if f.note:
            line += f"  \n  {text(f.note)}"
        for c in f.conditions:
            line += f"  \n  condition: {code(c)}"
        for h in f.hidden_constants:
            line += f"  \n  hidden: {text(h)}"
        out.append(line)
    out.append("")
    names = sorted({n for fname in r.forms for n in r.inputs(fname)})
    if names:
        out += ["| input | meaning | unit | domain |", "|---|---|---|---|"]
        for n in names:
            c = get_constant(n, paper)
            out.append(f"| {code(n)} | {text(c.meaning)} | {code(c.unit)} | "
                       f"{text(DOMAINS[c.domain])} |")
        out.append("")
    derived = sorted({f"{dv.symbol} <- {'+'.join(dv.needs)}" for dv in r.derivations
                      if dv.symbol in names})
    if derived:
        out += ["From matrices: " + ", ".join(code(d) for d in derived) + ".", ""]
    if r.errata:
        out += ["Errata: " + ", ".join(f"[{code(e.id)}]({_link('e', e.id, paper)})"
                                       for e in r.errata) + ".", ""]
    if check_ids:
        out += ["Checks: " + ", ".join(f"[{code(_key(c))}]({_link('c', c, paper)})"
                                       for c in check_ids) + ".", ""]
    elif r.unchecked:
        out += [f"No check: {text(r.unchecked)}", ""]
    else:
        out += ["No check tests this result.", ""]
    if r.extra.get("defined_at"):
        out += [f"Defined at {code(r.extra['defined_at'])}.", ""]
    return out


def page(paper: str, hand_written: str | None,
         suites: Mapping[str, Sequence[str]] | None = None) -> str:
    """The whole page of ``paper``: the hand-written text with :data:`MARKER` replaced by
    the generated part (appended when the marker is missing), or a page of the generated
    part alone under the paper's title."""
    generated = paper_markdown(paper, suites)
    if hand_written is None:
        from pflbounds.symbolic import catalog

        title = catalog.papers()[paper]["title"]
        return f"# {paper}: {text(title)}\n\n{generated}"
    if MARKER in hand_written:
        return hand_written.replace(MARKER, generated, 1)
    return hand_written.rstrip("\n") + "\n\n" + generated


PAPERS_MARKER = "<!-- generated: papers -->"
"""Where the papers' overview page receives the table of papers."""


def papers_table(link: str = "{paper}.md") -> str:
    """A Markdown table of every paper: id (linked with ``link``), title, and the numbers of
    results, checks and errata."""
    from pflbounds.checking import registry
    from pflbounds.symbolic import catalog

    registry.load_papers()
    rows = ["| paper | title | results | checks | errata |", "|---|---|---:|---:|---:|"]
    for pid, info in catalog.papers().items():
        rows.append(f"| [{pid}]({link.format(paper=pid)}) | {text(info['title'])} | "
                    f"{len(catalog.results(pid))} | {len(registry.all_checks(pid))} | "
                    f"{len(paper_errata(pid))} |")
    return "\n".join(rows) + "\n"
