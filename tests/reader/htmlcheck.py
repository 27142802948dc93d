"""Inspecting rendered HTML as a browser's parser would see it (stdlib ``html.parser``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

ALLOWED_TAGS = frozenset(
    [
        "a",
        "abbr",
        "aside",
        "b",
        "blockquote",
        "br",
        "code",
        "dd",
        "del",
        "details",
        "div",
        "dl",
        "dt",
        "em",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "i",
        "img",
        "kbd",
        "li",
        "ol",
        "p",
        "pre",
        "s",
        "section",
        "span",
        "strong",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    ]
)


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]


@dataclass
class Collected(HTMLParser):
    elements: list[Element] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, {k: v or "" for k, v in attrs}))


def elements(html: str) -> list[Element]:
    parser = Collected()
    parser.feed(html)
    parser.close()
    return parser.elements


def problems(html: str) -> list[str]:
    """Everything in ``html`` that could run script or reach a third party."""
    found = []
    for element in elements(html):
        if element.tag not in ALLOWED_TAGS:
            found.append(f"tag <{element.tag}>")
        for name, value in element.attrs.items():
            lowered = "".join(value.split()).lower()
            if name.startswith("on") or name in ("style", "srcset", "formaction", "xlink:href"):
                found.append(f"attribute {name} on <{element.tag}>")
            if name in ("href", "src") and lowered.startswith(
                ("javascript:", "data:", "vbscript:")
            ):
                found.append(f"{name}={value!r}")
            if name == "src" and not value.startswith("/api/docs/assets/"):
                found.append(f"external src={value!r}")
            if name == "href" and value.startswith("//"):
                found.append(f"protocol-relative href={value!r}")
    return found
