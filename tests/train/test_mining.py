"""Mining rules of the encoder training (train/mining.py) over a small tree read and chunked
by askdocs itself, and the BM25 hard negatives (train/negatives.py)."""

from __future__ import annotations

import random

import pytest

from askdocs.ingest import read_site
from askdocs.settings import CorpusSettings, RootConfig, SiteConfig
from askdocs.types import Chunk
from train.mining import (
    Pair,
    TreePages,
    base_verb,
    clean_sentence,
    heading_query,
    is_generic,
    is_question,
    link_sentences,
    mine,
    unambiguous,
)
from train.negatives import Bm25, draw, hard_negatives

PAGES = {
    "index.md": """---
title: Widgets
description: Everything about building and shipping widgets with the widget kit.
---

# Widgets

The widget kit builds widgets. To change the port, see [the server options](server.md#port).
Read [the FAQ](faq.md) for questions, or [ours](https://example.com/elsewhere).

## Example

Nothing to see.
""",
    "server.md": """# Server

## Configuring timeouts

Timeouts are set with `--timeout`, in seconds. See [how the port is chosen](#port) first.

## Port

The server listens on port 8000 unless `--port` says otherwise.

#### Port ranges

A range such as `8000-8010` picks the first free port.
""",
    "faq.md": """# FAQ

## How do I reset a widget?

Delete its state folder and start again.
Ranges are explained in [the port ranges](server.md#port-ranges).

## Why is my widget slow?

Widgets render on one thread.
""",
    "CHANGELOG.md": """# Changelog

## 1.2.0

- How do I upgrade? See [the server page](server.md).

## 1.1.0

- First release.

## 1.0.0

- Prototype.
""",
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> TreePages:
    root = tmp_path_factory.mktemp("widgets")
    for name, text in PAGES.items():
        (root / name).write_text(text, encoding="utf-8")
    site = SiteConfig(id="widgets", roots=[RootConfig(path=root, dialect="gfm")])
    snapshot = read_site(site, CorpusSettings())
    return TreePages("widgets", tuple((p, snapshot.chunks_of(p)) for p in snapshot.pages))


@pytest.fixture(scope="module")
def pairs(tree: TreePages) -> list[Pair]:
    return mine(tree)


def by_query(pairs: list[Pair]) -> dict[str, Pair]:
    return {pair.query: pair for pair in pairs}


def test_question_headings_pair_with_their_section(pairs: list[Pair]) -> None:
    found = by_query(pairs)
    assert found["How do I reset a widget?"].kind == "question"
    assert found["How do I reset a widget?"].positive == "faq:en#how-do-i-reset-a-widget:0"
    assert found["Why is my widget slow?"].positive == "faq:en#why-is-my-widget-slow:0"


def test_task_headings_are_asked_and_generic_ones_skipped(pairs: list[Pair]) -> None:
    found = by_query(pairs)
    assert found["how do I configure timeouts"].kind == "heading"
    assert found["how do I configure timeouts"].positive == "server:en#configuring-timeouts:0"
    assert not any(p.positive.endswith("#example:0") for p in pairs)


def test_the_description_pairs_with_the_first_chunk_of_its_page(pairs: list[Pair]) -> None:
    pair = by_query(pairs)["Everything about building and shipping widgets with the widget kit."]
    assert (pair.kind, pair.positive) == ("description", "index:en#widgets:0")


def test_a_link_pairs_its_sentence_with_the_section_it_points_to(pairs: list[Pair]) -> None:
    pair = by_query(pairs)["To change the port, see the server options."]
    assert (pair.kind, pair.positive, pair.source) == (
        "link",
        "server:en#port:0",
        "index:en#widgets:0",
    )
    same_page = by_query(pairs)["See how the port is chosen first."]
    assert (same_page.positive, same_page.source) == (
        "server:en#port:0",
        "server:en#configuring-timeouts:0",
    )


def test_a_link_to_a_deep_heading_lands_on_its_level_3_section(pairs: list[Pair]) -> None:
    pair = by_query(pairs)["Ranges are explained in the port ranges."]
    assert pair.positive == "server:en#port:0"


def test_external_links_changelogs_and_own_sections_give_nothing(pairs: list[Pair]) -> None:
    assert not any("ours" in p.query for p in pairs)  # nor the FAQ: it has no introduction
    assert not any(p.positive.startswith("CHANGELOG") or "upgrade" in p.query for p in pairs)
    assert all(p.positive.split(":")[0] != "" for p in pairs)


def test_every_positive_is_a_chunk_of_the_tree(tree: TreePages, pairs: list[Pair]) -> None:
    ids = {c.id for _, chunks in tree.pages for c in chunks}
    assert pairs
    assert all(p.positive in ids for p in pairs)
    assert all(p.source in ids for p in pairs if p.source)


def test_ambiguous_queries_are_dropped_and_repeats_kept_once() -> None:
    pairs = [
        Pair("t", "link", "Set the port", "a:en#x:0"),
        Pair("t", "link", "set the port", "b:en#y:0"),
        Pair("t", "link", "Read more here", "a:en#x:0"),
        Pair("t", "link", "Read more here", "a:en#x:0", "c:en#z:0"),
    ]
    assert [p.query for p in unambiguous(pairs)] == ["Read more here"]


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("How do I reset a widget?", ("question", "How do I reset a widget?")),
        ("Can widgets share state?", ("question", "Can widgets share state?")),
        ("Configuring timeouts", ("heading", "how do I configure timeouts")),
        ("Running the tests", ("heading", "how do I run the tests")),
        ("Adds a header", ("heading", "how do I add a header")),
        ("Path parameters", ("heading", "Path parameters")),
        ("Example", None),
        ("Next steps", None),
        ("Options", None),
        ("Overview", None),
        ("Widgets", None),
    ],
)
def test_heading_queries(heading: str, expected: tuple[str, str] | None) -> None:
    assert heading_query(heading) == expected


