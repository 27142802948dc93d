"""The Markdown corpus: sources -> safe reads -> front matter -> structure -> chunks.

Public API::

    from askdocs.corpus import read_site, CorpusCache, CorpusSnapshot
    snapshot = read_site(site, settings.corpus, cache)

See docs/corpus.md for how pages become chunks.
"""

from askdocs.corpus.cache import CorpusCache
from askdocs.corpus.site import read_site
from askdocs.corpus.snapshot import CorpusSnapshot

__all__ = ["CorpusCache", "CorpusSnapshot", "read_site"]
