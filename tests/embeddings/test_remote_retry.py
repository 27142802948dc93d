"""Defect 9 (part) of the hardening battery: hosted embedders retry rate limits, timeouts
and 5xx with jittered back-off, obey Retry-After, cap concurrent requests per provider,
and never retry a search query or a permanent error."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from askdocs.embeddings.openai_compat import OpenAICompatibleEmbedder, from_settings
from askdocs.embeddings.remote_retry import RetryPolicy, parse_retry_after
from askdocs.errors import EmbeddingError
from askdocs.settings import EmbeddingSettings
from tests.embeddings.conftest import API_KEY, openai_script
from tests.embeddings.scripted_server import Received, Reply, ScriptedServer

FAST = RetryPolicy(max_retries=3, base_seconds=0.01, max_seconds=0.05)


def _embedder(server: ScriptedServer, retry: RetryPolicy = FAST) -> OpenAICompatibleEmbedder:
    return OpenAICompatibleEmbedder(
        model="m", base_url=f"{server.url}/v1", api_key=API_KEY, dimension=8, retry=retry
    )


def _failing_first(times: int, status: int, headers: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    ok = openai_script(8)
    calls = {"n": 0}

    def script(request: Received) -> Reply:
        calls["n"] += 1
        if calls["n"] <= times:
            return Reply(status, {"error": {"message": "slow down"}}, headers=headers or {})
        return ok(request)

    return script


@pytest.mark.parametrize("status", [429, 500, 503])
def test_rate_limits_and_server_errors_are_retried(server: ScriptedServer, status: int) -> None:
    server.script = _failing_first(2, status)
    vectors = _embedder(server).embed_documents(["a", "b"])
    assert vectors.shape == (2, 8)
    assert len(server.received) == 3


def test_retries_run_out_with_the_last_error(server: ScriptedServer) -> None:
    server.script = _failing_first(10, 429)
    with pytest.raises(EmbeddingError) as caught:
        _embedder(server).embed_documents(["a"])
    assert caught.value.code == "embedding_rate_limited"
    assert len(server.received) == 1 + FAST.max_retries


@pytest.mark.parametrize("status", [400, 401, 404])
def test_permanent_errors_are_not_retried(server: ScriptedServer, status: int) -> None:
    server.script = _failing_first(10, status)
    with pytest.raises(EmbeddingError):
        _embedder(server).embed_documents(["a"])
    assert len(server.received) == 1


def test_search_queries_are_never_retried(server: ScriptedServer) -> None:
    server.script = _failing_first(1, 429)
    with pytest.raises(EmbeddingError):
        _embedder(server).embed_query("q")
    assert len(server.received) == 1


def test_retry_after_is_obeyed_and_capped() -> None:
    policy = RetryPolicy(max_retries=3, base_seconds=1.0, max_seconds=5.0)
    assert policy.delay(0, 2.0) == 2.0
    assert policy.delay(0, 120.0) == 5.0
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("Wed, 21 Oct 2026 07:28:00 GMT") is None


def test_back_off_is_full_jitter_and_grows() -> None:
    policy = RetryPolicy(base_seconds=1.0, max_seconds=30.0, rng=random.Random(7))
    for retry, ceiling in ((0, 1.0), (1, 2.0), (3, 8.0), (10, 30.0)):
        waits = [policy.delay(retry, None) for _ in range(200)]
        assert all(0 <= w <= ceiling for w in waits)
        assert max(waits) > ceiling * 0.8  # spread over the whole range, not fixed


def test_concurrent_requests_to_one_provider_are_capped(server: ScriptedServer) -> None:
    ok = openai_script(8)
    lock, in_flight, peak = threading.Lock(), [0], [0]
    two_at_once, release = threading.Event(), threading.Event()

    def script(request: Received) -> Reply:
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
            if in_flight[0] >= 2:
                two_at_once.set()
        two_at_once.wait(30)  # the cap admits two: hold each until two overlap, however slow
        release.wait(0.2)  # pacing: room for a third to arrive if the cap let it through
        with lock:
            in_flight[0] -= 1
        return ok(request)

    server.script = script
    embedder = _embedder(server, RetryPolicy(max_retries=0, max_concurrent=2))
    with ThreadPoolExecutor(6) as pool:
        list(pool.map(lambda i: embedder.embed_documents([f"t{i}"]), range(6)))
    assert peak[0] == 2


def test_settings_reach_the_provider(server: ScriptedServer) -> None:
    settings = EmbeddingSettings(
        provider="openai-compatible", model="m", base_url=f"{server.url}/v1", dimension=8,
        max_retries=2, retry_base_seconds=0.01, retry_max_seconds=0.02,
    )  # fmt: skip
    server.script = _failing_first(2, 429)
    assert from_settings(settings).embed_documents(["a"]).shape == (1, 8)
    assert len(server.received) == 3
