"""The Markdown corpus: sources -> safe reads -> front matter -> structure -> chunks.

Public API::

    from askdocs.corpus import read_site, CorpusCache, CorpusSnapshot
    snapshot = read_site(site, settings.corpus, cache)

See docs/corpus.md for how pages become chunks. The names are loaded on first use so that
the pure modules (``askdocs.corpus.markdown``, ``askdocs.chunking``) import without the
reading machinery, and without an import cycle between the two.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from askdocs.corpus.cache import CorpusCache
    from askdocs.corpus.site import read_site
    from askdocs.corpus.snapshot import CorpusSnapshot

__all__ = ["CorpusCache", "CorpusSnapshot", "read_site"]

_HOMES = {
    "CorpusCache": "askdocs.corpus.cache",
    "CorpusSnapshot": "askdocs.corpus.snapshot",
    "read_site": "askdocs.corpus.site",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'askdocs.corpus' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
