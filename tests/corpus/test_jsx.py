"""The source rewritten before parsing (pure): MDX/JSX component tags and multi-line HTML
tags as one-line HTML tags, template statements blanked; line numbers never change."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from askdocs.corpus.dialects.jsx import js_string, normalise_tags
from askdocs.corpus.dialects.source import blank_template_lines, myst_attributes


def test_multi_line_props_become_one_line_and_keep_line_numbers() -> None:
    text = '<FaqItem\n  id="two"\n  question="Why?">\n\nAnswer.\n'
    assert normalise_tags(text) == '<FaqItem id="two" question="Why?">\n\n\n\nAnswer.\n'


def test_expression_props_become_quoted_values_or_go() -> None:
    text = '<FaqItem question={"Why does \\"x > y\\" fail?"} open={true} {...rest}>'
    assert normalise_tags(text) == '<FaqItem question="Why does &quot;x &gt; y&quot; fail?">'
    assert normalise_tags("<Card title={`Plain`} n={1} />") == '<Card title="Plain" />'


def test_code_text_and_lone_angles_stay_as_written() -> None:
    text = "```jsx\n<Tabs\n  groupId={x}>\n```\nIf a <B then c.\nnext line\n`<Foo a={1}>` here\n"
    assert normalise_tags(text) == text
    assert normalise_tags("    <Indented\n    code={1}>\n") == "    <Indented\n    code={1}>\n"


def test_string_expressions() -> None:
    assert js_string(" 'it\\'s' ") == "it's"
    assert js_string("`with ${x}`") is None
    assert js_string("name") is None


@given(st.text(alphabet="<>{}\"'`=/ aB\nx-", max_size=80))
def test_line_count_never_changes(text: str) -> None:
    assert normalise_tags(text).count("\n") == text.count("\n")


def test_html_tags_over_several_lines_become_one_line() -> None:
    text = '<iframe\n  class="codesandbox"\n  src="https://x.test">\n</iframe>\n'
    assert normalise_tags(text) == (
        '<iframe class="codesandbox" src="https://x.test">\n\n\n</iframe>\n'
    )
    style = '<div style={{position: "relative"}}>\nText\n</div>\n'
    assert normalise_tags(style) == "<div>\nText\n</div>\n"
    plain = '<a href="x">link</a> and <https://example.com> stay.\n'
    assert normalise_tags(plain) == plain


def test_template_statements_are_build_syntax_never_text() -> None:
    text = "Intro.\n\n{% for x in items %}\n- {{ x }}\n{% endfor %}\n\n```\n{% raw %}\n```\n"
    assert blank_template_lines(text) == "Intro.\n\n\n- {{ x }}\n\n\n```\n{% raw %}\n```\n"


def test_myst_roles_and_inline_attributes() -> None:
    text = (
        "See {ref}`the targets <syntax/targets>`, {py:func}`len` and {doc}`intro`.\n"
        "A `literal`{#lit .warn} and [a link](u){#lid}; `` {ref}`kept` `` stays code.\n"
        "```\n{ref}`in code`\n```\n"
    )
    assert myst_attributes(text) == (
        "See the targets, `len` and intro.\n"
        'A `literal`<span id="lit"></span> and [a link](u)<span id="lid"></span>; '
        "`` {ref}`kept` `` stays code.\n"
        "```\n{ref}`in code`\n```\n"
    )
