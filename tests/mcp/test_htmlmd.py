"""Markdown back from the reader's sanitised HTML (server-mode get_article)."""

from __future__ import annotations

from askdocs.mcp.htmlmd import html_parts, section_parts, tidy

HTML = """<span id="t" class="doc-title-anchor"></span>
<p>Intro with <code>code</code> and a <a href="/docs/x#y">link</a>.</p>
<h2 id="lists">Lists</h2>
<ul><li>one</li><li><p>two <strong>bold</strong></p></li></ul>
<ol start="3"><li>three</li><li>four</li></ol>
<h3 id="code">Code</h3>
<pre><code class="language-python">def f():
    return 1
</code></pre>
<h2 id="table">Table</h2>
<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>
<blockquote><p>quoted</p></blockquote>
"""


def _markdown(parts: list) -> str:  # type: ignore[type-arg]
    return tidy("\n\n".join(part.markdown for part in parts))


def test_the_reader_tag_set_becomes_markdown() -> None:
    text = _markdown(html_parts(HTML))
    assert "Intro with `code` and a [link](/docs/x#y)." in text
    assert "## Lists\n\n- one\n- two **bold**" in text
    assert "3. three\n4. four" in text
    assert "```python\ndef f():\n    return 1\n```" in text
    assert "| a | b |\n| --- | --- |\n| 1 | 2 |" in text
    assert "> quoted" in text


def test_a_section_keeps_its_subsections_only() -> None:
    parts = html_parts(HTML)
    chosen = section_parts(parts, "lists")
    assert chosen is not None
    assert [p.anchor for p in chosen] == ["lists", "code"]
    assert section_parts(parts, "Table") == [parts[-1]]
    assert section_parts(parts, "nope") is None
