"""Property: a dialect never loses prose. Every word written outside code, markup and
dropped directives (titles, labels, bodies, at any nesting) appears in the chunk text."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from askdocs.chunking import chunk_page
from askdocs.corpus.dialects import Dialect
from askdocs.corpus.dialects.prose import RAW_MARKER
from askdocs.corpus.documents import ParseOptions, parse_document
from askdocs.types import Page

WORD = st.from_regex(r"[a-z]{3,9}", fullmatch=True)
TITLE = st.lists(WORD, min_size=1, max_size=3).map(" ".join)
TYPES = st.sampled_from(["note", "tip", "warning", "danger", "info", "example"])


def indent(block: str, by: int = 4) -> str:
    return "\n".join(" " * by + line if line else line for line in block.split("\n"))


paragraph = st.lists(WORD, min_size=1, max_size=12).map(" ".join)


def mkdocs_blocks(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    admonition = st.tuples(st.sampled_from(["!!!", "???", "???+"]), TYPES, TITLE, children).map(
        lambda t: f'{t[0]} {t[1]} "{t[2]}"\n{indent(t[3])}'
    )
    tabs = st.lists(st.tuples(TITLE, children), min_size=1, max_size=3).map(
        lambda items: "\n\n".join(f'=== "{label}"\n{indent(body)}' for label, body in items)
    )
    slash = st.tuples(TYPES, TITLE, children).map(lambda t: f"/// {t[0]} | {t[1]}\n{t[2]}\n///")
    return st.one_of(admonition, tabs, slash)


def docusaurus_blocks(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    colon = st.tuples(TYPES, TITLE, children).map(lambda t: f":::{t[0]}[{t[1]}]\n\n{t[2]}\n\n:::")
    tabs = st.lists(st.tuples(TITLE, children), min_size=1, max_size=3).map(
        lambda items: (
            "<Tabs>\n"
            + "\n".join(
                f'<TabItem value="v" label="{label}">\n\n{body}\n\n</TabItem>'
                for label, body in items
            )
            + "\n</Tabs>"
        )
    )
    details = st.tuples(TITLE, children).map(
        lambda t: f"<details>\n<summary>{t[0]}</summary>\n\n{t[1]}\n\n</details>"
    )
    alert = st.tuples(st.sampled_from(["NOTE", "TIP", "WARNING"]), paragraph).map(
        lambda t: f"> [!{t[0]}]\n> {t[1]}"
    )
    return st.one_of(colon, tabs, details, alert)


def documents(blocks: object) -> st.SearchStrategy[str]:
    tree = st.recursive(
        paragraph,
        lambda children: st.lists(
            st.one_of(children, blocks(children)), min_size=1, max_size=3
        ).map(  # type: ignore[operator]
            "\n\n".join
        ),
        max_leaves=8,
    )
    return st.tuples(TITLE, tree).map(lambda t: f"# {t[0]}\n\n{t[1]}\n")


def chunk_words(text: str, dialect: Dialect) -> tuple[set[str], str]:
    doc = parse_document(text, "p.md", ParseOptions(("en",), "en", 3, dialect))
    page = Page(
        site="s", root="/r", path="p.md", slug="p", title=doc.title, locale="en",
        audience="user", order=None, description=None, body=doc.body,
        headings=doc.headings, sections=doc.sections,
    )  # fmt: skip
    chunks = chunk_page(page, url_template="/{slug}#{anchor}", max_chars=400, min_chars=0)
    joined = "\n".join(c.text for c in chunks)
    return set(
        re.findall(r"[a-z]+", " ".join([doc.title, joined, *[h.text for h in doc.headings]]))
    ), joined


SYNTAX = {
    "note",
    "tip",
    "warning",
    "danger",
    "info",
    "example",
    "tabs",
    "tabitem",
    "value",
    "label",
    "details",
    "summary",
}


def prose_words(text: str) -> set[str]:
    stripped = re.sub(r"<[^>]*>", " ", text)
    stripped = re.sub(r"(?m)^\s*(?:!!!|\?\?\?\+?|///|:::)\s*\w*", " ", stripped)
    return set(re.findall(r"[a-z]{3,}", stripped)) - SYNTAX


@settings(max_examples=25, deadline=None)
@given(documents(mkdocs_blocks))
def test_mkdocs_never_loses_prose(text: str) -> None:
    found, joined = chunk_words(text, "mkdocs")
    assert prose_words(text) - found == set()
    assert not any(RAW_MARKER.match(line) for line in joined.split("\n"))


@settings(max_examples=25, deadline=None)
@given(documents(docusaurus_blocks))
def test_docusaurus_never_loses_prose(text: str) -> None:
    found, joined = chunk_words(text, "docusaurus")
    assert prose_words(text) - found == set()
    assert not any(RAW_MARKER.match(line) for line in joined.split("\n"))
    assert "<TabItem" not in joined
    assert "[!" not in joined
