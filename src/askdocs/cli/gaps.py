"""``askdocs report``: the docs-gaps report from Ask AI's records (``answer.report``).

What readers asked (grouped by similar question), which questions found nothing in the
documentation, which answers they disliked, and which pages answers cite most. Reads the
database of the data dir; embeds the questions with the configured embedding model to group
them (word overlap when there is none).
"""

from __future__ import annotations

import json
from functools import partial

import anyio
import click

from askdocs.answer.report import GapsReport, Group, as_json, embed_with, gaps_report, parse_since
from askdocs.assistant.feedback import disliked_replies
from askdocs.cli.context import CliContext
from askdocs.core import Core

TOP = 10


@click.command("report")
@click.option("--since", default="7d", show_default=True, help="How far back: 24h, 7d, 2w.")
@click.option("--site", "site_id", default=None, help="One site's questions (default: all).")
@click.pass_obj
def report(ctx: CliContext, since: str, site_id: str | None) -> None:
    """The docs-gaps report: most asked, unanswered, disliked, most cited."""
    try:
        window = parse_since(since)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--since") from None
    settings = ctx.settings
    core = Core(settings)
    try:
        db = core.database()
        embed = embed_with(core.engine.embedder)
        rated = partial(disliked_replies, db)
        result = gaps_report(db, settings.ask, (window, site_id), embed, rated)
    finally:
        anyio.run(core.aclose)
    click.echo(json.dumps(as_json(result), indent=2) if ctx.json else text(result, since))


def text(result: GapsReport, since: str) -> str:
    lines = [
        f"Ask AI over the last {since}: {result.questions} questions, {result.no_match} with no "
        f"match, {result.liked} liked, {result.disliked_count} disliked, {result.flagged} with "
        "citations removed.",
        "",
        "Most asked:",
        *_groups(result.most_asked),
        "",
        "No match (the documentation may be missing these):",
        *_groups(result.no_match_groups),
        "",
        "Disliked answers:",
        *[
            f"  - {d.question}" + (f" — “{d.comment}”" if d.comment else "")
            for d in result.disliked
        ],
        "",
        "Pages most cited:",
        *[f"  {p.count:>4}  {p.title} ({p.url})" for p in result.pages_most_cited[:TOP]],
    ]
    return "\n".join(lines)


def _groups(groups: list[Group]) -> list[str]:
    if not groups:
        return ["  (none)"]
    out: list[str] = []
    for group in groups[:TOP]:
        out.append(f"  {group.count:>4}  {group.label}")
        out += [f"          also: {q}" for q in group.examples[1:3]]
    return out
