"""The pure chunker: hypothesis properties plus the rules of issue 2 item 9, case by case."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from askdocs.chunking import (
    INTRO_MAX_CHARS,
    chunk_page,
    merge_pieces,
    split_blocks,
)
from askdocs.corpus.documents import ParseOptions, parse_document
from askdocs.corpus.markdown import parse_markdown
from askdocs.corpus.urls import format_url
from askdocs.types import Chunk, Page

OPTIONS = ParseOptions(("en", "cs", "sk"), "en", 3)
WORDS = st.sampled_from(
    ["alpha", "beta", "gamma", "delta", "Depends()", "`code`", "route", "x", "token", "uvicorn"]
)


def make_page(text: str, split_level: int = 3) -> Page:
    doc = parse_document(text, "page.md", ParseOptions(("en",), "en", split_level))
    return Page(
        site="s",
        root="/r",
        path="page.md",
        slug="page",
        title=doc.title,
        locale="en",
        audience="user",
        order=None,
        description=None,
        body=doc.body,
        headings=doc.headings,
        sections=doc.sections,
    )


def chunks_of(page: Page, max_chars: int = 1500, min_chars: int = 500) -> tuple[Chunk, ...]:
    return chunk_page(
        page, url_template="/docs/{slug}#{anchor}", max_chars=max_chars, min_chars=min_chars
    )


@st.composite
def paragraphs(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORDS, min_size=1, max_size=60))
    width = draw(st.integers(4, 12))
    return "\n".join(" ".join(words[i : i + width]) for i in range(0, len(words), width))


@st.composite
def fences(draw: st.DrawFn) -> str:
    marker = draw(st.sampled_from(["```", "~~~", "````"]))
    inner = draw(
        st.lists(
            st.sampled_from(["", "# not a heading", "## nor this", "x = 1", "", "print(x)"]),
            min_size=1,
            max_size=40,
        )
    )
    return "\n".join([marker + "python", *inner, marker])


@st.composite
def headings(draw: st.DrawFn) -> str:
    level = draw(st.integers(1, 4))
    words = draw(st.lists(WORDS, min_size=1, max_size=4))
    anchor = draw(st.sampled_from(["", " { #fixed }", " {#x-1}"]))
    return "#" * level + " " + " ".join(words) + anchor


@st.composite
def list_block(draw: st.DrawFn) -> str:
    items = draw(st.lists(paragraphs(), min_size=1, max_size=4))
    return "\n\n".join("- " + item.replace("\n", "\n  ") for item in items)


documents = st.lists(
    st.one_of(paragraphs(), fences(), headings(), list_block()), min_size=1, max_size=25
).map(lambda blocks: "\n\n".join(blocks) + "\n")


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def fence_sources(text: str) -> list[str]:
    lines = text.split("\n")
    return [
        "\n".join(lines[t.map[0] : t.map[1]])
        for t in parse_markdown(text).tokens
        if t.type == "fence" and t.map is not None
    ]


@settings(max_examples=80, deadline=None)
@given(documents, st.integers(200, 900))
def test_parts_of_a_section_concatenate_back_to_it(text: str, max_chars: int) -> None:
    page = make_page(text)
    chunks = chunks_of(page, max_chars=max_chars, min_chars=0)
    for section in page.sections:
        section_id = section.heading.section_id if section.heading else ""
        parts = [c for c in chunks if c.section_id == section_id]
        assert [c.part for c in parts] == list(range(len(parts)))
        assert squash("".join(c.text for c in parts)) == squash(section.text)


@settings(max_examples=80, deadline=None)
@given(documents, st.integers(200, 900), st.integers(0, 600))
def test_page_text_is_preserved_when_short_pieces_merge(
    text: str, max_chars: int, min_chars: int
) -> None:
    page = make_page(text)
    chunks = chunks_of(page, max_chars=max_chars, min_chars=min_chars)
    starts = {(c.section_id, c.part) for c in chunks}
    expected = []
    for section in page.sections:
        if not section.text.strip():
            continue
        heading = section.heading
        if heading is not None and (heading.section_id, 0) not in starts:
            expected.append("#" * heading.level + heading.text)
        expected.append(section.text)
    assert squash("".join(c.text for c in chunks)) == squash("".join(expected))


@settings(max_examples=80, deadline=None)
@given(documents, st.integers(200, 900), st.integers(0, 600))
def test_never_splits_inside_a_fence(text: str, max_chars: int, min_chars: int) -> None:
    page = make_page(text)
    chunks = chunks_of(page, max_chars=max_chars, min_chars=min_chars)
    for fence in fence_sources(page.body):
        holders = [c for c in chunks if fence in c.text]
        assert holders, f"fence cut apart:\n{fence}"


@settings(max_examples=80, deadline=None)
@given(documents, st.integers(200, 900), st.integers(0, 600))
def test_sizes_respect_the_limit_except_a_single_oversize_block(
    text: str, max_chars: int, min_chars: int
) -> None:
    chunks = chunks_of(make_page(text), max_chars=max_chars, min_chars=min_chars)
    for chunk in chunks:
        assert len(chunk.text) <= max_chars or len(split_blocks(chunk.text)) == 1
    assert len({c.id for c in chunks}) == len(chunks)


def test_long_section_splits_at_blank_lines() -> None:
    paragraph = "word " * 80  # 399 chars once stripped: three fit in 1500
    text = "## Big\n\n" + "\n\n".join([paragraph.strip()] * 7) + "\n"
    chunks = chunks_of(make_page(text), max_chars=1500, min_chars=0)
    assert [c.part for c in chunks] == [0, 1, 2]
    assert all(len(c.text) <= 1500 for c in chunks)
    assert {c.heading for c in chunks} == {"Big"}
    assert [c.id for c in chunks] == ["page:en#big:0", "page:en#big:1", "page:en#big:2"]


def test_single_oversize_fence_stays_whole() -> None:
    fence = "```\n" + "\n\n".join(f"line {i} " * 10 for i in range(60)) + "\n```"
    text = f"## Code\n\nShort intro.\n\n{fence}\n\nAfter.\n"
    chunks = chunks_of(make_page(text), max_chars=1500, min_chars=0)
    whole = [c for c in chunks if fence in c.text]
    assert len(whole) == 1
    assert len(whole[0].text) > 1500
    assert whole[0].text == fence


def test_short_section_absorbs_the_next_with_its_heading_line() -> None:
    text = "# Title\n\nShort lead.\n\n## Next\n\nAlso short.\n\n## Big\n\n" + "y " * 800 + "\n"
    chunks = chunks_of(make_page(text))
    assert chunks[0].heading == "Title"
    assert chunks[0].text == "Short lead.\n\n## Next\n\nAlso short."
    assert chunks[1].heading == "Big"  # would overflow max_chars: not absorbed


def test_min_chars_zero_keeps_every_section_apart() -> None:
    text = "# Title\n\nShort lead.\n\n## Next\n\nAlso short.\n\n## Last\n\nEnd.\n"
    chunks = chunks_of(make_page(text), min_chars=0)
    assert [(c.heading, c.text, c.context) for c in chunks] == [
        ("Title", "Short lead.", ""),
        ("Next", "Also short.", "Short lead."),  # the first sub-section carries the intro
        ("Last", "End.", ""),
    ]
    assert chunks[1].embed_text == "Title › Next\n\nShort lead.\n\nAlso short."


def test_only_a_short_intro_opens_its_first_direct_sub_section() -> None:
    long_intro = "word " * (INTRO_MAX_CHARS // 4)
    text = (
        "# T\n\nIntro.\n\n## A\n\nA text.\n\n### A1\n\nA1 text.\n\n### A2\n\nA2.\n\n"
        f"## B\n\n{long_intro}\n\n### B1\n\nB1 text.\n\n## C\n\nC text.\n\n"
        "## D\n\nD intro.\n\n### D1\n### D2\n\nD2 text.\n"
    )
    chunks = chunks_of(make_page(text), min_chars=0)
    assert {c.heading: c.context for c in chunks} == {
        "T": "",
        "A": "Intro.",
        "A1": "A text.",
        "A2": "",  # not the first sub-section
        "B": "",
        "B1": "",  # B's text is too long to be an introduction
        "C": "",  # a sibling, not a sub-section
        "D": "",  # its first sub-section D1 is blank: no chunk, no intro
        "D2": "",
    }
    # A chunk's own text is always exactly its section's text.
    assert {c.heading: c.text for c in chunks}["A1"] == "A1 text."


def test_blank_sections_make_no_chunk_and_level_four_stays_inside() -> None:
    text = "# Title\n## Sub { #sub }\n\nBody.\n\n#### Deep\n\nMore.\n"
    chunks = chunks_of(make_page(text), min_chars=0)
    assert [(c.heading, c.section_id) for c in chunks] == [("Sub", "sub")]
    assert chunks[0].heading_trail == ("Title", "Sub")
    assert "#### Deep" in chunks[0].text


def test_text_before_any_heading_uses_the_title() -> None:
    text = "---\ntitle: Cameras\n---\nIntro text.\n\n## Setup\n\nSteps.\n"
    chunks = chunks_of(make_page(text), min_chars=0)
    lead = chunks[0]
    assert (lead.heading, lead.section_id, lead.heading_trail) == ("Cameras", "", ())
    assert lead.url == "/docs/page"  # no anchor: no dangling '#'
    assert lead.embed_text == "Cameras\n\nIntro text."
    assert chunks[1].url == "/docs/page#setup"


def test_split_level_is_a_setting() -> None:
    text = "# T\n\nA.\n\n## Two\n\nB.\n\n### Three\n\nC.\n"
    level2 = chunks_of(make_page(text, split_level=2), min_chars=0)
    assert [c.heading for c in level2] == ["T", "Two"]
    level1 = chunks_of(make_page(text, split_level=1), min_chars=0)
    assert [c.heading for c in level1] == ["T"]


def test_merge_never_exceeds_the_maximum() -> None:
    assert merge_pieces([], max_chars=100, min_chars=50) == []


def test_format_url_placeholders() -> None:
    url = format_url(
        "/{locale}/{path}?s={slug}#{anchor}", slug="a/b", path="a/b.md", anchor="x", locale="cs"
    )
    assert url == "/cs/a/b.md?s=a/b#x"
