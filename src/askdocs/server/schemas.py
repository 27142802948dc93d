"""Wire schemas of the HTTP API (separate from the core types they are built from).

The public API is snake_case. A response model whose fields carry the core value's own
names is read from it attribute by attribute (``Out.of``), nested values included.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, field_validator

from askdocs.corpus.freshness import freshness_json
from askdocs.guard.validation import (
    CLEAN_PATTERN,
    LOCALE_PATTERN,
    MAX_TOKEN_CHARS,
    NONBLANK_PATTERN,
)
from askdocs.indexing.state import IndexState
from askdocs.service import SiteIndexStatus
from askdocs.settings import AskSettings
from askdocs.types import Freshness, SearchResult


class Out(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    @classmethod
    def of(cls, value: object) -> Self:
        return cls.model_validate(value)


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


class SearchHitOut(Out):
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

    @field_validator("freshness", mode="before")
    @classmethod
    def _freshness(cls, value: object) -> object:
        """The core ``Freshness`` as its JSON (ISO times), which ``FreshnessOut`` reads."""
        if value is None or isinstance(value, Freshness):
            return freshness_json(value)
        return value


class IndexingOut(BaseModel):
    """How far a site's embedding run is: ``embedded`` of ``total`` sections."""

    embedded: int
    total: int
    describe: str  # the same words as ``askdocs serve``'s progress

    @classmethod
    def of(cls, state: IndexState) -> IndexingOut | None:
        """Present only while the site's sections are being embedded."""
        if not (state.embedding and state.total):
            return None
        return cls(embedded=state.embedded, total=state.total, describe=state.describe())


class SearchResponse(BaseModel):
    query: str
    site: str
    mode: str
    match: bool
    degraded_reason: str | None = None
    indexing: IndexingOut | None = None  # keyword mode while the site's vectors are embedded
    hits: list[SearchHitOut]

    @classmethod
    def of(
        cls, query: str, site: str, result: SearchResult, indexing: IndexingOut | None = None
    ) -> SearchResponse:
        return cls(
            query=query,
            site=site,
            mode=result.mode,
            match=result.match,
            degraded_reason=result.reason,
            indexing=indexing if result.mode == "keyword" else None,
            hits=[SearchHitOut.of(hit) for hit in result.hits],
        )


class BadFileOut(Out):
    path: str
    reason: str


class SiteStatusOut(Out):
    site: str
    ready: bool
    building: bool
    collection: str | None
    chunks: int
    error: str | None = None
    empty: bool = False
    bad_files: list[BadFileOut] = []
    state: str = "ready"  # ready | building | empty | error | docs_root_missing
    search: str = "none"  # what a search reads now: none, keyword or hybrid
    indexing: IndexingOut | None = None  # while its sections are embedded
    holds_readiness: bool = True  # False: an organisation's site, never the service's state

    @classmethod
    def of_site(cls, status: SiteIndexStatus, state: IndexState) -> SiteStatusOut:
        return cls.of(status).model_copy(update={"indexing": IndexingOut.of(state)})


class ReadyChecks(BaseModel):
    """The service's own dependencies, each ``ok`` or ``unavailable``."""

    database: Literal["ok", "unavailable"]
    limits: Literal["ok", "unavailable"]


class ReadyResponse(BaseModel):
    ready: bool
    checks: ReadyChecks
    sites: list[SiteStatusOut]
    model_loading: bool = False  # the embedding model is still loading after start


class AskSource(BaseModel):
    """One entry of the ``X-Ask-Sources`` header."""

    title: str
    url: str
    heading: str


def _message(role: str, max_chars: int, pattern: str) -> dict[str, object]:
    content = {"type": "string", "maxLength": max_chars, "pattern": pattern}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["role", "content"],
        "properties": {"role": {"type": "string", "const": role}, "content": content},
    }


def ask_request_schema(ask: AskSettings) -> dict[str, object]:
    """The documented body of ``POST /api/ask``, exactly what ``guard.validation`` accepts
    (it refuses the rest with its codes): at most ``max_messages`` messages, the first and
    the last from the user, a user message never blank, the last at most
    ``max_question_chars`` long; JSON Schema's ``prefixItems`` per conversation length."""
    user = _message("user", ask.max_message_chars, NONBLANK_PATTERN)
    anyone = {"anyOf": [user, _message("assistant", ask.max_message_chars, CLEAN_PATTERN)]}
    last = _message("user", min(ask.max_message_chars, ask.max_question_chars), NONBLANK_PATTERN)
    lengths = [
        {
            "minItems": n,
            "maxItems": n,
            "prefixItems": [last] if n == 1 else [user, *[anyone] * (n - 2), last],
        }
        for n in range(1, ask.max_messages + 1)
    ]
    nullable = {"type": ["string", "null"]}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["messages"],
        "properties": {
            "token": {**nullable, "maxLength": MAX_TOKEN_CHARS, "description": "bot-check token"},
            "locale": {**nullable, "pattern": LOCALE_PATTERN},
            "messages": {"type": "array", "items": anyone, "anyOf": lengths},
        },
    }


ASK_REQUEST_SCHEMA = ask_request_schema(AskSettings())
"""The documented body of ``POST /api/ask`` with the default limits."""
