"""Markdown back from the reader API's sanitised article HTML (server mode's get_article).

The reader serves a small, fixed tag set (headings h2-h6 with ids, paragraphs, lists, code,
tables, links, images), so a short converter is enough. Pure: text in, parts out. Each part
starts at a heading and remembers its id and level, so one section can be cut out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

BLOCKS = {"p", "dl", "dt", "dd", "table"}
INLINE = {"strong": "**", "b": "**", "em": "*", "i": "*", "del": "~~", "s": "~~"}


@dataclass
class Part:
    """Markdown from one heading (or the start) up to the next heading."""

    anchor: str | None
    heading: str
    level: int
    chunks: list[str] = field(default_factory=list)

    @property
    def markdown(self) -> str:
        return "".join(self.chunks).strip()


class _Converter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts = [Part(None, "", 0)]
        self.lists: list[list[int]] = []  # one [counter] per open list; -1 for bullets
        self.links: list[str] = []
        self.quote = 0
        self.pre = False
        self.fence_open = False
        self.heading: Part | None = None
        self.cells = 0
        self.header_row = False
        self.after_item = False  # a <p> right after a list marker stays on its line

    def emit(self, text: str) -> None:
        if self.heading is not None:
            self.heading.heading += text
        self.parts[-1].chunks.append(text)
        self.after_item = False

    def last(self) -> str:
        chunks = self.parts[-1].chunks
        return chunks[-1][-1:] if chunks and chunks[-1] else "\n"

    def newline(self, blank: bool = True) -> None:
        prefix = "> " * self.quote
        self.emit(("\n" + prefix if blank else "") + "\n" + prefix)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag in ("h2", "h3", "h4", "h5", "h6"):
            level = int(tag[1])
            self.parts.append(Part(attr.get("id"), "", level))
            self.parts[-1].chunks.append("#" * level + " ")
            self.heading = self.parts[-1]
        elif tag in BLOCKS or tag == "blockquote":
            self.quote += tag == "blockquote"
            if not (tag == "p" and self.after_item):
                self.newline()
        else:
            self._inline_start(tag, attr)

    def _inline_start(self, tag: str, attr: dict[str, str | None]) -> None:
        if tag == "br":
            self.newline(blank=False)
        elif tag == "hr":
            self.newline()
            self.emit("---")
            self.newline()
        elif tag == "pre":
            self.pre, self.fence_open = True, False
            self.newline()
        elif tag == "code":
            self._code_start(attr.get("class") or "")
        elif tag in ("ul", "ol"):
            self.lists.append([int(attr.get("start") or 1) if tag == "ol" else -1])
        elif tag == "li":
            self._item()
        elif tag == "a":
            self.links.append(attr.get("href") or "")
            self.emit("[")
        elif tag == "img":
            self.emit(f"![{attr.get('alt') or ''}]({attr.get('src') or ''})")
        elif tag == "tr":
            self.cells, self.header_row = 0, False
            self.newline(blank=False)
            self.emit("|")
        elif tag in ("td", "th"):
            self.cells += 1
            self.header_row = self.header_row or tag == "th"
            self.emit(" ")
        elif tag in INLINE:
            self.emit(INLINE[tag])

    def _code_start(self, css: str) -> None:
        if self.pre and not self.fence_open:
            language = css.removeprefix("language-") if css.startswith("language-") else ""
            self.emit(f"```{language}\n")
            self.fence_open = True
        elif not self.pre:
            self.emit("`")

    def _item(self) -> None:
        depth = max(len(self.lists) - 1, 0)
        counter = self.lists[-1] if self.lists else [-1]
        marker = "-" if counter[0] < 0 else f"{counter[0]}."
        if counter[0] >= 0:
            counter[0] += 1
        self.newline(blank=False)
        self.emit("  " * depth + marker + " ")
        self.after_item = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h2", "h3", "h4", "h5", "h6"):
            self.heading = None
            self.newline()
        elif tag == "blockquote":
            self.quote = max(self.quote - 1, 0)
            self.newline()
        elif tag in BLOCKS:
            self.newline()
        elif tag == "pre":
            self.emit("\n```" if self.fence_open else "")
            self.pre = False
            self.newline()
        elif tag == "code" and not self.pre:
            self.emit("`")
        elif tag in ("ul", "ol") and self.lists:
            self.lists.pop()
            self.newline()
        elif tag == "a" and self.links:
            self.emit(f"]({self.links.pop()})")
        elif tag in ("td", "th"):
            self.emit(" |")
        elif tag == "tr" and self.header_row:
            self.newline(blank=False)
            self.emit("|" + " --- |" * self.cells)
        elif tag in INLINE:
            self.emit(INLINE[tag])

    def handle_data(self, data: str) -> None:
        if self.pre:
            if not self.fence_open:
                self.emit("```\n")
                self.fence_open = True
            self.emit(data.rstrip("\n") if data.endswith("\n") else data)
        else:
            self._text(data)

    def _text(self, data: str) -> None:
        """Collapse whitespace like a browser: runs become one space, none at a line start."""
        words = " ".join(data.split())
        lead = " " if data[:1].isspace() and not self.last().isspace() else ""
        trail = " " if words and data[-1:].isspace() else ""
        if lead or words:
            self.emit(lead + words + trail)


def html_parts(html: str) -> list[Part]:
    converter = _Converter()
    converter.feed(html)
    converter.close()
    for part in converter.parts:
        part.heading = part.heading.strip()
    return [p for p in converter.parts if p.markdown or p.anchor is not None]


def _blank(line: str) -> bool:
    return not line.replace(">", "").strip()


def tidy(markdown: str) -> str:
    """One blank line between blocks; quote-only lines only between quoted text."""
    lines = [line.rstrip() for line in markdown.split("\n")]
    out: list[str] = []
    for index, line in enumerate(lines):
        if not _blank(line):
            out.append(line)
            continue
        after = next((nxt for nxt in lines[index + 1 :] if not _blank(nxt)), "")
        quoted = bool(out) and out[-1].startswith(">") and after.startswith(">")
        blank = ">" if quoted else ""
        if out and out[-1] != blank and not _blank(out[-1]):
            out.append(blank)
    return "\n".join(out).strip() + "\n"


def section_parts(parts: list[Part], wanted: str) -> list[Part] | None:
    """The part whose anchor or heading is ``wanted``, with the deeper parts under it."""
    needle = wanted.strip().lstrip("#").casefold()
    for start, part in enumerate(parts):
        if part.anchor is not None and needle in (part.anchor.casefold(), part.heading.casefold()):
            end = start + 1
            while end < len(parts) and parts[end].level > part.level:
                end += 1
            return parts[start:end]
    return None
