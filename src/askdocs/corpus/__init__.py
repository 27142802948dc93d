"""The Markdown corpus: sources -> safe reads -> front matter -> structure -> pages.

Public API::

    from askdocs.corpus import read_pages, CorpusCache, CorpusPages
    pages = read_pages(site, settings.corpus, cache)

Reading returns pages only; ``askdocs.ingest`` chunks them (see docs/corpus.md).
"""

from __future__ import annotations

from askdocs.corpus.cache import CorpusCache
from askdocs.corpus.pages import CorpusPages, SourcePage
from askdocs.corpus.site import read_pages

__all__ = ["CorpusCache", "CorpusPages", "SourcePage", "read_pages"]
