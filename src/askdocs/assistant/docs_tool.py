"""``search_docs``: the model searches the documentation with its own query, bounded by
``SearchTimeoutSeconds``; when it cannot, it says why and how to go on without it."""

from __future__ import annotations

from dataclasses import dataclass, field

from askdocs.assistant.retrieval import Lookup, LookupStatus, lookup
from askdocs.assistant.tools import JsonObject, ToolContext, ToolOutcome
from askdocs.blocking import BlockingPool
from askdocs.corpus.freshness import freshness_json
from askdocs.llm.types import ToolSpec
from askdocs.service import AskDocs
from askdocs.settings import AssistantSettings
from askdocs.types import Hit

NAME = "search_docs"
SEARCHING = "Searching the documentation"
CAPTIONS: dict[LookupStatus, str] = {
    "ok": "Thinking",
    "still_indexing": "Docs index still building — answering without it",
    "timeout": "Docs search timed out — answering without it",
    "unavailable": "Docs search unavailable — answering without it",
}
GUIDANCE = (
    "Answer from what you already know and the documentation already in your instructions, "
    "say plainly that you could not check the documentation this time, and do not call "
    "search_docs again in this turn."
)
MAX_RESULTS = 8
EXCERPT_CHARS = 1500
SPEC = ToolSpec(
    name=NAME,
    description=(
        "Search the documentation (hybrid keyword + semantic search over heading-sized "
        "sections). Use it when the documentation in your instructions does not cover the "
        "question, and always before saying something is impossible or unsupported."
    ),
    parameters={
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for, in plain words."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_RESULTS},
        },
        "required": ["query"],
        "additionalProperties": False,
    },
)


def hit_data(hit: Hit, excerpt_chars: int = EXCERPT_CHARS) -> JsonObject:
    return {
        "title": hit.title,
        "section": hit.heading,
        "url": hit.url,
        "audience": hit.audience,
        "text": hit.text[:excerpt_chars],
        "freshness": freshness_json(hit.freshness),
    }


def lookup_data(found: Lookup) -> JsonObject:
    if found.status != "ok":
        return {
            "available": False,
            "status": found.status,
            "reason": found.reason or "the documentation could not be searched",
            "guidance": GUIDANCE,
        }
    results = [hit_data(hit) for hit in found.hits]
    data: JsonObject = {"available": True, "status": "ok", "results": results}
    if not results:
        data["note"] = "Nothing matched. Try other words once, or answer and say so."
    return data


@dataclass
class SearchDocsTool:
    service: AskDocs
    settings: AssistantSettings
    default_site: str | None = None
    pool: BlockingPool = field(default_factory=lambda: BlockingPool(1))
    spec: ToolSpec = SPEC
    start_caption: str = SEARCHING

    async def run(self, context: ToolContext, arguments: JsonObject) -> ToolOutcome:
        query = arguments.get("query")
        if not isinstance(query, str) or not query.strip():
            return ToolOutcome({"error": "query must be a non-empty string"})
        limit = arguments.get("limit")
        count = limit if isinstance(limit, int) and 1 <= limit <= MAX_RESULTS else 5
        found = await lookup(
            self.service,
            self.pool,
            query,
            site=context.site_id or self.default_site,
            limit=count,
            timeout=self.settings.search_timeout_seconds,
        )
        return ToolOutcome(lookup_data(found), CAPTIONS[found.status])
