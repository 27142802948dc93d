"""Core value types shared by the corpus, the engine and every surface.

These are plain frozen dataclasses: the pure core passes them around, the edges turn
them into wire schemas. Nothing here does I/O.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

Audience = Literal["user", "developer"]
AUDIENCES: tuple[Audience, ...] = ("user", "developer")
DEFAULT_LOCALE = "en"


@dataclass(frozen=True)
class Heading:
    """A Markdown heading as parsed: level, visible text and stable section id."""

    level: int
    text: str
    section_id: str
    line: int


@dataclass(frozen=True)
class Section:
    """The text under one heading (level <= split level) up to the next such heading.

    ``heading`` is None for text before the first heading (the page's lead).
    ``trail`` lists the headings above it, outermost first, itself last.
    ``code_lines``: the 0-based lines of ``text`` inside fenced or indented code, as the
    page's own parse found them (the chunker splits long sections at blank lines outside
    code); ``None`` when not known, and the chunker parses ``text`` to find them.
    """

    heading: Heading | None
    trail: tuple[str, ...]
    text: str
    code_lines: frozenset[int] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Page:
    """One parsed Markdown page of one locale variant."""

    site: str
    root: str
    path: str  # relative to its docs root, "/" separators, e.g. "tutorial/cors.md"
    slug: str
    title: str
    locale: str
    audience: Audience
    order: int | None
    description: str | None
    body: str  # Markdown without front matter
    headings: tuple[Heading, ...]
    sections: tuple[Section, ...]
    meta: dict[str, object] = field(default_factory=dict, compare=False, hash=False)
    translated: bool = True  # False when this is the English fallback for a missing locale
    dialect: str = "gfm"  # the Markdown dialect of its root (corpus.dialects)
    anchors: tuple[str, ...] = ()  # explicit anchors besides the headings' ids (HTML ids...)
    # (the dialect's heading id, the reader's) where the reader's own element ids differ
    anchor_aliases: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Chunk:
    """One embeddable unit: a section, or a part of one."""

    site: str
    path: str
    slug: str
    title: str
    heading: str
    heading_trail: tuple[str, ...]
    section_id: str
    anchor: str
    url: str
    audience: Audience
    locale: str
    part: int
    text: str
    # Text lent by a short introducing parent section (see chunking.with_intros). It is
    # searched and embedded with the chunk but is not part of the chunk's own text.
    context: str = ""
    kind: str = "guide"  # the page kind (corpus.pagekind): "guide" or "changelog"
    group: str = "general"  # the page's group (corpus.groups), the reader's category

    @property
    def id(self) -> str:
        return f"{self.slug}:{self.locale}#{self.section_id}:{self.part}"

    @property
    def embed_text(self) -> str:
        body = f"{self.context}\n\n{self.text}" if self.context else self.text
        return embed_text(self.title, self.heading_trail or (self.heading,), body)

    @property
    def embed_hash(self) -> str:
        return hashlib.sha256(self.embed_text.encode("utf-8")).hexdigest()


def embed_text(title: str, trail: tuple[str, ...], text: str) -> str:
    """The exact text that is embedded for a chunk: its heading path, then its text.

    The path is the page title and the trail of headings down to the chunk's own
    (``Page › H2 › H3``), so that repeated headings ("Configuration", "Example") are told
    apart; a heading equal to the one before it (an H1 that is the title) is not repeated.
    """
    return f"{heading_path(title, trail)}\n\n{text}"


def heading_path(title: str, trail: tuple[str, ...]) -> str:
    """``"Page › H2 › H3"``: the title, then each heading that differs from the previous."""
    items = [title]
    for heading in trail:
        if heading and heading != items[-1]:
            items.append(heading)
    return " › ".join(items)


@dataclass(frozen=True)
class PageError:
    """A documentation file that could not be used, with why."""

    path: str
    reason: str


@dataclass(frozen=True)
class Freshness:
    """How fresh a hit or page is. Times are Unix seconds; None when unknown."""

    indexed_at: float | None  # when the searched collection was built
    modified_at: float | None  # the source file's modification time
    commit: str | None = None  # HEAD of the docs root's git work tree, if any


@dataclass(frozen=True)
class Hit:
    """One search result. ``score`` is a ranking value, not a confidence."""

    site: str
    path: str
    slug: str
    title: str
    heading: str
    heading_trail: tuple[str, ...]
    section_id: str
    anchor: str
    url: str
    audience: Audience
    locale: str
    text: str
    score: float
    translated: bool = True
    chunk_id: str = ""
    freshness: Freshness | None = None
    cosine: float | None = None  # best query cosine among the section's chunks (hybrid mode)
    kind: str = "guide"  # the page kind (corpus.pagekind): "guide" or "changelog"


SearchMode = Literal["hybrid", "keyword"]


@dataclass(frozen=True)
class SearchResult:
    """Hits best first, plus how they were found and whether they count as a match."""

    hits: tuple[Hit, ...]
    match: bool
    mode: SearchMode
    reason: str | None = None  # why the search degraded, when it did
    coverage: float = 1.0  # share of chunks with a vector in the searched collection
    collection: str | None = None
    best_dense: float | None = None  # the best cosine similarity seen (drives ``match``)
    threshold: float | None = None  # the cosine threshold of the match decision (hybrid mode)
    searched: str = ""  # the text searched (the question, or joined with its history)


@dataclass(frozen=True)
class SparseVector:
    """A sparse vector: sorted, unique ``indices`` with one value each.

    Documents carry BM25 term-frequency saturations (``askdocs.search.lexical``); the store
    multiplies in the IDF (Qdrant ``Modifier.IDF``), so a dot product with a query vector of
    ones is the BM25 score.
    """

    indices: tuple[int, ...]
    values: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.indices) != len(self.values):
            raise ValueError("a sparse vector needs one value per index")

    def __bool__(self) -> bool:
        return bool(self.indices)
