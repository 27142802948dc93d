"""``askdocs corpus PATH [--json] [--check]``: what askdocs reads from a docs folder, and why
not; with ``--check`` (for CI) the exit status says whether anything was left out."""

from __future__ import annotations

import json
from pathlib import Path

import click

from askdocs.cli.context import CliContext
from askdocs.cli.paths import require_folder
from askdocs.ingest import CorpusSnapshot, read_site
from askdocs.ingest.diagnostics import DialectReport, dialect_report
from askdocs.reader.control import readable_variants
from askdocs.reader.linkcheck import LinkProblem, unresolved_links
from askdocs.sites import folder_site
from askdocs.types import Page


@click.command("corpus")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@click.option(
    "--check",
    is_flag=True,
    help="Exit 1 when a file is left out (invalid front matter...) or a link is unresolved.",
)
@click.pass_obj
def corpus(obj: CliContext | None, path: Path, as_json: bool, check: bool) -> None:
    """List the pages, sections and chunks of the docs folder PATH, with warnings and errors.

    Also prints the Markdown dialect of the folder, how many of each dialect construct were
    understood, and each one that was not (file:line) as a warning, and every authored link
    the reader cannot follow. Exits non-zero for a configuration error, such as PATH not
    existing; with --check also when a file is left out (invalid front matter, a symbolic
    link...) or a link is unresolved.
    """
    settings = obj.settings if obj is not None else CliContext().settings
    require_folder(path)
    snapshot = read_site(folder_site(path.absolute()), settings.corpus)
    links = unresolved_links(snapshot.pages, readable_variants(snapshot))
    if as_json:
        click.echo(json.dumps(corpus_json(snapshot, links), ensure_ascii=False))
        for warning in snapshot.warnings:
            click.echo(f"warning: {warning}", err=True)
    else:
        _print_summary(snapshot, links)
    if check and (snapshot.errors or links):
        raise SystemExit(1)


def corpus_json(snapshot: CorpusSnapshot, links: list[LinkProblem]) -> dict[str, object]:
    """The ``--json`` shape: pages, errors, unresolved links, the corpus revision and the
    dialect report."""
    return {
        "pages": [_page_json(snapshot, page) for page in snapshot.pages],
        "errors": [{"path": error.path, "reason": error.reason} for error in snapshot.errors],
        "unresolved_links": [
            {"path": link.path, "href": link.href, "reason": link.reason} for link in links
        ],
        "revision": snapshot.revision,
        **_dialect_json(dialect_report(snapshot)),
    }


def _dialect_json(report: DialectReport) -> dict[str, object]:
    return {
        "dialects": [
            {"root": root, "dialect": dialect, "reason": reason}
            for root, dialect, reason in report.dialects
        ],
        "constructs": report.constructs,
        "not_understood": [
            {"path": p.path, "line": p.line, "construct": p.construct}
            for p in report.not_understood
        ],
        "raw_markers_in_chunks": report.raw_markers,
        "bare_file_name_titles": list(report.bare_titles),
    }


def _page_json(snapshot: CorpusSnapshot, page: Page) -> dict[str, object]:
    return {
        "path": page.path,
        "title": page.title,
        "slug": page.slug,
        "locale": page.locale,
        "audience": page.audience,
        "sections": [
            {
                "id": section.heading.section_id if section.heading else "",
                "heading": section.heading.text if section.heading else page.title,
                "level": section.heading.level if section.heading else 0,
            }
            for section in page.sections
        ],
        "chunks": len(snapshot.chunks_of(page)),
    }


def _print_summary(snapshot: CorpusSnapshot, links: list[LinkProblem]) -> None:
    report = dialect_report(snapshot)
    for root, dialect, reason in report.dialects:
        click.echo(f"dialect: {dialect} ({reason}): {root}")
    for page in snapshot.pages:
        chunks = len(snapshot.chunks_of(page))
        click.echo(
            f"{page.path}  [{page.locale}, {page.audience}]  {page.title!r}: "
            f"{len(page.sections)} sections, {chunks} chunks"
        )
    understood = ", ".join(f"{name} {count}" for name, count in report.constructs.items())
    click.echo(f"constructs understood: {understood or 'none'}")
    for problem in report.not_understood:
        click.echo(f"warning: {problem.path}:{problem.line}: {problem.construct}")
    click.echo(f"dialect markers left in chunk text: {report.raw_markers}")
    for warning in snapshot.warnings:
        click.echo(f"warning: {warning}")
    for link in links:
        click.echo(f"unresolved link: {link.path}: {link.href} ({link.reason})")
    for error in snapshot.errors:
        click.echo(f"error: {error.path}: {error.reason}")
    click.echo(
        f"{len(snapshot.pages)} pages, {len(snapshot.chunks)} chunks, "
        f"{len(snapshot.warnings) + len(report.not_understood)} warnings, "
        f"{len(links)} unresolved links, {len(snapshot.errors)} errors; "
        f"revision {snapshot.revision[:12]}"
    )
