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
    r"(?P<attrs>(?:\s+(?:[^<>\"'{}/]|/(?!>)|\"[^\"]*\"|'[^']*'|\{(?:[^{}]|\{[^{}]*\})*\})*)?)"
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


def anchor_id(tag: Tag) -> str:
    """The anchor an HTML element or component offers links: its ``id`` (an ``<a>`` also
    its ``name``); "" for a closing tag."""
    if tag.closing:
        return ""
    found = tag.attrs.get("id") or (tag.attrs.get("name") if tag.name.lower() == "a" else "")
    return (found or "").strip()


def anchors_in(text: str) -> list[str]:
    """Every anchor the HTML tags of ``text`` offer (``anchor_id``), in order."""
    return [found for item in tags(text) if isinstance(item, Tag) and (found := anchor_id(item))]


def tab_label(tag: Tag) -> str:
    """A ``<TabItem>``'s label: ``label``, else its ``value`` made readable."""
    label = visible_text(tag.attrs.get("label", "").strip())
    if label:
        return label
    value = tag.attrs.get("value", "").strip()
    return value.upper() if len(value) <= 4 else value[:1].upper() + value[1:]


def is_tabs(tag: Tag) -> bool:
    return tag.component and tag.name.endswith("Tabs")


def is_tab(tag: Tag) -> bool:
    return tag.component and tag.name.endswith("TabItem")


def strip_tags(line: str, prose: bool = True) -> str:
    """One line of chunk text without its tags: a tab or component's prose attribute stays
    (a tab label gets a colon; not without ``prose``), text stays, everything else goes."""
    parts: list[str] = []
    for item in tags(line):
        if isinstance(item, str):
            parts.append(item)
        elif not prose:
            continue
        elif not item.closing and (is_tab(item)):
            parts.append(f"{tab_label(item)}:")
        elif not item.closing and item.component:
            parts.append(item.prose)
        elif item.name.lower() == "img":
            parts.append(item.attrs.get("alt", ""))
    return "".join(parts)


def visible_text(text: str, prose: bool = True) -> str:
    """One line of Markdown as a reader sees its words: tags removed outside code spans
    (a component's children stay, a self-closing one leaves its prose attribute unless not
    ``prose``: a heading's text, as its dialect's build reads a heading), spaces squeezed.
    ``Reporters <Badge type="danger">advanced</Badge>`` -> ``Reporters advanced``;
    ``update <CRoot />`` -> ``update``; ``MPA Mode <Badge text="new" />`` -> ``MPA Mode``."""
    if "<" not in text:
        return text
    parts: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(strip_tags(text[position : match.start()], prose))
        parts.append(match.group(0))
        position = match.end()
    parts.append(strip_tags(text[position:], prose))
    return " ".join("".join(parts).split())
