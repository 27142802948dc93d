"""Seed 003's search execution through the real route: the per-account concurrency limit
refuses the N+1th search before any work, the spend budget is counted before the work
starts (hosted providers only), a caller that disconnects stops the work (observed: the
engine query never runs, and the metrics count a 499 and a stopped search), and a deadline
bounds the whole search.

The query embeddings go to a scripted OpenAI-compatible embedding server on 127.0.0.1 that
can hold its answer, which keeps searches in flight for as long as a test needs."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from askdocs.auth.jwt import mint
from askdocs.errors import Cancelled, DeadlineExceeded, RateLimited
from askdocs.guard.visitor import visitor_id
from askdocs.search.execution import AccountSlots
from askdocs.search.stop import NEVER, StopToken
from askdocs.server.app import create_app
from askdocs.server.routes.metrics import exposition
from askdocs.service import AskDocs
from askdocs.settings import load_settings
from askdocs.sites import folder_site
from askdocs.users import UserService
from tests.assistant.scripted import EmbeddingServer, embedding_server
from tests.search.fixtures import write_docs

pytestmark = pytest.mark.anyio
SITE = "fixture"
QUESTION = "how do I allow cookies from another origin"
BOUND = 60.0  # seconds a poll may wait on a loaded CI machine


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def embeddings() -> Iterator[EmbeddingServer]:
    with embedding_server() as server:
        yield server


@dataclass
class Served:
    app: FastAPI
    engine: AskDocs
    embeddings: EmbeddingServer
    indexed: int  # embedding inputs sent while indexing

    def queries(self) -> int:
        """Query embeddings asked for since the index was built."""
        return len(self.embeddings.inputs) - self.indexed

    def client(self, address: str = "10.0.0.1") -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=self.app, client=(address, 4000))
        return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")

    def metrics(self) -> str:
        return exposition(self.app.state.askdocs.search_execution.metrics)


@pytest.fixture
async def served(tmp_path: Path, embeddings: EmbeddingServer) -> AsyncIterator[Served]:
    opened = await _serve(tmp_path, embeddings)
    yield opened
    await _close(opened)


async def _close(served: Served) -> None:
    served.embeddings.release.set()
    await served.app.state.askdocs.aclose()
    served.engine.close()


async def _serve(
    tmp_path: Path, embeddings: EmbeddingServer, threads: int = 4, **search: Any
) -> Served:
    settings = load_settings(
        data_dir=tmp_path / "data",
        sites=[folder_site(write_docs(tmp_path / "docs"), SITE)],
        embedding={
            "provider": "openai-compatible",
            "model": "scripted-embed",
            "base_url": embeddings.url,
            "query_timeout_seconds": 60,
            "query_cache_size": 0,  # every search asks the server
        },
        server={"index_in_background": False, "search_concurrency": threads},
        # a healthy limits store on a loaded CI machine must never look down
        ask={"limits_timeout_seconds": 10},
        search={"max_concurrent_per_account": 2, "timeout_seconds": 60, **search},
    )
    engine = AskDocs(settings)
    await asyncio.to_thread(engine.index, SITE)
    return Served(create_app(settings, engine), engine, embeddings, len(embeddings.inputs))


async def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def test_account_slots_refuse_the_next_and_release_once() -> None:
    slots = AccountSlots(2)
    first, second = slots.take("a"), slots.take("a")
    with pytest.raises(RateLimited) as refused:
        slots.take("a")
    assert (refused.value.code, refused.value.retry_after) == ("search_concurrency_limit", 1)
    slots.take("b")()  # another account has its own slots
    first()
    first()  # idempotent: one release per slot
    assert slots.held("a") == 1
    slots.take("a")
    second()
    assert slots.held("a") == 1


def test_a_stopped_token_raises_its_reason_at_the_next_check() -> None:
    token = StopToken()
    token.check("plan")
    token.stop(Cancelled("gone"))
    token.stop(DeadlineExceeded("late"))  # the first reason wins
    with pytest.raises(Cancelled):
        token.check("query")
    assert token.stopped_at == "query"
    late = StopToken(deadline=time.monotonic() - 1)
    with pytest.raises(DeadlineExceeded):
        late.check("plan")
    NEVER.stop(Cancelled("ignored"))
    NEVER.check("plan")


async def test_the_n_plus_first_concurrent_search_of_an_account_is_refused(
    served: Served,
) -> None:
    served.embeddings.hang.set()
    async with served.client() as http, served.client("10.0.0.2") as other:
        running = [
            asyncio.ensure_future(http.get("/api/search", params={"q": f"{QUESTION} {n}"}))
            for n in range(2)
        ]
        await _until(lambda: served.queries() == 2, "two searches in flight")
        refused = await http.get("/api/search", params={"q": QUESTION})
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "search_concurrency_limit"
        assert refused.headers["retry-after"] == "1"
        assert served.queries() == 2  # refused before any work
        elsewhere = asyncio.ensure_future(other.get("/api/search", params={"q": QUESTION}))
        await _until(lambda: served.queries() == 3, "another account's search")
        served.embeddings.release.set()
        answers = await asyncio.gather(*running, elsewhere)
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert 'askdocs_search_requests_total{status="429"} 1' in served.metrics()


async def test_disconnecting_mid_search_stops_its_work(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "askdocs")
    served.embeddings.hang.set()
    disconnect = asyncio.Event()
    sent: list[dict[str, Any]] = []
    task = asyncio.ensure_future(
        _asgi_get(served.app, f"/api/search?q={QUESTION}", disconnect.wait, sent.append)
    )
    await _until(lambda: served.queries() == 1, "the search's query embedding")
    disconnect.set()  # the caller goes away while the query embedding is out
    await _until(task.done, "the route to give up")
    served.embeddings.release.set()  # the embedding answers; the work must stop there
    stopped = 'askdocs_search_stopped_total{reason="client_closed_request"} 1'
    await _until(lambda: stopped in served.metrics(), "the work to stop")
    metrics = served.metrics()
    assert 'askdocs_search_requests_total{status="499"} 1' in metrics
    assert "askdocs_search_in_flight 0" in metrics
    assert "GET /api/search -> 499 client_closed_request" in caplog.text
    # stopped right after the query embedding: the engine query never ran
    assert "search work stopped before query: client_closed_request" in caplog.text
    assert sent == [] or sent[0]["status"] == 499  # nothing readable went to the caller
    slots = served.app.state.askdocs.search_execution.slots
    assert slots.held("visitor:" + _visitor(served)) == 0
    # the next search of the same caller runs: the slot came back with the stopped work
    async with served.client("127.0.0.1") as http:
        again = await http.get("/api/search", params={"q": QUESTION})
    assert again.status_code == 200


async def test_a_disconnect_before_the_work_starts_drops_it(
    tmp_path: Path, embeddings: EmbeddingServer
) -> None:
    served = await _serve(tmp_path, embeddings, threads=1)
    embeddings.hang.set()
    async with served.client("10.0.0.9") as http:
        first = asyncio.ensure_future(http.get("/api/search", params={"q": QUESTION}))
        await _until(lambda: served.queries() == 1, "the first search")
        disconnect = asyncio.Event()
        queued = asyncio.ensure_future(
            _asgi_get(served.app, f"/api/search?q={QUESTION}+2", disconnect.wait, lambda _: None)
        )
        await _until(lambda: _held(served, "127.0.0.1") == 1, "the second search queued")
        disconnect.set()
        await _until(queued.done, "the queued search to be dropped")
        assert _held(served, "127.0.0.1") == 0  # never started, slot back at once
        embeddings.release.set()
        assert (await first).status_code == 200
    assert served.queries() == 1  # the dropped search never embedded its query


async def test_the_deadline_bounds_the_whole_search(
    tmp_path: Path, embeddings: EmbeddingServer
) -> None:
    served = await _serve(tmp_path, embeddings, timeout_seconds=0.5)
    embeddings.hang.set()
    async with served.client() as http:
        response = await http.get("/api/search", params={"q": QUESTION})
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "search_timeout"
    embeddings.release.set()
    stopped = 'askdocs_search_stopped_total{reason="search_timeout"} 1'
    await _until(lambda: stopped in served.metrics(), "the late work to stop")


async def test_the_spend_budget_is_counted_before_the_work(
    tmp_path: Path, embeddings: EmbeddingServer
) -> None:
    served = await _serve(tmp_path, embeddings, daily_budget_per_account=2)
    async with served.client() as http, served.client("10.0.0.2") as other:
        answers = [await http.get("/api/search", params={"q": QUESTION}) for _ in range(3)]
        elsewhere = await other.get("/api/search", params={"q": QUESTION})
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[2].json()["error"]["code"] == "search_budget_exceeded"
    assert int(answers[2].headers["retry-after"]) > 0
    assert served.queries() == 3  # the refused search embedded nothing
    assert elsewhere.status_code == 200


async def test_the_bundled_model_spends_no_budget(tmp_path: Path) -> None:
    settings = load_settings(
        data_dir=tmp_path / "data",
        sites=[folder_site(write_docs(tmp_path / "docs"), SITE)],
        embedding={"provider": "none"},
        server={"index_in_background": False},
        search={"daily_budget_per_account": 1},
    )
    engine = AskDocs(settings)
    await asyncio.to_thread(engine.index, SITE)
    transport = httpx.ASGITransport(app=create_app(settings, engine))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        statuses = [(await http.get("/api/search", params={"q": "cors"})).status_code for _ in "ab"]
    assert statuses == [200, 200]


def _visitor(served: Served) -> str:
    return visitor_id(served.app.state.askdocs.visitor_key, "127.0.0.1")


def _held(served: Served, address: str) -> int:
    account = "visitor:" + visitor_id(served.app.state.askdocs.visitor_key, address)
    held: int = served.app.state.askdocs.search_execution.slots.held(account)
    return held


async def _asgi_get(
    app: FastAPI,
    target: str,
    disconnected: Callable[[], Awaitable[Any]],
    sent: Callable[[dict[str, Any]], None],
) -> None:
    """One GET from 127.0.0.1 over the ASGI interface, as a server delivers it: the empty
    request, then ``http.disconnect`` when ``disconnected()`` returns (the caller left)."""
    path, _, query = target.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.replace(" ", "+").encode(),
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 80),
    }
    messages = iter([{"type": "http.request", "body": b"", "more_body": False}])

    async def receive() -> dict[str, Any]:
        message = next(messages, None)
        if message is not None:
            return message
        await disconnected()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            sent(message)

    await app(scope, receive, send)


async def test_the_metrics_are_for_platform_admins_only(served: Served) -> None:
    db = served.app.state.askdocs.stored().db
    settings = served.app.state.askdocs.settings
    admin = UserService(db).create_user("admin@x.io", platform_admin=True)
    member = UserService(db).create_user("member@x.io")
    async with served.client() as http:
        await http.get("/api/search", params={"q": QUESTION})
        anonymous = await http.get("/api/v1/metrics")
        refused = await http.get(
            "/api/v1/metrics", headers={"Authorization": f"Bearer {mint(settings, member.id)}"}
        )
        shown = await http.get(
            "/api/v1/metrics", headers={"Authorization": f"Bearer {mint(settings, admin.id)}"}
        )
    assert anonymous.status_code == 401
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "admin_required")
    assert shown.status_code == 200
    assert shown.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert 'askdocs_search_requests_total{status="200"} 1' in shown.text
