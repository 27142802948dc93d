"""HTML and MDX/JSX tags, read as structure and text, never passed through (pure).

``tags`` splits a run of HTML into tags and text. A tag's ``prose`` is the text an author
put in an attribute a reader sees (``label``, ``title``, ``question``, ``path``...), so a
JSX component such as ``<NavPath path="Settings > Recording" />`` keeps its words while
the tag itself goes. ``strip_tags`` is the line-level form used for chunk text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

_TAG = re.compile(
    r"<(?P<close>/?)(?P<name>[A-Za-z][\w.:-]*)"
    r"(?P<attrs>(?:\s+(?:[^<>\"'{}/]|/(?!>)|\"[^\"]*\"|'[^']*'|\{[^{}]*\})*)?)"
    r"\s*(?P<self>/?)>"
)
_ATTR = re.compile(r"([\w:.-]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|\{([^{}]*)\}|([^\s\"'>]+)))?")
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
PROSE_ATTRIBUTES = ("label", "title", "question", "summary", "heading", "path", "text")
RAW_TEXT = frozenset({"script", "style"})


@dataclass(frozen=True)
class Tag:
    name: str
    closing: bool
    self_closing: bool
    attrs: dict[str, str]

    @property
    def component(self) -> bool:
        """A JSX component (capitalised name), not an HTML element."""
        return self.name[:1].isupper()

    @property
    def prose(self) -> str:
        for key in PROSE_ATTRIBUTES:
            value = self.attrs.get(key, "").strip()
            if value:
                return value
        return ""


def parse_attrs(source: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for match in _ATTR.finditer(source):
        value = next((g for g in match.groups()[1:] if g is not None), "")
        attrs[match.group(1)] = html.unescape(value.strip().strip("'\"`"))
    return attrs


def tags(source: str) -> Iterator[Tag | str]:
    """Tags and the text between them, in order; comments dropped."""
    source = _COMMENT.sub("", source)
    position = 0
    for match in _TAG.finditer(source):
        if match.start() > position:
            yield source[position : match.start()]
        yield Tag(
            name=match.group("name"),
            closing=bool(match.group("close")),
            self_closing=bool(match.group("self")),
            attrs=parse_attrs(match.group("attrs") or ""),
        )
        position = match.end()
    if position < len(source):
        yield source[position:]


def tab_label(tag: Tag) -> str:
    """A ``<TabItem>``'s label: ``label``, else its ``value`` made readable."""
    label = tag.attrs.get("label", "").strip()
    if label:
        return label
    value = tag.attrs.get("value", "").strip()
    return value.upper() if len(value) <= 4 else value[:1].upper() + value[1:]


def is_tabs(tag: Tag) -> bool:
    return tag.component and tag.name.endswith("Tabs")


def is_tab(tag: Tag) -> bool:
    return tag.component and tag.name.endswith("TabItem")


def strip_tags(line: str) -> str:
    """One line of chunk text without its tags: a tab or component's prose attribute stays
    (a tab label gets a colon), text stays, everything else goes."""
    parts: list[str] = []
    for item in tags(line):
        if isinstance(item, str):
            parts.append(item)
        elif not item.closing and (is_tab(item)):
            parts.append(f"{tab_label(item)}:")
        elif not item.closing and item.component:
            parts.append(item.prose)
        elif item.name.lower() == "img":
            parts.append(item.attrs.get("alt", ""))
    return "".join(parts)


def visible_text(text: str) -> str:
    """One line of Markdown as a reader sees its words: tags removed outside code spans
    (a component's children stay, a self-closing one leaves its prose attribute), spaces
    squeezed. ``Reporters <Badge type="danger">advanced</Badge>`` -> ``Reporters
    advanced``; ``update <CRoot />`` -> ``update``."""
    if "<" not in text:
        return text
    parts: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(strip_tags(text[position : match.start()]))
        parts.append(match.group(0))
        position = match.end()
    parts.append(strip_tags(text[position:]))
    return " ".join("".join(parts).split())
