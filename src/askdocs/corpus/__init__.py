"""The Markdown corpus: sources -> safe reads -> front matter -> structure -> pages.

Public API::

    from askdocs.corpus import read_pages, CorpusCache, CorpusPages
    pages = read_pages(site, settings.corpus, cache)

Reading returns pages only; ``askdocs.ingest`` chunks them (see docs/corpus.md).

The names load on first use (PEP 562), so a worker process that needs one module of the
package (``askdocs.corpus.parse_worker``, the reader's render worker) does not import the
whole corpus reader and the settings with it: before, each worker's start imported
pydantic and pydantic-settings and took about 1 s of CPU.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from askdocs.corpus.cache import CorpusCache
    from askdocs.corpus.pages import CorpusPages, SourcePage
    from askdocs.corpus.site import read_pages

__all__ = ["CorpusCache", "CorpusPages", "SourcePage", "read_pages"]
_HOMES = {
    "CorpusCache": "askdocs.corpus.cache",
    "CorpusPages": "askdocs.corpus.pages",
    "SourcePage": "askdocs.corpus.pages",
    "read_pages": "askdocs.corpus.site",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'askdocs.corpus' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
