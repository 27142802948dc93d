"""Headings, section ids, links and images from the shared markdown-it configuration."""

from __future__ import annotations

from askdocs.corpus.markdown import (
    build_sections,
    make_markdown_it,
    parse_headings,
    parse_markdown,
    slugify,
    split_heading_attribute,
)
from tests.conftest import FASTAPI_DOCS, FRIGATE_DOCS

DOC = """# Path Parameters { #path-parameters }

Intro with a [link](other.md#anchor "t") and ![A *diagram*](img/flow.png "Flow").

## Use `CORSMiddleware` {#use-corsmiddleware}

```python
# not a heading
## neither
```

## Order matters

## Order matters

### Déjà vu, again!

#### Deep

## Explicit {: #custom .wide }
"""


def test_headings_levels_text_and_lines() -> None:
    headings = parse_markdown(DOC, line_offset=3).headings
    assert [(h.level, h.text) for h in headings] == [
        (1, "Path Parameters"),
        (2, "Use `CORSMiddleware`"),
        (2, "Order matters"),
        (2, "Order matters"),
        (3, "Déjà vu, again!"),
        (4, "Deep"),
        (2, "Explicit"),
    ]
    assert headings[0].line == 4  # 1-based, shifted by the front matter lines
    assert headings[1].line == 8


def test_hash_lines_inside_fences_are_not_headings() -> None:
    texts = [h.text for h in parse_markdown(DOC).headings]
    assert "not a heading" not in texts
    assert "neither" not in texts


def test_section_ids_explicit_slugified_and_deduplicated() -> None:
    """GitHub's slugs (github-slugger: accents stay, punctuation goes)."""
    ids = [h.section_id for h in parse_markdown(DOC).headings]
    assert ids == [
        "path-parameters",
        "use-corsmiddleware",
        "order-matters",
        "order-matters-1",
        "déjà-vu-again",
        "deep",
        "custom",
    ]


def test_explicit_ids_are_reserved_before_derived_ones() -> None:
    text = "## Setup\n\n## Other {#setup}\n"
    assert [h.section_id for h in parse_markdown(text).headings] == ["setup-1", "setup"]


def test_heading_attribute_variants() -> None:
    assert split_heading_attribute("Defaults { #defaults }") == ("Defaults", "defaults")
    assert split_heading_attribute("Defaults {#defaults}") == ("Defaults", "defaults")
    assert split_heading_attribute("Set {x} here") == ("Set {x} here", None)
    assert split_heading_attribute("Plain") == ("Plain", None)


def test_slugify_like_docs_generators() -> None:
    assert slugify("Use CORSMiddleware") == "use-corsmiddleware"
    assert (
        slugify("Query parameter list / multiple values") == "query-parameter-list-multiple-values"
    )
    assert slugify("Příliš žluťoučký kůň") == "prilis-zlutoucky-kun"
    assert slugify("???") == "section"


def test_links_and_images_with_alt_text() -> None:
    parsed = parse_markdown(DOC)
    assert [(link.href, link.text, link.line) for link in parsed.links] == [
        ("other.md#anchor", "link", 3)
    ]
    [image] = parsed.images
    assert (image.src, image.alt, image.title, image.line) == (
        "img/flow.png",
        "A diagram",
        "Flow",
        3,
    )


def test_empty_alt_and_reference_images() -> None:
    parsed = parse_markdown("![](a.png) ![ref][r]\n\n[r]: b.webp\n")
    assert [(i.src, i.alt) for i in parsed.images] == [("a.png", ""), ("b.webp", "ref")]


def test_sections_cut_at_split_level_and_keep_deeper_headings() -> None:
    parsed = parse_markdown(DOC)
    sections = build_sections(DOC, parsed.parsed_headings, split_level=2)
    assert [s.heading.text if s.heading else None for s in sections] == [
        "Path Parameters",
        "Use `CORSMiddleware`",
        "Order matters",
        "Order matters",
        "Explicit",
    ]
    fourth = sections[3]
    assert "### Déjà vu, again!" in fourth.text
    assert "#### Deep" in fourth.text
    assert fourth.trail == ("Path Parameters", "Order matters")
    assert "# not a heading" in sections[1].text
    assert not sections[1].text.startswith("## Use")  # the heading line is not in the text


def test_lead_section_and_nested_headings() -> None:
    text = "Lead text.\n\n> ## Quoted heading\n\n## Real\n\nBody\n"
    sections = build_sections(text, parse_markdown(text).parsed_headings, split_level=3)
    assert sections[0].heading is None
    assert "Quoted heading" in sections[0].text  # inside a blockquote: not a section boundary
    assert sections[1].heading is not None
    assert sections[1].heading.text == "Real"


def test_renderer_shares_configuration_and_keeps_raw_html_off() -> None:
    html = make_markdown_it().render("<script>alert(1)</script>\n\n| a |\n|---|\n| b |\n")
    assert "<script>" not in html
    assert "<table>" in html  # js-default: tables on


def test_fast_heading_parse_matches_the_full_parse() -> None:
    tricky = DOC + "\n## See [the guide][ref] and ![logo](l.png)\n\n[ref]: guide.md\n"
    texts = [tricky] + [
        path.read_text(encoding="utf-8")
        for folder in (FASTAPI_DOCS, FRIGATE_DOCS)
        for path in sorted(folder.rglob("*.md"))[:40]
    ]
    for text in texts:
        assert parse_headings(text, 2) == parse_markdown(text, 2).parsed_headings
