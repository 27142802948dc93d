"""Ingest: a site's pages (``askdocs.corpus``) -> chunks (``askdocs.chunking``) -> a snapshot.

Public API::

    from askdocs.ingest import read_site, IngestCache, CorpusSnapshot
    snapshot = read_site(site, settings.corpus, cache)

Corpus reading returns pages only; this step chunks them and computes the revision, so
the corpus never imports the chunker.
"""

from __future__ import annotations

from askdocs.ingest.site import IngestCache, chunk_source, read_site
from askdocs.ingest.snapshot import CorpusSnapshot

__all__ = ["CorpusSnapshot", "IngestCache", "chunk_source", "read_site"]
