"""The checks of POST /api/ask run in a fixed order: a request failing two checks gets the
earlier one's status. None of these requests reaches retrieval or the model."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from askdocs.settings import AskSettings
from tests.guard.redis_server import Pause, RedisProcess, closed_port_url
from tests.llm.scripted import Reply
from tests.server.conftest import QUIET_HOST, Rig, client
from tests.support.timing import bounded

pytestmark = pytest.mark.anyio
GOOD = {"token": "tok", "messages": [{"role": "user", "content": "How do I install Acme?"}]}
BAD_BODY = {"token": "tok", "messages": [{"role": "assistant", "content": "hi"}]}
LIMITS_TIMEOUT = 0.5  # the production default; a paused Redis never answers (30 s watchdog)


def passes(rig: Rig) -> None:
    rig.siteverify.script(
        Reply(
            [json.dumps({"success": True, "action": "ask", "hostname": "docs.acme.test"}).encode()],
            content_type="application/json",
        )
    )


def fails(rig: Rig) -> None:
    rig.siteverify.script(
        Reply([json.dumps({"success": False}).encode()], content_type="application/json")
    )


async def post(http: httpx.AsyncClient, body: Any) -> httpx.Response:
    return await http.post("/api/ask", json=body)


def code(response: httpx.Response) -> str:
    value: str = response.json()["error"]["code"]
    return value


async def test_unknown_host_comes_before_everything(rig: Rig) -> None:
    async with client(rig.app(), host="evil.example") as http:
        for _ in range(5):  # also over the burst limit, with a bad body
            response = await post(http, BAD_BODY)
            assert (response.status_code, code(response)) == (404, "site_not_found")


async def test_burst_comes_before_body_validation(rig: Rig) -> None:
    async with client(rig.app()) as http:
        statuses = [(await post(http, BAD_BODY)).status_code for _ in range(4)]
        assert statuses == [400, 400, 400, 429]
        last = await post(http, BAD_BODY)
    assert code(last) == "burst_limit"
    assert 1 <= int(last.headers["retry-after"]) <= 60


async def test_body_validation_comes_before_site_availability(rig: Rig) -> None:
    async with client(rig.app(), host=QUIET_HOST) as http:
        response = await post(http, BAD_BODY)
    assert (response.status_code, code(response)) == (400, "must_start_with_user")


async def test_site_availability_comes_before_the_bot_check(rig: Rig) -> None:
    async with client(rig.app(), host=QUIET_HOST) as http:
        response = await post(http, {**GOOD, "token": ""})
    assert (response.status_code, code(response)) == (404, "ask_unavailable")
    assert rig.siteverify.received == []


async def test_bot_check_comes_before_daily_limits(rig: Rig) -> None:
    async with client(rig.app()) as http:
        fails(rig)
        response = await post(http, GOOD)
        assert (response.status_code, code(response)) == (403, "bot_check_failed")
        assert len(rig.siteverify.received) == 1


async def test_daily_limit_stops_before_retrieval(rig: Rig) -> None:
    app = rig.app()
    for _ in range(2):
        await app.state.askdocs.limiter.daily(_visitor(app), "acme")
    async with client(app) as http:
        fails(rig)
        refused = await post(http, GOOD)
        assert code(refused) == "bot_check_failed"  # a failed bot check used no quota
        passes(rig)
        response = await post(http, GOOD)
    assert (response.status_code, code(response)) == (429, "visitor_daily_limit")
    assert int(response.headers["retry-after"]) > 0
    assert response.headers["cache-control"] == "no-store"
    assert rig.model.received == []


async def test_redis_refused_is_503_before_anything(rig: Rig) -> None:
    app = rig.app(redis_url=closed_port_url(), ask=production_timeout(rig))
    started = time.monotonic()
    async with client(app) as http:
        response = await post(http, BAD_BODY)
    assert time.monotonic() - started < bounded(LIMITS_TIMEOUT)
    assert (response.status_code, code(response)) == (503, "limits_unavailable")
    assert rig.siteverify.received == []
    assert rig.model.received == []


async def test_redis_paused_is_503_within_a_second(rig: Rig, own_redis: RedisProcess) -> None:
    app = rig.app(redis_url=own_redis.url, ask=production_timeout(rig))
    async with client(app) as http:
        with own_redis.paused() as pause:
            started = time.monotonic()
            response = await post(http, GOOD)
            elapsed = time.monotonic() - started
            answered_while_paused = not pause.resumed.is_set()
    assert answered_while_paused  # cut off by the limits timeout, not by Redis coming back
    assert elapsed < bounded(LIMITS_TIMEOUT)
    assert (response.status_code, code(response)) == (503, "limits_unavailable")
    assert rig.siteverify.received == []
    assert rig.model.received == []


async def test_daily_limits_unreachable_is_503_after_the_bot_check(
    rig: Rig, own_redis: RedisProcess
) -> None:
    app = rig.app(redis_url=own_redis.url, ask=production_timeout(rig))
    async with client(app) as http:
        await app.state.askdocs.limiter.burst(_visitor(app))  # connected
        passes(rig)
        original = app.state.askdocs.bot_check.verify

        pauses: list[Pause] = []

        async def verify_then_pause(*args: Any, **kwargs: Any) -> None:
            await original(*args, **kwargs)
            pauses.append(own_redis.pause())

        app.state.askdocs.bot_check.verify = verify_then_pause
        try:
            started = time.monotonic()
            response = await post(http, GOOD)
            elapsed = time.monotonic() - started
            answered_while_paused = not pauses[0].resumed.is_set()
        finally:
            own_redis.resume()
    assert (response.status_code, code(response)) == (503, "limits_unavailable")
    assert answered_while_paused
    assert elapsed < bounded(LIMITS_TIMEOUT)
    assert rig.model.received == []


def production_timeout(rig: Rig) -> AskSettings:
    return rig.settings.ask.model_copy(update={"limits_timeout_seconds": LIMITS_TIMEOUT})


def _visitor(app: Any) -> str:
    from askdocs.guard.visitor import visitor_id

    return visitor_id(app.state.askdocs.visitor_key, "127.0.0.1")
