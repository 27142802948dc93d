"""Keeping the index current: the one background ``Indexer`` (server, MCP local mode, admin
re-index), each site's ``SiteProgress``, and the ``ActivityMonitor`` that lets interactive
work go first."""

from __future__ import annotations

from askdocs.indexing.indexer import CheckedSite, Indexer, Job, Outcome
from askdocs.indexing.monitor import ActivityMonitor
from askdocs.indexing.progress import ProgressView, SiteProgress

__all__ = [
    "ActivityMonitor",
    "CheckedSite",
    "Indexer",
    "Job",
    "Outcome",
    "ProgressView",
    "SiteProgress",
]
