"""Answering one question: retrieve, decide, then stream a cited reply.

Retrieval runs the engine's hybrid search over the site (top ``chunks_per_question``) and
keeps the engine's match decision. Nothing left: a fixed message, and no model is called.
With no chat model: the extractive answer. Otherwise the model streams; its first event is
awaited here, so a model that fails before answering gives an ``unavailable`` answer (the
sources retrieval found, and no model text: the route answers ``503 model_unavailable``
with them; the provider's error goes to the log only), and one that fails later ends the
text with ``INTERRUPTED_MARKER``. A model's text passes the citation check
(``answer.citations``) as it streams.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Literal

from askdocs.answer.citations import CitationFilter, checked_stream
from askdocs.answer.extractive import extractive_pieces
from askdocs.answer.prompt import Source, source_texts, sources, system_prompt
from askdocs.answer.search_text import user_questions
from askdocs.blocking import BlockingPool
from askdocs.errors import ModelError
from askdocs.llm.types import ChatEvent, ChatMessage, ChatModel, ChatRequest, Finish, TextDelta
from askdocs.search.floor import above_floor
from askdocs.service import AskDocs
from askdocs.settings import Settings, SiteConfig
from askdocs.types import Hit, SearchResult

log = logging.getLogger(__name__)

NO_MATCH_MESSAGE = (
    "I couldn't find an answer to that in this documentation. Try rephrasing the question, "
    "or search the documentation for the feature's name."
)
INTERRUPTED_MARKER = "\n\n[The answer was interrupted by an error. Please ask again.]"
LENGTH_MARKER = "\n\n[The answer was cut short: it reached the length limit.]"
FILTERED_MARKER = "\n\n[The model stopped this answer.]"
EMPTY_MARKER = "[The model returned no answer. Please ask again.]"


@dataclass(frozen=True)
class Answer:
    kind: Literal["no_match", "extractive", "model", "unavailable"]
    sources: list[Source]
    body: AsyncIterator[str]
    citations: CitationFilter | None = None  # a model answer's check: kept and dropped markers


@dataclass(frozen=True)
class Question:
    site: SiteConfig
    messages: tuple[ChatMessage, ...]
    locale: str | None = None


async def answer(
    service: AskDocs,
    model: ChatModel | None,
    settings: Settings,
    question: Question,
    pool: BlockingPool,
) -> Answer:
    hits = await retrieve(service, settings, question, pool)
    if not hits:
        return Answer("no_match", [], _pieces([NO_MATCH_MESSAGE]))
    if model is None:
        return Answer("extractive", sources(hits), _pieces(extractive_pieces(hits)))
    request = ChatRequest(
        system=system_prompt(question.site.name or question.site.id, hits),
        messages=question.messages,
        max_output_tokens=settings.chat.max_output_tokens,
    )
    try:
        body = await model_text(model, request)
    except ModelError as exc:
        log.warning("chat model failed before answering: %s", exc.message)
        return Answer("unavailable", sources(hits), _pieces([]))
    checker = CitationFilter.over(source_texts(hits))
    return Answer("model", sources(hits), checked_stream(body, checker), checker)


async def retrieve(
    service: AskDocs,
    settings: Settings,
    question: Question,
    pool: BlockingPool,
) -> list[Hit]:
    """The site's best sections for the question, or none when the engine sees no match."""
    asked = user_questions(question.messages)
    text, history = (asked[-1], tuple(asked[:-1])) if asked else ("", ())
    count = settings.ask.chunks_per_question
    search = partial(
        service.search,
        text,
        site=question.site.id,
        locale=question.locale,
        audience="user",  # Ask AI is public: it answers from user pages only (seed 003)
        limit=count,
        history=history,  # the engine applies the one follow-up rule
    )
    result = await pool.run(interactive(service, search))
    return context_hits(result, question.site.id, count, question.locale)


def context_hits(result: SearchResult, site: str, count: int, locale: str | None) -> list[Hit]:
    """What the model reads and ``X-Ask-Sources`` lists: nothing without a match, else the
    site's hits that clear the per-section floor (``search.floor``), at most ``count``."""
    if not result.match:
        return []
    own = [hit for hit in result.hits if hit.site == site]
    return above_floor(own, result.threshold, result.searched, locale or "en")[:count]


def interactive(service: AskDocs, search: Callable[[], SearchResult]) -> Callable[[], SearchResult]:
    """Run ``search`` as interactive work: background indexing yields to it between batches."""

    def run() -> SearchResult:
        with service.monitor.interactive():
            return search()

    return run


async def model_text(model: ChatModel, request: ChatRequest) -> AsyncIterator[str]:
    """Start the model; raise ModelError if it fails before its first event."""
    events = model.stream(request)
    try:
        first = await anext(events)
    except StopAsyncIteration:
        raise ModelError("the chat model ended without a reply") from None
    except BaseException:
        await _close(events)
        raise
    return _text(first, events)


async def _text(first: ChatEvent, events: AsyncIterator[ChatEvent]) -> AsyncIterator[str]:
    """The reply's text, ending with a marker when it did not finish normally."""
    sent = False
    event = first
    try:
        while not isinstance(event, Finish):
            if isinstance(event, TextDelta) and event.text:
                sent = True
                yield event.text
            event = await anext(events)
        marker = _finish_marker(event, sent)
        if marker:
            yield marker
    except StopAsyncIteration:
        yield INTERRUPTED_MARKER
    except ModelError as exc:
        log.warning("chat model failed mid-stream: %s", exc.message)
        yield INTERRUPTED_MARKER
    finally:
        await _close(events)


async def _close(events: AsyncIterator[ChatEvent]) -> None:
    close = getattr(events, "aclose", None)
    if close is not None:
        await close()


def _finish_marker(finish: Finish, sent: bool) -> str:
    if finish.reason == "length":
        return LENGTH_MARKER
    if finish.reason == "content-filter":
        return FILTERED_MARKER
    if finish.reason == "error":
        return INTERRUPTED_MARKER
    return "" if sent else EMPTY_MARKER


async def _pieces(pieces: Sequence[str]) -> AsyncIterator[str]:
    for piece in pieces:
        yield piece