def test_word_rules() -> None:
    assert is_question("What is a widget")
    assert not is_question("Why?")
    assert is_generic("Examples")
    assert is_generic("See also")
    assert not is_generic("Port ranges")
    assert base_verb("configuring") == "configure"
    assert base_verb("running") == "run"
    assert base_verb("widgets") is None


def test_sentences_lose_their_markup() -> None:
    text = "- **Note**: see [the `--port` flag](cli.md#port) and ![logo](l.png) <br> too."
    assert clean_sentence(text) == "Note: see the `--port` flag and too."
    found = list(link_sentences("One sentence. Then [a link](x.md) here.\n\n```\n[no](y.md)\n```"))
    assert found == [("x.md", "a link", "Then a link here.")]


def _chunk(slug: str, section: str, heading: str, text: str, part: int = 0) -> Chunk:
    return Chunk(
        site="t",
        path=f"{slug}.md",
        slug=slug,
        title=slug.title(),
        heading=heading,
        heading_trail=(heading,),
        section_id=section,
        anchor=section,
        url="",
        audience="user",
        locale="en",
        part=part,
        text=text,
    )


def test_bm25_ranks_the_matching_section_first_and_negatives_skip_the_answer() -> None:
    chunks = [
        _chunk("server", "port", "Port", "The server listens on port 8000."),
        _chunk("server", "port", "Port", "More about the listening port and ports.", part=1),
        _chunk("server", "timeouts", "Timeouts", "Timeouts for the server port, in seconds."),
        _chunk("index", "", "Widgets", "Widgets are built by the kit and served on a port."),
        _chunk("copy", "port", "Port", "The server listens on port 8000."),
        _chunk("faq", "slow", "Slow widgets", "Rendering happens on one thread."),
    ]
    ranked = Bm25(chunks).search("which port does the server listen on")
    assert ranked[0].chunk == 0
    assert 5 not in {r.chunk for r in ranked}  # shares no term with the query
    negatives = hard_negatives(ranked, chunks, positive=chunks[0], source=chunks[3])
    assert negatives == [2]  # not its own parts, not the source, not the copy elsewhere


def test_draw_is_seeded() -> None:
    pool = [1, 2, 3, 4, 5]
    assert draw(pool, random.Random(7), 2) == draw(pool, random.Random(7), 2)
    assert draw(pool[:1], random.Random(7), 2) == [1]
