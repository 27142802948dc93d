"""``POST /api/ask``: the public Ask AI endpoint, its checks in a fixed order, a streamed reply.

1. the host is a docs site (404 ``site_not_found``);
2. the visitor's burst limit (429 ``burst_limit``; 503 ``limits_unavailable``);
3. the body (413, 415, 400 with a stable code);
4. the site is live, has Ask AI on, and is public or a private site of one of the signed-in
   caller's organisations (404 ``ask_unavailable``);
5. the bot-check token, for action ``ask`` and this host or the site's default address (403);
   with no bot check configured, a non-loopback client is ``403 bot_check_required``;
6. the daily limits per visitor, site and all sites (429; 503 ``limits_unavailable``).
Only then does retrieval run, and only with a match is a model called: the active stored
chat provider when an admin made one active (re-read for every question, no restart), the
configured one otherwise (``App.current_chat``, the resolver the assistant uses too).
The question is recorded (``answer.records``; its id is ``X-Ask-Id``) for feedback and the
gaps report.
A model that fails before answering is ``503 model_unavailable``: a plain message and the
sources retrieval found, never the provider's error text (that goes to the log).
"""

from __future__ import annotations

import dataclasses
import json
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field

from askdocs.answer.flow import Answer, Question, answer
from askdocs.answer.prompt import Source
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.guard.hosts import default_host
from askdocs.guard.validation import AskInput, PayloadTooLarge, parse_ask_body, require_json
from askdocs.server.deps import (
    BotCheckDep,
    CatalogDep,
    ChatDep,
    ClientDep,
    EngineDep,
    HostDep,
    HostSiteDep,
    LimiterDep,
    PoolDep,
    RecordsDep,
    SettingsDep,
    VisitorDep,
)
from askdocs.server.routes.ask_feedback import flagged_at_end, record
from askdocs.server.schemas import ASK_REQUEST_SCHEMA, ErrorBody
from askdocs.server.signin import SiteCallerDep
from askdocs.settings import Settings, SiteConfig
from askdocs.sites import SiteCaller, SiteCatalog

router = APIRouter()
ASK_ACTION = "ask"
MAX_SOURCE_FIELD = 300
UNAVAILABLE_MESSAGE = "The assistant is unavailable right now. Here are the most relevant pages."
_ERRORS = {code: {"model": ErrorBody} for code in (400, 403, 404, 413, 415, 429, 500, 503)}


_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": ASK_REQUEST_SCHEMA}},
    }
}
_OK = {200: {"description": "The answer, streamed", "content": {"text/plain": {}}}}


@router.post(
    "/api/ask",
    response_class=StreamingResponse,
    responses={**_OK, **_ERRORS},  # type: ignore[dict-item]
    openapi_extra=_BODY,
)
async def ask(
    request: Request,
    site: HostSiteDep,
    host: HostDep,
    visitor: VisitorDep,
    client: ClientDep,
    settings: SettingsDep,
    limiter: LimiterDep,
    bot_check: BotCheckDep,
    engine: EngineDep,
    chat: ChatDep,
    pool: PoolDep,
    catalog: CatalogDep,
    caller: SiteCallerDep,
    records: RecordsDep,
) -> Response:
    await limiter.burst(visitor)
    body = await _read_question(request, settings)
    _require_ask_on(site, readable(catalog, caller, site))
    hosts = {host, default_host(site) or ""} - {""}
    await bot_check.verify(body.token, action=ASK_ACTION, hostnames=hosts, remote_ip=client)
    left = await limiter.daily(visitor, site.id)
    question = Question(site, body.messages, body.locale)
    model = await chat()  # the active stored provider, else the configured one, now
    reply = await answer(engine, model, settings, question, pool)
    record_id = await record(records, question, visitor, reply)
    extra = {"X-Ask-Id": record_id} if record_id else {}
    if reply.kind == "unavailable":
        return _unavailable(reply, left, extra)
    text = flagged_at_end(reply.body, reply, records, record_id)
    return _stream(dataclasses.replace(reply, body=text), left, extra)


class AskLimits(BaseModel):
    """What is left of today's questions for this visitor, and when the count resets."""

    remaining: int
    limit: int
    resets_at: int = Field(serialization_alias="resetsAt")  # epoch s, the next UTC midnight


@router.get("/api/ask/limits", responses=_ERRORS)  # type: ignore[arg-type]
async def ask_limits(
    site: HostSiteDep,
    visitor: VisitorDep,
    settings: SettingsDep,
    limiter: LimiterDep,
    catalog: CatalogDep,
    caller: SiteCallerDep,
) -> JSONResponse:
    """The counter an Ask AI panel shows before the first question; it counts nothing."""
    _require_ask_on(site, readable(catalog, caller, site))
    left = await limiter.left_today(visitor, site.id)
    body = AskLimits(
        remaining=left.remaining, limit=settings.ask.daily_visitor_limit, resets_at=left.resets_at
    )
    return JSONResponse(body.model_dump(by_alias=True), headers={"Cache-Control": "no-store"})


async def _read_question(request: Request, settings: Settings) -> AskInput:
    limits = settings.ask
    require_json(request.headers.get("content-type"))
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.max_body_bytes:
        raise PayloadTooLarge(f"the request body is over {limits.max_body_bytes} bytes")
    raw = bytearray()
    async for piece in request.stream():
        raw += piece
        if len(raw) > limits.max_body_bytes:
            raise PayloadTooLarge(f"the request body is over {limits.max_body_bytes} bytes")
    return parse_ask_body(bytes(raw), limits)


def readable(catalog: SiteCatalog, caller: SiteCaller, site: SiteConfig) -> bool:
    """Public and live, or a private site of one of the caller's organisations."""
    entry = catalog.entry(site.id)
    return entry is not None and caller.may_use(entry)


def _require_ask_on(site: SiteConfig, readable: bool) -> None:
    if not (readable and site.live and site.ask_enabled):
        raise NotFound("Ask AI is not available on this site", code=ErrorCode.ASK_UNAVAILABLE)


def _headers(reply: Answer, remaining: int) -> dict[str, str]:
    return {
        "X-Ask-Sources": sources_header(reply.sources),
        "X-Ask-Remaining": str(remaining),
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
    }


def _stream(reply: Answer, remaining: int, extra: dict[str, str]) -> StreamingResponse:
    headers = {**_headers(reply, remaining), "X-Accel-Buffering": "no", **extra}
    return StreamingResponse(reply.body, media_type="text/plain; charset=utf-8", headers=headers)


def _unavailable(reply: Answer, remaining: int, extra: dict[str, str]) -> Response:
    """503 ``model_unavailable``: a plain message plus the sources, for a retry or a read."""
    body = {
        "error": {"code": ErrorCode.MODEL_UNAVAILABLE, "message": UNAVAILABLE_MESSAGE},
        "sources": source_items(reply.sources),
    }
    return JSONResponse(body, 503, headers={**_headers(reply, remaining), **extra})


def source_items(sources: list[Source]) -> list[dict[str, str]]:
    return [
        {
            "title": s.title[:MAX_SOURCE_FIELD],
            "url": s.url[:MAX_SOURCE_FIELD],
            "heading": s.heading[:MAX_SOURCE_FIELD],
        }
        for s in sources
    ]


def sources_header(sources: list[Source]) -> str:
    """URL-encoded JSON list of ``{title, url, heading}``, best first."""
    items = source_items(sources)
    return quote(json.dumps(items, ensure_ascii=False, separators=(",", ":")), safe="")
