"""Dialect tokens -> the text that is indexed: prose, line for line (pure).

``index_lines`` rewrites the source one line at a time, so a token's line map points at
the same place in both: an admonition's marker line becomes its title ("Warning: Be
careful"), a tab's marker its label ("Docker:"), a closing marker or a syntax-only line
(options, MDX imports) becomes empty, an indented body is dedented; tags are stripped
outside code (their prose attributes kept), as are icon shortcodes and attribute lists.
Code stays code, byte for byte apart from the dedent of its container. A code tab's label
goes on the line before its fence, so that one list item may hold two lines.

What was understood is counted per construct; what was not (an unknown directive, a
marker line left over) is listed with its line.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from markdown_it.token import Token

from askdocs.corpus.dialects.html import strip_tags
from askdocs.corpus.dialects.tokens import Block, readable_name

_ALERT_MARK = re.compile(r"\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*", re.IGNORECASE)
_CLOSER = re.compile(r"^\s*(?::{3,}|/{3,}|`{3,}|~{3,})\s*$")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_ICON = re.compile(r":(?:material|fontawesome|octicons|simple)-[\w-]+:(?:\{[^}]*\})?")
_ATTR_LIST = re.compile(r"\s*\{:?\s*(?:[#.][\w-][^{}]*|[\w-]+=[^{}]*)\}\s*$")
_TAB_ATTR = re.compile(r"""\s*\btab=(?:"[^"]*"|'[^']*')""")
_ATTR_INFO = re.compile(r"^(\s*[`~]{3,})\s*\{\s*\.([\w+#-]+)[^}]*\}")
RAW_MARKER = re.compile(r"^\s*(?:!!!|\?\?\?|===|:::|///)")
SETEXT = ("=", "-")
_MARKER_CONSTRUCTS = {"!": "admonition", "?": "admonition", "=": "content tab", ":": "container"}


@dataclass
class Prose:
    """The indexed text of one body, line for line, and what was (not) understood."""

    lines: list[str]
    code: set[int]
    counts: Counter[str] = field(default_factory=Counter)
    unknown: list[tuple[int, str]] = field(default_factory=list)  # (0-based line, construct)


@dataclass
class _Edits:
    dedent: list[int]
    label: dict[int, str] = field(default_factory=dict)
    before: dict[int, str] = field(default_factory=dict)
    blank: set[int] = field(default_factory=set)
    alerts: set[int] = field(default_factory=set)
    code: set[int] = field(default_factory=set)


def index_lines(tokens: Sequence[Token], source: str) -> Prose:
    lines = source.split("\n")
    edits = _Edits([0] * len(lines))
    prose = Prose([], set())
    for token in tokens:
        _collect(token, edits, prose, len(lines))
    prose.code = edits.code
    prose.lines = [_line(index, line, edits) for index, line in enumerate(lines)]
    for index, line in enumerate(prose.lines):
        if index not in edits.code and RAW_MARKER.match(line.split("\n")[-1]):
            construct = _MARKER_CONSTRUCTS.get(line.strip()[:1], "block")
            prose.unknown.append((index, f"{construct} marker not understood"))
    return prose


def _collect(token: Token, edits: _Edits, prose: Prose, count: int) -> None:
    span = token.map
    if token.type in ("fence", "code_block") and span:
        edits.code.update(range(span[0], min(span[1], count)))
        if "open_line" in token.meta:
            edits.label[span[0]] = str(token.meta["open_line"])
            edits.blank.update(token.meta.get("drop", ()))
    elif token.type in ("myst_target", "myst_line_comment") and span:
        edits.blank.update(range(span[0], min(span[1], count)))
    elif token.type == "heading_open" and token.markup in SETEXT and span:
        edits.blank.add(span[1] - 1)
        edits.label[span[0]] = "#" * int(token.tag[1]) + " " + "{text}"
    elif token.type == "dialect_open" and span:
        block = token.meta["block"]
        if isinstance(block, Block):
            _block(block, span, token, edits, prose, count)


