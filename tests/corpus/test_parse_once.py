"""A page is parsed once: its sections carry their code lines from the page's parse, and the
chunker splits long sections with them instead of parsing each section again."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from askdocs.chunking import chunk_page, split_blocks
from askdocs.corpus.documents import ParseOptions, parse_document
from askdocs.corpus.markdown import block_tokens
from askdocs.ingest import IngestCache, read_site
from askdocs.settings import CorpusSettings
from askdocs.sites import folder_site
from askdocs.types import Chunk, Page
from tests.conftest import TEST_DATA

TREES = sorted(path for path in TEST_DATA.iterdir() if path.name.endswith("-docs"))
TREES.append(TEST_DATA / "dialects")
LIMITS = (1500, 600, 200)


def pages_of(tree: Path) -> tuple[Page, ...]:
    return read_site(folder_site(tree), CorpusSettings(), IngestCache()).pages


def without_code_lines(page: Page) -> Page:
    """The page as the chunker saw it before: sections it has to parse itself."""
    bare = tuple(dataclasses.replace(s, code_lines=None) for s in page.sections)
    return dataclasses.replace(page, sections=bare)


def chunks(page: Page, max_chars: int) -> tuple[Chunk, ...]:
    return chunk_page(page, url_template="/docs/{slug}#{anchor}", max_chars=max_chars, min_chars=0)


@pytest.mark.parametrize("tree", TREES, ids=lambda path: path.name)
def test_real_trees_chunk_exactly_as_with_a_parse_per_section(tree: Path) -> None:
    pages = pages_of(tree)
    assert pages
    split = 0
    for page in pages:
        assert all(section.code_lines is not None for section in page.sections), page.path
        for limit in LIMITS:
            once = chunks(page, limit)
            assert once == chunks(without_code_lines(page), limit), (page.path, limit)
            split += sum(chunk.part > 0 for chunk in once)
    assert split > 0  # long sections were split, so the code lines were used


def test_chunking_parsed_pages_parses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = pages_of(TEST_DATA / "fastapi-docs")
    parsed: list[str] = []
    real = block_tokens

    def counted(text: str, env: dict[str, object] | None = None) -> object:
        parsed.append(text)
        return real(text, env)

    monkeypatch.setattr("askdocs.chunking.block_tokens", counted)
    made = [chunks(page, 200) for page in pages]
    assert sum(len(c) for c in made) > 500
    assert parsed == []
    chunks(without_code_lines(pages[0]), 200)  # a section without code lines: parsed here
    assert parsed


def test_code_lines_are_the_section_lines_inside_code() -> None:
    text = (
        "# Page\n\n## Run\n\nIntro.\n\n\n\n```python\nfirst()\n\nsecond()\n```\n\n"
        "    indented\n\n    still code\n\nAfter.\n"
    )
    doc = parse_document(text, "p.md", ParseOptions(("en",), "en", 3))
    section = doc.sections[-1]
    lines = section.text.split("\n")
    assert lines[0] == "Intro."
    assert lines[1:3] == ["", "```python"]  # three blank lines squeezed to one
    code = sorted(section.code_lines or ())
    assert [lines[i] for i in code] == [
        "```python", "first()", "", "second()", "```", "    indented", "", "    still code",
    ]  # fmt: skip


def test_a_code_tab_label_line_is_not_code() -> None:
    text = '# Page\n\n## Install\n\n=== "Docker"\n\n    ```bash\n    docker run\n\n    x\n    ```\n'
    doc = parse_document(text, "p.md", ParseOptions(("en",), "en", 3, "mkdocs"))
    section = doc.sections[-1]
    lines = section.text.split("\n")
    code = section.code_lines or frozenset()
    assert [(line, i in code) for i, line in enumerate(lines)] == [
        ("Docker:", False), ("", False), ("```bash", True), ("docker run", True), ("", True),
        ("x", True), ("```", True),
    ]  # fmt: skip


def test_code_blocks_a_dropped_html_line_separated_stay_apart() -> None:
    """The page's parse decides what is code: the rewritten section text alone would read
    the two blocks as one (the ``<div>`` line between them is dropped from the prose)."""
    text = "# Page\n\n## Blocks\n\n    first block\n\n<div>\n\n    second block\n\n</div>\n"
    doc = parse_document(text, "p.md", ParseOptions(("en",), "en", 3))
    section = doc.sections[-1]
    assert section.text == "    first block\n\n    second block"
    assert split_blocks(section.text, section.code_lines) == ["    first block", "    second block"]
    assert split_blocks(section.text) == [section.text]  # a parse of the text alone
