"""VitePress, read as its build shows it: the trimmed VitePress docs (tests/data/vitepress-docs)
through the real corpus pipeline, and one construct per fixture (tests/data/dialects)."""

from __future__ import annotations

import re

from askdocs.corpus.dialects.prose import RAW_MARKER
from askdocs.corpus.dialects.snippets import expand_vitepress
from askdocs.corpus.dialects.vitepress import fence_info, page_title
from askdocs.corpus.documents import ParseOptions, parse_document
from askdocs.ingest import read_site
from askdocs.settings import CorpusSettings
from askdocs.sites import folder_site
from askdocs.types import Page
from tests.conftest import TEST_DATA

VITEPRESS_DOCS = TEST_DATA / "vitepress-docs"
OPTIONS = ParseOptions(("en",), "en", 3, "vitepress")


def pages() -> dict[str, Page]:
    snapshot = read_site(folder_site(VITEPRESS_DOCS), CorpusSettings())
    return {page.path: page for page in snapshot.pages}


def text_of(page: Page) -> str:
    return "\n".join(section.text for section in page.sections)


def outside_code(text: str) -> str:
    kept, fence = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence:
            kept.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(kept)


def test_the_sample_is_detected_as_vitepress_and_reads_cleanly() -> None:
    found = pages()
    assert {page.dialect for page in found.values()} == {"vitepress"}
    for page in found.values():
        body = outside_code(text_of(page))
        assert [line for line in body.split("\n") if RAW_MARKER.match(line)] == [], page.path
        assert "<Badge" not in body
        assert "== tab" not in body
        assert "<<<" not in body


def test_code_groups_become_labelled_code_tabs() -> None:
    body = text_of(pages()["guide/getting-started.md"])
    assert "npm:\n```sh\n$ npm add -D vitepress@next\n```" in body
    assert "deno:\n```sh\n$ deno add -D vitepress@next\n```" in body
    assert "::: code-group" not in body


def test_snippet_imports_are_read_inside_the_root() -> None:
    page = pages()["guide/getting-started.md"]
    assert "Welcome to VitePress!" in text_of(page)
    assert "Welcome to VitePress!" in page.body  # the reader renders the same text
    assert "```ansi [init.ansi]" in page.body


def test_a_snippet_outside_the_root_is_marked_and_reported() -> None:
    included = expand_vitepress("<<< ../../outside.js\n", "guide/a.md", lambda path: "x")
    assert included.text == "*Snippet from `../../outside.js`*\n"
    assert included.problems == [(0, "snippet '../../outside.js' outside the docs root")]


def test_snippet_regions_and_markdown_includes() -> None:
    files = {
        "snippets/code.js": "a()\n// #region keep\n  kept()\n// #endregion keep\nb()\n",
        "parts/basics.md": "---\nx: 1\n---\nline one\nline two\nline three\n",
    }
    text = (
        "<<< @/snippets/code.js#keep{1 ts} [Kept]\n"
        "<!--@include: ./parts/basics.md{2,3}-->\n"
        "<!--@include: ./parts/basics.md-->\n"
        "```md\n<<< @/snippets/code.js\n```\n"
    )
    included = expand_vitepress(text, "index.md", files.get)
    assert included.text.split("\n") == [
        "```ts [Kept]", "kept()", "```", "x: 1", "---", "line one", "line two",
        "line three", "", "```md", "<<< @/snippets/code.js", "```", "",
    ]  # fmt: skip
    assert included.counts == {"snippet": 1, "include": 2}


def test_home_layout_reads_its_hero_and_features() -> None:
    home = pages()["index.md"]
    assert home.title == "VitePress"
    body = text_of(home)
    assert "Vite & Vue Powered Static Site Generator" in body
    assert "Focus on your content" in body
    assert "Effortlessly create" in body
    assert "[What is VitePress?](./guide/what-is-vitepress)" in home.body


def test_badges_in_headings_read_as_their_text() -> None:
    """A badge's children are heading text; a self-closing badge's ``text`` is not (VitePress
    leaves HTML out of a heading's text and its slug)."""
    page = pages()["reference/default-theme-badge.md"]
    texts = [heading.text for heading in page.headings]
    assert texts[2:4] == ["Title", "Title"]
    assert "Title custom element" in texts
    assert all("<" not in text for text in texts)


def test_tabs_plugin_blocks_read_as_labelled_tabs() -> None:
    body = text_of(pages()["tabs/index.md"])
    assert "tab a:\na content\ntab b:\nb content" in body
    assert "::: tabs" not in body
    assert ":::tabs\n== tab a" in body


def test_page_fixture_title_headings_and_imports() -> None:
    text = (TEST_DATA / "dialects" / "vitepress-page.md").read_text(encoding="utf-8")
    doc = parse_document(text, "guide/coverage.md", OPTIONS)
    assert doc.title == "Coverage"
    assert [(h.text, h.section_id) for h in doc.headings] == [
        ("Coverage experimental", "coverage-experimental"),
        ("vi.spyOn 3.2.0", "vi-spyon-3-2-0"),
        ("update", "update"),
    ]
    body = "\n".join(section.text for section in doc.sections)
    assert "import" not in body
    assert "<Version>" not in body
    assert "Warning: WARNING 3.2.0" in body
    assert "yarn:\n```sh\nyarn add -D vitest\n```" in body


def test_title_suffixes_and_fence_info() -> None:
    assert page_title("Coverage | Guide", ()) == "Coverage"
    assert page_title("Home | Vitest", ("Vitest",)) == "Home"
    assert page_title("Tom | the cat who chased Jerry home", ()) == (
        "Tom | the cat who chased Jerry home"
    )
    assert fence_info("ts:line-numbers {1,2} [vite.config.ts]") == ("ts", "vite.config.ts")
    assert fence_info("sh") == ("sh", "")


def test_nested_tabs_plugin_sets_mark_outer_tabs_with_more_equals() -> None:
    text = (
        "# T\n\n::::tabs\n=== outer a\nOuter words.\n\n:::tabs\n== inner a\nInner a.\n"
        "== inner b\nInner b.\n:::\n\n=== outer b\nOuter b words.\n::::\n"
    )
    doc = parse_document(text, "t.md", OPTIONS)
    body = "\n".join(section.text for section in doc.sections)
    assert body.split("\n") == [
        "outer a:", "Outer words.", "", "inner a:", "Inner a.", "inner b:", "Inner b.", "",
        "outer b:", "Outer b words.",
    ]  # fmt: skip
    assert dict(doc.diagnostics.counts)["tabset"] == 2
