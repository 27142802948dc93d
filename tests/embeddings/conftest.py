"""Fixtures for the embedding providers: scripted vendor servers on 127.0.0.1."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest

from tests.embeddings.scripted_server import Received, Reply, Script, ScriptedServer

API_KEY = "sk-test-0123456789abcdef-SECRET"


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    scripted = ScriptedServer().start()
    yield scripted
    scripted.stop()


def fake_vector(text: str, dimension: int, scale: float = 3.0) -> list[float]:
    """A deterministic, non-unit vector for a text (so normalisation is observable)."""
    digest = hashlib.sha256(text.encode()).digest()
    return [scale * ((digest[i % 32] / 255.0) - 0.4) for i in range(dimension)]


def openai_script(dimension: int) -> Script:
    """Answer like OpenAI, listing the data in reverse order (clients must sort by index)."""

    def script(request: Received) -> Reply:
        assert isinstance(request.body, dict)
        texts = request.body["input"]
        size = request.body.get("dimensions", dimension)
        data = [
            {"object": "embedding", "index": i, "embedding": fake_vector(t, size)}
            for i, t in enumerate(texts)
        ]
        body = {"object": "list", "data": data[::-1], "model": request.body["model"]}
        return Reply(200, body)

    return script


def gemini_script(dimension: int) -> Script:
    """Answer like the Gemini API's batchEmbedContents."""

    def script(request: Received) -> Reply:
        assert isinstance(request.body, dict)
        embeddings = []
        for item in request.body["requests"]:
            size = item.get("outputDimensionality", dimension)
            text = item["content"]["parts"][0]["text"]
            embeddings.append({"values": fake_vector(text, size)})
        return Reply(200, {"embeddings": embeddings})

    return script
