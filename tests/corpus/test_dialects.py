"""Dialect constructs, one fixture file each (tests/data/dialects), read as prose.

Each fixture is parsed in its dialect; its indexed text must hold the titles and labels
as prose, keep code as code, and leave no marker line behind.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from askdocs.corpus.dialects import Dialect
from askdocs.corpus.dialects.prose import RAW_MARKER
from askdocs.corpus.documents import ParseOptions, SourceDoc, parse_document, readable_file_title
from tests.conftest import TEST_DATA

FIXTURES = TEST_DATA / "dialects"


def parse(name: str, dialect: Dialect) -> SourceDoc:
    text = (FIXTURES / f"{name}.md").read_text(encoding="utf-8")
    return parse_document(text, f"{name}.md", ParseOptions(("en",), "en", 3, dialect))


def prose(doc: SourceDoc) -> str:
    return "\n".join(section.text for section in doc.sections)


def lines(doc: SourceDoc) -> list[str]:
    return [line.strip() for line in prose(doc).split("\n")]


CASES: list[tuple[str, Dialect, list[str], dict[str, int]]] = [
    (
        "mkdocs-admonitions",
        "mkdocs",
        ["Warning: Mind the gap", "Trains stop briefly.", "Note:", "Nested note body.",
         "Tip: Collapsed tip", "Info:", "Open collapsible words.", "Danger:"],
        {"admonition": 3, "collapsible admonition": 2},
    ),
    (
        "mkdocs-tabs",
        "mkdocs",
        ["Docker:", "Docker label words.", "```yaml", "image: traefik", "Kubernetes:",
         "File (YAML):", "File (TOML):", "[entryPoints]"],
        {"tab": 2, "code tab": 2, "tabset": 2},
    ),
    (
        "pymdown-blocks",
        "mkdocs",
        ["Tip: Handy trick", "Tip body words.", "Python 3.10+:", "Modern python words.",
         "Python 3.8+:", "More details", "Details body words."],
        {"admonition": 1, "tab": 2, "tabset": 1, "details": 1},
    ),
    (
        "mkdocs-misc",
        "mkdocs",
        ["Check  this paragraph.", "HTML: Hyper Text Markup Language", ":   Definition words.",
         "- [x] done task words", "[^1]: Footnote words.", "Reference to `httpx.Client`."],
        {"abbreviation": 1, "mkdocstrings stub": 1},
    ),
    (
        "docusaurus",
        "docusaurus",
        ["Note: Remember this", "Note body words.", "Tip:", "Web UI:",
         "Navigate to Settings > Recording.", "YAML:", "Why is nothing saved?", "Answer words.",
         "Expand me", "Details words."],
        {"admonition": 2, "tab": 2, "tabset": 1, "details": 1, "mdx component": 1, "dropped": 1},
    ),
    (
        "vitepress",
        "vitepress",
        ["Tip: Pro tip", "Container words.", "Warning:", "Click to expand",
         "Hidden container words.", "Unknownthing:", "Unknown container words."],
        {"admonition": 2, "details": 1, "directive": 1},
    ),
    (
        "gfm-alerts",
        "gfm",
        ["> Note:", "> Alert note words.", "> Warning:", "> Second line words.",
         "> A plain quote stays."],
        {"github alert": 2},
    ),
    (
        "myst",
        "myst",
        ["Note:", "Directive note words.", "Note: Custom title", "Admonition words.",
         "```python", 'print("code stays")'],
        {"admonition": 2, "dropped": 1},
    ),
]  # fmt: skip


@pytest.mark.parametrize(("name", "dialect", "expected", "counts"), CASES)
def test_fixture_reads_as_prose(
    name: str, dialect: Dialect, expected: list[str], counts: dict[str, int]
) -> None:
    doc = parse(name, dialect)
    found = lines(doc)
    assert [line for line in expected if line not in found] == []
    assert [line for line in found if RAW_MARKER.match(line)] == []
    assert dict(doc.diagnostics.counts) == counts


def test_import_lines_options_and_targets_are_dropped() -> None:
    text = prose(parse("docusaurus", "docusaurus")) + prose(parse("myst", "myst"))
    for gone in (
        "import",
        "@theme",
        "<Tabs>",
        "</TabItem>",
        ":class:",
        "(target-label)=",
        "toctree",
        "maxdepth",
    ):
        assert gone not in text
    assert "show_source" not in prose(parse("mkdocs-misc", "mkdocs"))


def test_unknown_directive_is_listed_with_its_line() -> None:
    doc = parse("vitepress", "vitepress")
    assert doc.diagnostics.unknown == ((15, "directive 'unknownthing' (its text is kept)"),)


def test_nested_admonition_tabs_and_code() -> None:
    text = (
        '# Page\n\n!!! example "Both"\n    Intro words.\n\n'
        '    === "One"\n        First words.\n\n        ```python\n        x = 1\n        ```\n\n'
        '    === "Two"\n        !!! warning\n            Deep words.\n'
    )
    doc = parse_document(text, "n.md", ParseOptions(("en",), "en", 3, "mkdocs"))
    assert doc.sections[0].text.split("\n") == [
        "Example: Both", "Intro words.", "", "One:", "First words.", "", "```python", "x = 1",
        "```", "", "Two:", "Warning:", "Deep words.",
    ]  # fmt: skip


def test_headings_cut_sections_only_outside_indented_blocks() -> None:
    text = (
        "# Page\n\n!!! note\n    ## Not a section\n\n    Body.\n\n"
        "/// tip\n## A section\nTip text.\n///\n"
    )
    doc = parse_document(text, "h.md", ParseOptions(("en",), "en", 3, "mkdocs"))
    assert [s.trail for s in doc.sections] == [("Page",), ("Page", "A section")]
    assert [h.text for h in doc.headings] == ["Page", "Not a section", "A section"]
    assert "## Not a section" in doc.sections[0].text


def test_fence_lines_that_look_like_markers_stay_code() -> None:
    text = '# P\n\n```text\n!!! note\n=== "x"\n:::tip\n///\n```\n'
    doc = parse_document(text, "f.md", ParseOptions(("en",), "en", 3, "mkdocs"))
    assert doc.sections[0].text == '```text\n!!! note\n=== "x"\n:::tip\n///\n```'
    assert doc.diagnostics.unknown == ()


def test_mkdocs_reads_triple_colon_as_a_stub_others_as_a_container() -> None:
    text = "# P\n\n::: tip\nWords.\n:::\n"
    mkdocs = parse_document(text, "s.md", ParseOptions(("en",), "en", 3, "mkdocs"))
    vite = parse_document(text, "s.md", ParseOptions(("en",), "en", 3, "vitepress"))
    assert "Reference to `tip`." in mkdocs.sections[0].text
    assert vite.sections[0].text.split("\n")[:2] == ["Tip:", "Words."]


TITLES: list[tuple[str, str, str]] = [
    ("---\ntitle: Front\nsidebar_label: Side\n---\n# H1\n", "front matter", "Front"),
    ("---\nsidebar_label: Side\n---\n# H1\n", "sidebar label", "Side"),
    ("Intro.\n\n# Markdown H1\n", "h1", "Markdown H1"),
    ('<h1 align="center">\nHTML title\n</h1>\n\nText.\n', "h1", "HTML title"),
    ("Only text, no heading.\n", "file name", "Release notes"),
]


@pytest.mark.parametrize(("text", "source", "title"), TITLES)
def test_title_order(text: str, source: str, title: str) -> None:
    doc = parse_document(text, "guide/release-notes.md", ParseOptions(("en",), "en", 3))
    assert (doc.title, doc.title_source) == (title, source)


def test_readable_file_titles() -> None:
    assert readable_file_title("release-notes.md") == "Release notes"
    assert readable_file_title("guide/01-first_steps.md") == "First steps"
    assert readable_file_title("tutorial/index.md") == "Tutorial"
    assert readable_file_title("index.md") == "Home"


def test_docusaurus_id_names_the_slug() -> None:
    assert parse("docusaurus", "docusaurus").path_slug == "recording"
    text = "---\nid: zones\n---\nText.\n"
    doc = parse_document(text, "configuration/zone-setup.md", ParseOptions(("en",), "en", 3))
    assert doc.path_slug == "configuration/zones"
    assert (doc.front.sidebar_position, doc.front.unlisted) == (None, False)


def test_fixture_files_are_small() -> None:
    assert all(path.stat().st_size < 2048 for path in Path(FIXTURES).glob("*.md"))


def test_indented_html_lines_become_prose_not_code() -> None:
    text = (
        '# P\n\nLead.\n\n<div align="center">\n'
        "    <figcaption><em>Caption words</em></figcaption>\n</div>\n"
    )
    doc = parse_document(text, "h.md", ParseOptions(("en",), "en", 3, "mkdocs"))
    assert "\nCaption words" in doc.sections[0].text
    assert "    Caption" not in doc.sections[0].text


def test_explicit_anchors_and_renamed_headings_are_link_targets() -> None:
    text = (
        '# Page\n\n## Search\n\n<FaqItem id="why-so-slow" question="Why so slow?">\n\n'
        "Answer.\n\n</FaqItem>\n\n"
        '| <a id="opt-rule" href="#opt-rule">`rule`</a> | text |\n|---|---|\n\n'
        '### 9.7.0 <small>November</small> { id="9.7.0" }\n'
    )
    doc = parse_document(text, "p.md", ParseOptions(("en",), "en", 3, "docusaurus"))
    assert doc.anchors == ("why-so-slow", "opt-rule")
    assert [h.section_id for h in doc.headings] == ["page", "search-1", "9.7.0"]
    assert [h.text for h in doc.headings][2] == "9.7.0 November"
    assert doc.anchor_aliases == (("search", "search-1"),)


def test_myst_colon_fences_comments_and_attributes() -> None:
    doc = parse("myst-colon", "myst")
    found = lines(doc)
    for line in ("Note: A titled note", "Note body words.", "First:", "First tab words.",
                 "Second:", "A paragraph with a span target inside."):  # fmt: skip
        assert line in found
    text = prose(doc)
    for gone in (":::", ":class:", "comment line", "{#", "]{"):
        assert gone not in text
    assert doc.anchors == ("paragraph-target", "span-target")


def test_myst_directive_names_are_anchors() -> None:
    text = (
        "# P\n\n```{tip}\n:name: a-tip\nTip words.\n```\n\n:::{note}\n:name: a-note\nNote.\n:::\n"
    )
    doc = parse_document(text, "p.md", ParseOptions(("en",), "en", 3, "myst"))
    assert doc.anchors == ("a-tip", "a-note")
    assert ":name:" not in "\n".join(section.text for section in doc.sections)


def test_a_named_myst_code_block_is_an_anchor() -> None:
    text = "# P\n\n```{code} shell\n:linenos:\n:name: code:start\n\n$ jupyter book start\n```\n"
    doc = parse_document(text, "p.md", ParseOptions(("en",), "en", 3, "myst"))
    assert doc.anchors == ("code:start",)
    assert doc.sections[0].text.startswith("```shell\n")
    assert ":name:" not in doc.sections[0].text
    assert "$ jupyter book start" in doc.sections[0].text