def _block(
    block: Block, span: list[int], token: Token, edits: _Edits, prose: Prose, count: int
) -> None:
    start, end = span[0], min(span[1], count)
    prose.counts[_construct(block, token)] += 1
    if "alert_line" in token.meta:
        edits.alerts.add(start)
        return
    if block.kind == "directive":
        prose.unknown.append((start, f"directive '{block.name or '?'}' (its text is kept)"))
    if block.kind == "dropped":
        edits.blank.update(range(start, end))
        return
    label = _label(block)
    if block.kind == "tab" and block.name == "code":
        edits.before[start] = label or ""
    elif label is not None and not _from_html(token):
        edits.label[start] = label
    if block.indented:
        for line in range(start + 1, end):
            edits.dedent[line] += 4
    if 0 <= block.closer < count:
        edits.blank.add(block.closer)
    edits.blank.update(line for line in block.drop if line < count)


def _from_html(token: Token) -> bool:
    return bool(token.meta.get("html"))


def _construct(block: Block, token: Token) -> str:
    if "alert_line" in token.meta:
        return "github alert"
    if block.kind == "admonition" and block.collapsible:
        return "collapsible admonition"
    if block.kind == "tab":
        return "code tab" if block.name == "code" else "tab"
    return {"reference": "mkdocstrings stub", "component": "mdx component"}.get(
        block.kind, block.kind
    )


def _label(block: Block) -> str | None:
    title = block.title.strip()
    if block.kind in ("admonition", "directive") or (block.kind == "details" and not title):
        name = readable_name(block.name) if block.name else ""
        if not name:
            return f"{title}" if title else ""
        same = not title or title.casefold() == block.name.casefold()
        return f"{name}:" if same else f"{name}: {title}"
    if block.kind in ("details", "component"):
        return title
    if block.kind == "tab":
        return f"{title}:" if title else ""
    if block.kind == "reference":
        return f"Reference to `{block.name}`."
    if block.kind == "abbreviation":
        return f"{block.name}: {title}"
    return None  # a tab set has no title (MyST's marker line is dropped)


def _line(index: int, line: str, edits: _Edits) -> str:
    if index in edits.blank:
        return ""
    line = _dedent(line, edits.dedent[index])
    if index in edits.before:
        fence = edits.label.get(index) or _ATTR_INFO.sub(r"\1\2", _TAB_ATTR.sub("", line))
        indent = line[: len(line) - len(line.lstrip())]
        return f"{edits.before[index]}\n{indent}{fence.lstrip()}"
    if index in edits.label:
        indent = line[: len(line) - len(line.lstrip())]
        template = edits.label[index]
        text = template.replace("{text}", line.strip()) if "{text}" in template else template
        return indent + text if text else ""
    if index in edits.alerts:
        line = _ALERT_MARK.sub(lambda m: readable_name(m.group(1).lower()) + ": ", line, count=1)
        line = line.rstrip()
    if index in edits.code:
        return _ATTR_INFO.sub(r"\1\2", line) if _CLOSER.match(line) is None else line
    return clean_prose_line(line)


def _dedent(line: str, amount: int) -> str:
    if amount <= 0:
        return line
    expanded = line.expandtabs(4) if line.startswith("\t") else line
    spaces = len(expanded) - len(expanded.lstrip(" "))
    return expanded[min(spaces, amount) :]


def clean_prose_line(line: str) -> str:
    """Tags, icon shortcodes and a trailing attribute list removed outside code spans; a
    line of HTML (it starts with a tag) loses its indent too, so its text never reads as
    an indented code block."""
    if line.lstrip().startswith("<"):
        line = line.lstrip()
    parts: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(line):
        parts.append(_clean_text(line[position : match.start()]))
        parts.append(match.group(0))
        position = match.end()
    parts.append(_clean_text(line[position:]))
    return _ATTR_LIST.sub("", "".join(parts))


def _clean_text(text: str) -> str:
    if "<" in text:
        text = strip_tags(text)
    return _ICON.sub("", text) if ":" in text else text
