"""A site's ingested corpus at one moment: pages of every locale, their chunks, errors and a
revision."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from askdocs.chunking import CHUNKER_VERSION
from askdocs.corpus.documents import Diagnostics
from askdocs.types import Chunk, Page, PageError


@dataclass(frozen=True)
class CorpusSnapshot:
    """Immutable result of ``read_site``. Pages and chunks are in root order, then path order."""

    site: str
    pages: tuple[Page, ...]
    errors: tuple[PageError, ...]
    warnings: tuple[str, ...]
    chunks: tuple[Chunk, ...]
    revision: str
    default_locale: str = "en"
    page_chunks: tuple[tuple[Chunk, ...], ...] = field(default=(), repr=False, compare=False)
    _index: dict[tuple[str, str], int] = field(
        default_factory=dict, repr=False, compare=False, hash=False
    )
    # (root, dialect, why) per root, and each read file's dialect diagnostics
    dialects: tuple[tuple[str, str, str], ...] = field(default=(), compare=False)
    diagnostics: tuple[tuple[str, Diagnostics], ...] = field(default=(), repr=False, compare=False)
    pending: tuple[str, ...] = ()  # files not parsed within the read's budget (left out)

    @classmethod
    def build(
        cls,
        site: str,
        default_locale: str,
        pages: Sequence[tuple[Page, tuple[Chunk, ...]]],
        errors: Sequence[PageError],
        warnings: Sequence[str],
    ) -> CorpusSnapshot:
        return cls(
            site=site,
            pages=tuple(page for page, _ in pages),
            errors=tuple(errors),
            warnings=tuple(warnings),
            chunks=tuple(chunk for _, chunks in pages for chunk in chunks),
            revision=corpus_revision(pages),
            default_locale=default_locale,
            page_chunks=tuple(chunks for _, chunks in pages),
            _index={(page.slug, page.locale): n for n, (page, _) in enumerate(pages)},
        )

    def page(self, slug: str, locale: str) -> Page | None:
        """The variant in ``locale``; else the default-locale one marked ``translated=False``."""
        found = self._index.get((slug, locale))
        if found is not None:
            return self.pages[found]
        original = self._index.get((slug, self.default_locale))
        if original is None:
            return None
        return dataclasses.replace(self.pages[original], translated=False)

    def chunks_of(self, page: Page) -> tuple[Chunk, ...]:
        """The chunks of one page variant (empty for a fallback or unknown page)."""
        found = self._index.get((page.slug, page.locale))
        if found is None or not page.translated:
            return ()
        return self.page_chunks[found]

    def source_path(self, page: Page) -> Path:
        """Absolute path of the file a page was read from (its root is already resolved)."""
        return Path(page.root) / page.path


def corpus_revision(pages: Sequence[tuple[Page, tuple[Chunk, ...]]]) -> str:
    """SHA-256 over the chunker version, each page's metadata and each of its chunks."""
    digest = hashlib.sha256(CHUNKER_VERSION.encode())
    for page, chunks in pages:
        digest.update(_line(["page", *_page_fields(page)]))
        for chunk in chunks:
            digest.update(_line(["chunk", *_chunk_fields(chunk)]))
    return digest.hexdigest()


def _page_fields(page: Page) -> list[object]:
    return [
        page.site,
        page.path,
        page.slug,
        page.locale,
        page.title,
        page.audience,
        page.order,
        page.description,
        page.translated,
        [[h.level, h.text, h.section_id] for h in page.headings],
    ]


def _chunk_fields(chunk: Chunk) -> list[object]:
    return [
        chunk.id,
        chunk.embed_hash,
        chunk.url,
        chunk.audience,
        chunk.path,
        list(chunk.heading_trail),
        chunk.anchor,
    ]


def _line(values: list[object]) -> bytes:
    return json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
