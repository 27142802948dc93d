"""Wire schemas of the HTTP API (separate from the core types they are built from)."""

from __future__ import annotations

from pydantic import BaseModel

from askdocs.corpus.freshness import freshness_json
from askdocs.service import SiteIndexStatus
from askdocs.types import Hit, SearchResult


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


class FreshnessOut(BaseModel):
    """Times ISO 8601 UTC; ``commit`` the docs root's git HEAD; null when unknown."""

    indexedAt: str | None = None
    modifiedAt: str | None = None
    commit: str | None = None


class SearchHitOut(BaseModel):
    title: str
    heading: str
    url: str
    text: str
    locale: str
    translated: bool
    audience: str
    path: str
    score: float
    freshness: FreshnessOut
    slug: str  # the page (article) id; with section_id it names the passage (seed 003)
    section_id: str
    kind: str  # the page kind: "guide" or "changelog"

    @classmethod
    def of(cls, hit: Hit) -> SearchHitOut:
        return cls(
            title=hit.title,
            heading=hit.heading,
            url=hit.url,
            text=hit.text,
            locale=hit.locale,
            translated=hit.translated,
            audience=hit.audience,
            path=hit.path,
            score=hit.score,
            freshness=FreshnessOut(**freshness_json(hit.freshness)),
            slug=hit.slug,
            section_id=hit.section_id,
            kind=hit.kind,
        )


class SearchResponse(BaseModel):
    query: str
    site: str
    mode: str
    match: bool
    degraded_reason: str | None = None
    hits: list[SearchHitOut]

    @classmethod
    def of(cls, query: str, site: str, result: SearchResult) -> SearchResponse:
        return cls(
            query=query,
            site=site,
            mode=result.mode,
            match=result.match,
            degraded_reason=result.reason,
            hits=[SearchHitOut.of(hit) for hit in result.hits],
        )


class BadFileOut(BaseModel):
    path: str
    reason: str


class SiteStatusOut(BaseModel):
    site: str
    ready: bool
    building: bool
    collection: str | None
    chunks: int
    error: str | None = None
    empty: bool = False
    bad_files: list[BadFileOut] = []

    @classmethod
    def of(cls, status: SiteIndexStatus) -> SiteStatusOut:
        return cls(
            site=status.site,
            ready=status.ready,
            building=status.building,
            collection=status.collection,
            chunks=status.chunks,
            error=status.error,
            empty=status.empty,
            bad_files=[BadFileOut(path=e.path, reason=e.reason) for e in status.bad_files],
        )


class ReadyResponse(BaseModel):
    ready: bool
    sites: list[SiteStatusOut]
    model_loading: bool = False  # the embedding model is still loading after start


class AskSource(BaseModel):
    """One entry of the ``X-Ask-Sources`` header."""

    title: str
    url: str
    heading: str


ASK_REQUEST_SCHEMA: dict[str, object] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["messages"],
    "properties": {
        "token": {"type": "string", "maxLength": 2048, "description": "bot-check token"},
        "locale": {"type": "string", "maxLength": 35},
        "messages": {
            "type": "array",
            "minItems": 1,
            "maxItems": 8,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["role", "content"],
                "properties": {
                    "role": {"type": "string", "enum": ["user", "assistant"]},
                    "content": {"type": "string", "maxLength": 4000},
                },
            },
        },
    },
}
"""The documented body of ``POST /api/ask`` (``guard.validation`` enforces it, with codes)."""
