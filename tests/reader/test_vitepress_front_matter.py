"""VitePress front matter the reader follows: ``outline`` (table of contents levels) and
``prev``/``next`` (the article's previous/next links)."""

from __future__ import annotations

import pytest

from askdocs.reader.article import outline_levels, toc_of
from askdocs.reader.catalog import authored_neighbours, neighbours
from tests.reader.pages import page_from

HEADINGS = "# T\n\n## Two\n\n### Three\n\n#### Four\n"


@pytest.mark.parametrize(
    ("outline", "levels"),
    [("", [2, 3]), ("outline: false", []), ("outline: deep", [2, 3, 4]),
     ("outline: 2", [2]), ("outline: [3, 4]", [3, 4]), ("outline: nonsense", [2, 3])],
)  # fmt: skip
def test_outline_chooses_the_table_of_contents_levels(outline: str, levels: list[int]) -> None:
    page = page_from(f"---\n{outline}\n---\n{HEADINGS}" if outline else HEADINGS)
    assert [entry.level for entry in toc_of(page, title_omitted=True)] == levels


def test_outline_levels_of_odd_values() -> None:
    assert outline_levels(True) == (2, 3)
    assert outline_levels([1, "x"]) == (2, 3)


def test_prev_next_front_matter_over_the_catalog_order() -> None:
    first = page_from("---\norder: 1\n---\n# A first\n", "guide/first.md")
    middle_text = (
        "---\norder: 2\nprev: false\nnext:\n  text: Jump to the end\n  link: /guide/last\n---\n"
        "# B middle\n"
    )
    middle = page_from(middle_text, "guide/middle.md")
    close = page_from("---\norder: 3\n---\n# C close\n", "guide/close.md")
    last = page_from("---\norder: 4\nprev: Just before\n---\n# D last\n", "guide/last.md")
    pages = [first, middle, close, last]
    previous, following = authored_neighbours(middle, neighbours(middle, pages), pages)
    assert previous is None
    assert following is not None
    assert (following.slug, following.title) == ("guide/last", "Jump to the end")
    before, _ = authored_neighbours(last, neighbours(last, pages), pages)
    assert before is not None
    assert (before.slug, before.title) == ("guide/close", "Just before")
