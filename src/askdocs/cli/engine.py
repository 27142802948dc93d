"""``askdocs index``, ``askdocs search`` and ``askdocs eval``: the engine on the command line.

``index PATH`` registers the folder as a site (``--site NAME``, default: the folder's
name) in ``<data-dir>/sites.json`` (``askdocs.sites.registry``), so later ``search``,
``eval`` and ``serve`` runs on the same data dir find it through the site catalog; with one
site registered, ``--site`` may be omitted. See docs/user-guide/search.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import anyio
import click

from askdocs.cli.context import CliContext
from askdocs.cli.paths import not_indexed_hint, require_folder
from askdocs.cli.progress import progress
from askdocs.core import Core
from askdocs.search.evalset import Question, lead_or_heading, parse_questions
from askdocs.search.metrics import Judged, dedupe, first_rank, report
from askdocs.search.output import batch_line, report_json, report_lines, result_json
from askdocs.search.output import result_lines as search_lines
from askdocs.service import AskDocs, IndexReport
from askdocs.settings import Settings, SiteConfig
from askdocs.sites import folder_site
from askdocs.sites.registry import register_site
from askdocs.types import SearchResult

_SITE_ID = re.compile(r"[^a-z0-9_-]+")


# -- the folder sites the CLI registered ----------------------------------------------


def site_id_for(path: Path, name: str | None) -> str:
    """The site id: ``--site`` as given, else the folder name made id-safe."""
    if name is not None:
        return name
    derived = _SITE_ID.sub("-", path.resolve().name.lower()).strip("-_")[:63]
    return derived or "docs"


def _settings(obj: CliContext | None) -> Settings:
    return (obj or CliContext()).settings


def _shows_progress(obj: CliContext | None) -> bool:
    return obj is None or obj.verbosity >= 0


@contextmanager
def _service(settings: Settings) -> Iterator[AskDocs]:
    """The engine over the site catalog (config sites, then registered folders), built as
    every surface builds it: through the ``Core``."""
    core = Core(settings)
    try:
        yield core.engine
    finally:
        anyio.run(core.aclose)


def _index_folder(settings: Settings, path: Path, name: str | None) -> SiteConfig:
    require_folder(path)
    site = folder_site(path.resolve(), site_id_for(path, name))
    register_site(settings.data_dir, site)
    return site


def _report_json(report_: IndexReport, path: Path) -> dict[str, object]:
    return {
        "site": report_.site,
        "path": str(path.resolve()),
        "collection": report_.collection,
        "chunks": report_.chunks,
        "embedded": report_.embedded,
        "reused": report_.reused,
        "pages": report_.pages,
        "errors": report_.errors,
        "seconds": round(report_.seconds, 3),
    }


# -- commands --------------------------------------------------------------------------


@click.command("index")
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option("--site", "site_name", help="Site id to index PATH as (default: folder name).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per site.")
@click.pass_obj
def index(obj: CliContext | None, path: Path | None, site_name: str | None, as_json: bool) -> None:
    """Index the docs folder PATH incrementally: only changed sections are embedded.

    Without PATH, index every configured site (askdocs's own docs by default).
    """
    settings = _settings(obj)
    site = _index_folder(settings, path, site_name) if path is not None else None
    with _service(settings) as service:
        targets = [site] if site is not None else service.sites
        for target in targets:
            with progress(target.id, enabled=_shows_progress(obj)) as update:
                result = service.index(target.id, update)
            _echo_report(result, path or target.roots[0].path, as_json)


def _echo_report(result: IndexReport, path: Path, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(_report_json(result, path)))
        return
    click.echo(
        f"{result.site}: {result.chunks} chunks from {result.pages} pages "
        f"({result.embedded} embedded, {result.reused} reused, {result.errors} errors) "
        f"in {result.seconds:.1f}s -> {result.collection}"
    )


@click.command("search")
@click.argument("query", required=False)
@click.option("--site", help="Site id (optional when one site is indexed).")
@click.option("--locale", help="Locale to search (falls back to the site's default).")
@click.option("-k", "--limit", default=10, show_default=True, type=click.IntRange(1, 100))
@click.option("--batch", type=click.File("r", encoding="utf-8"), help="JSON Lines questions.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def search(
    obj: CliContext | None,
    query: str | None,
    site: str | None,
    locale: str | None,
    limit: int,
    batch: TextIO | None,
    as_json: bool,
) -> None:
    """Search the indexed docs for QUERY, or answer every question of a --batch file."""
    if (query is None) == (batch is None):
        raise click.UsageError("give either QUERY or --batch FILE")
    with _service(_settings(obj)) as service:
        if batch is not None:
            questions = parse_questions(batch, getattr(batch, "name", "<batch>"))
            for question in questions:
                result = _ask(service, question, site, locale, limit)
                click.echo(json.dumps(batch_line(question.id, result), ensure_ascii=False))
            return
        assert query is not None
        config = service.site(site)
        with not_indexed_hint(service):
            result = service.search(query, site=config.id, locale=locale, limit=limit)
    if as_json:
        click.echo(json.dumps(result_json(query, config.id, result), ensure_ascii=False))
    else:
        click.echo("\n".join(search_lines(result)))


def _ask(
    service: AskDocs, question: Question, site: str | None, locale: str | None, limit: int
) -> SearchResult:
    with not_indexed_hint(service):
        return service.search(
            question.question, site=site, locale=locale, limit=limit, history=question.history
        )


@click.command("eval")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--docs", type=click.Path(path_type=Path), help="Index first.")
@click.option("--site", "site_name", help="Site id (with --docs: the id to index it as).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--details", is_flag=True, help="Also print each question's first relevant rank.")
@click.pass_obj
def eval_command(
    obj: CliContext | None,
    file: TextIO,
    docs: Path | None,
    site_name: str | None,
    as_json: bool,
    details: bool,
) -> None:
    """Score retrieval on labelled questions: hit@1, hit@5, MRR@10, nDCG@10, abstention."""
    settings = _settings(obj)
    questions = parse_questions(file, getattr(file, "name", "<eval>"))
    extra = _index_folder(settings, docs, site_name) if docs is not None else None
    with _service(settings) as service:
        site = service.site(extra.id if extra else site_name)
        if extra is not None:
            with progress(site.id, enabled=_shows_progress(obj)) as update:
                service.index(site.id, update)
        with not_indexed_hint(service):
            judged = [_judge(service, site.id, q) for q in questions]
    figures = report(judged)
    if as_json:
        click.echo(json.dumps(report_json(figures)))
        return
    if details:
        for line in _detail_lines(judged):
            click.echo(line)
    click.echo("\n".join(report_lines(figures)))


def _judge(service: AskDocs, site: str, question: Question) -> Judged:
    result = service.search(question.question, site=site, limit=10, history=question.history)
    return Judged(
        id=question.id,
        kind=question.kind,
        labels=question.relevant,
        results=tuple(
            lead_or_heading(hit.path, hit.heading, hit.section_id) for hit in result.hits
        ),
        match=result.match,
    )


def _detail_lines(judged: list[Judged]) -> Iterator[str]:
    for item in judged:
        rank = first_rank(dedupe(item.results), item.labels, 10) if item.labels else None
        where = "-" if not item.labels else (str(rank) if rank else "miss")
        yield f"{item.id:<12} {item.kind:<13} rank={where:<5} match={item.match}"
