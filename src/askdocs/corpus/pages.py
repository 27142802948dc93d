"""What reading a site returns: its pages, each with what ingest needs to chunk it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from askdocs.corpus.documents import Diagnostics
from askdocs.corpus.pagekind import PageKind
from askdocs.types import Page, PageError


@dataclass(frozen=True)
class SourcePage:
    """One page variant, the URL template of its root and audience, and its kind."""

    page: Page
    url_template: str
    kind: PageKind = "guide"

    def same(self, other: SourcePage) -> bool:
        """The very same page object, chunked the same way (cache reuse)."""
        return self.page is other.page and (self.url_template, self.kind) == (
            other.url_template,
            other.kind,
        )


@dataclass(frozen=True)
class CorpusPages:
    """Immutable result of ``read_pages``, in root order, then path order."""

    site: str
    default_locale: str
    pages: tuple[SourcePage, ...]
    errors: tuple[PageError, ...]
    warnings: tuple[str, ...]
    # (root, dialect, why) per root, and each read file's dialect diagnostics
    dialects: tuple[tuple[str, str, str], ...] = field(default=(), compare=False)
    diagnostics: tuple[tuple[str, Diagnostics], ...] = field(default=(), repr=False, compare=False)
    pending: tuple[str, ...] = ()  # files not parsed within the read's budget (left out)

    def same_content(
        self, pages: Sequence[SourcePage], errors: Sequence[PageError], warnings: Sequence[str]
    ) -> bool:
        """True when ``pages`` are the very page objects of this result (cache reuse)."""
        if len(pages) != len(self.pages) or tuple(errors) != self.errors:
            return False
        if tuple(warnings) != self.warnings:
            return False
        return all(new.same(mine) for new, mine in zip(pages, self.pages, strict=True))
