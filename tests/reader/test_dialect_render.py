"""Dialect blocks in the reader: admonitions as asides with a title and an icon, collapsible
ones as details, tab sets with labelled panels, unknown directives as their text, and the
sanitiser's small extension for them carrying no script."""

from __future__ import annotations

import pytest

from askdocs.corpus.dialects import Dialect
from askdocs.corpus.documents import ParseOptions, parse_document
from askdocs.reader.markup import MarkupJob, render_markup
from askdocs.reader.sanitize import finish, sanitize_html
from tests.conftest import TEST_DATA
from tests.reader.htmlcheck import elements, problems

FIXTURES = TEST_DATA / "dialects"


def rendered(text: str, dialect: Dialect) -> str:
    doc = parse_document(text, "p.md", ParseOptions(("en",), "en", 3, dialect))
    ids = tuple(h.section_id for h in doc.headings)
    markup = render_markup(MarkupJob(doc.body, ids, dialect=dialect))
    return sanitize_html(finish(markup, {}, {}))


def fixture(name: str, dialect: Dialect) -> str:
    return rendered((FIXTURES / f"{name}.md").read_text(encoding="utf-8"), dialect)


def test_admonitions_are_asides_with_title_and_icon() -> None:
    html = fixture("mkdocs-admonitions", "mkdocs")
    assert (
        '<aside class="admonition warning"><p class="admonition-title">'
        '<span class="admonition-icon"></span>Mind the gap</p>'
    ) in html
    assert '<aside class="admonition note"><p class="admonition-title">' in html  # nested
    assert '<details class="admonition tip"><summary class="admonition-title">' in html
    assert '<details class="admonition info" open="">' in html
    assert "!!!" not in html
    assert "???" not in html


@pytest.mark.parametrize(
    ("name", "dialect"),
    [("mkdocs-tabs", "mkdocs"), ("pymdown-blocks", "mkdocs"), ("docusaurus", "docusaurus")],
)
def test_tab_sets_are_panels_with_their_labels(name: str, dialect: Dialect) -> None:
    html = fixture(name, dialect)
    assert '<div class="tabset">' in html
    assert html.count('<section class="tab-panel"><p class="tab-label">') >= 2
    for raw in ("===", "////", "<TabItem", "&lt;TabItem", "tab="):
        assert raw not in html


def test_docusaurus_blocks_render_as_their_text() -> None:
    html = fixture("docusaurus", "docusaurus")
    assert '<aside class="admonition note"><p class="admonition-title">' in html
    assert "Remember this</p>" in html
    assert '<details class="details"><summary>Expand me</summary>' in html
    assert '<p class="block-title">Why is nothing saved?</p>' in html
    assert "Navigate to Settings &gt; Recording." in html
    for raw in (":::", "import ", "@theme", "&lt;", "NavPath", "FaqItem"):
        assert raw not in html


def test_unknown_directive_and_other_dialects_render_text_never_syntax() -> None:
    vitepress = fixture("vitepress", "vitepress")
    assert '<p class="block-title">Unknownthing</p>' in vitepress
    assert "Unknown container words." in vitepress
    assert ":::" not in vitepress
    alerts = fixture("gfm-alerts", "gfm")
    assert '<aside class="admonition warning">' in alerts
    assert "[!" not in alerts
    myst = fixture("myst", "myst")
    assert '<aside class="admonition note"><p class="admonition-title">' in myst
    assert '<code class="language-python">' in myst
    assert '<span id="target-label"></span>' in myst
    for raw in ("{note}", "{toctree}", ":class:", "(target-label)=", "maxdepth"):
        assert raw not in myst
    misc = fixture("mkdocs-misc", "mkdocs")
    assert '<p class="doc-reference">Reference to <code>httpx.Client</code></p>' in misc
    assert ":material-check:" not in misc
    assert "<abbr>HTML</abbr>: Hyper Text Markup Language" in misc
    assert "☑ done task words" in misc
    assert "☐ open task words" in misc
    assert "<dd>" in misc


def test_html_anchors_survive_and_html_never_passes_through() -> None:
    html = rendered(
        '# T\n\n<a id="opt-entrypoints"></a>\n\n| Field | <a id="opt-x" href="#opt-x">x</a> |\n'
        '|---|---|\n| a | b |\n\n<div align="center"><b>Bold</b> <em>words</em></div>\n',
        "mkdocs",
    )
    assert '<span id="opt-entrypoints"></span>' in html
    assert "Bold words" in html
    assert "align" not in html


def test_reader_heading_ids_follow_the_corpus_inside_blocks() -> None:
    text = "# Page\n\n!!! note\n    ## Inside\n\n## After\n\n/// tip\n### Fenced\n///\n"
    html = rendered(text, "mkdocs")
    ids = [e.attrs.get("id") for e in elements(html) if e.tag in ("h2", "h3")]
    assert ids == ["inside", "after", "fenced"]


HOSTILE = [
    '<aside class="admonition note" onclick="alert(1)">x</aside>',
    '<details open ontoggle="alert(1)" class="admonition tip">x</details>',
    '<details open="javascript:alert(1)">x</details>',
    '<summary class="admonition-title" onfocus="alert(1)" tabindex="0">x</summary>',
    '<div class="tabset" style="background:url(https://attacker.example/)">x</div>',
    '<section class="tab-panel" onmouseover="alert(1)" id="x">x</section>',
    '<p class="admonition-title" onclick="alert(1)">x</p>',
    '<aside class="javascript:alert(1)">x</aside>',
    '<div class="x&quot; onclick=&quot;alert(1)">x</div>',
    '<span class="admonition-icon" onanimationstart="alert(1)">x</span>',
    "<details><summary><img src=x onerror=alert(1)></summary></details>",
]


@pytest.mark.parametrize("payload", HOSTILE)
def test_new_tags_and_attributes_carry_no_script(payload: str) -> None:
    html = sanitize_html(payload)
    assert problems(html) == []
    for element in elements(html):
        assert set(element.attrs) <= {"class", "open", "id"}
        assert element.attrs.get("open", "") == ""
        assert "javascript" not in element.attrs.get("class", "")
        assert '"' not in element.attrs.get("class", "")


@pytest.mark.parametrize(
    "payload",
    [
        '!!! note "<img src=x onerror=alert(1)>"\n    body',
        ":::tip[<script>alert(1)</script>]\n\nx\n\n:::",
        '=== "<svg onload=alert(1)>"\n    body',
        '<TabItem value="x" label="<img src=x onerror=alert(1)>">\n\nbody\n\n</TabItem>',
        "<details>\n<summary><script>alert(1)</script>S</summary>\n\nx\n\n</details>",
        '<FaqItem question="&lt;script&gt;alert(1)&lt;/script&gt;">\n\nx\n\n</FaqItem>',
    ],
)
def test_titles_and_labels_are_escaped(payload: str) -> None:
    for dialect in ("mkdocs", "docusaurus"):
        html = rendered(f"# T\n\n{payload}\n", dialect)  # type: ignore[arg-type]
        assert problems(html) == []
        assert "<script" not in html
        assert "<img" not in html
        assert "<svg" not in html


def test_title_h1_after_mdx_imports_is_the_title_anchor() -> None:
    html = rendered("import X from '@site/x';\n\n# Title\n\nBody.\n", "docusaurus")
    assert html.startswith('<span id="title" class="doc-title-anchor"></span>')


def test_vitepress_code_group_and_tabs_are_labelled_tab_sets() -> None:
    sample = TEST_DATA / "vitepress-docs"
    group = rendered((sample / "guide" / "getting-started.md").read_text(), "vitepress")
    assert '<section class="tab-panel"><p class="tab-label">pnpm</p>' in group
    assert '<code class="language-sh">$ pnpm add -D vitepress@next' in group
    tabs = rendered((sample / "tabs" / "index.md").read_text(), "vitepress")
    assert '<section class="tab-panel"><p class="tab-label">tab b</p>\n<p>b content 2</p>' in tabs
    assert ":::" not in group
    assert "[npm]" not in group
    assert tabs.count('<div class="tabset">') == 2
    assert "<p>== tab" not in tabs


def test_vitepress_badges_are_badge_elements_never_tags() -> None:
    html = fixture("vitepress-page", "vitepress")
    assert '<h2 id="vi-spyon-3-2-0">vi.spyOn 3.2.0</h2>' in html
    assert "WARNING 3.2.0</p>" in html
    assert "&lt;" not in html
    assert "import" not in html
    badge = rendered('## Reporters <Badge type="danger">advanced</Badge>\n', "vitepress")
    assert badge == (
        '<h2 id="reporters-advanced">Reporters '
        '<span class="badge badge-danger">advanced</span></h2>\n'
    )
    inline = rendered('A <Badge type="tip" text="^1.9.0" /> b.\n', "vitepress")
    assert '<span class="badge badge-tip">^1.9.0</span>' in inline


def test_mdx_components_with_props_render_their_children_never_their_tag() -> None:
    html = fixture("mdx-props", "docusaurus")
    assert '<p class="block-title">Why does "x &gt; y" fail?</p>\n<p>Answer words.</p>' in html
    assert '<p class="block-title">Are multi-line props read?</p>' in html
    assert "<p>Inline green words and Card title.</p>" in html
    assert "<p>Unknown children words.</p>" in html
    for raw in ("&lt;", "{", "FaqItem", "import"):
        assert raw not in html


def test_a_refused_image_shows_its_alt_with_code_spans_as_code() -> None:
    doc = parse_document(
        "Text.\n\n![Capture of `<UserPage>`](/img/x.png)\n", "p.md", ParseOptions(("en",), "en", 3)
    )
    markup = render_markup(MarkupJob(doc.body, ()))
    html = sanitize_html(finish(markup, {}, {}))
    assert '<span class="doc-image-refused">Capture of <code>&lt;UserPage&gt;</code></span>' in html
