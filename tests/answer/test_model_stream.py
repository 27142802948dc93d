"""The model's reply as Ask AI streams it: errors before the first event raise (HTTP 500);
errors after it end the text with a marker."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from askdocs.answer.flow import INTERRUPTED_MARKER, LENGTH_MARKER, model_text
from askdocs.errors import ModelError
from askdocs.llm.http import Timeouts
from askdocs.llm.openai_compat import OpenAICompatibleModel
from askdocs.llm.types import ChatMessage, ChatRequest
from tests.llm.scripted import Reply, ScriptedServer, openai_text, scripted_server, sse

pytestmark = pytest.mark.anyio
REQUEST = ChatRequest(system="s", messages=(ChatMessage("user", "q"),))


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with scripted_server() as state:
        yield state


def model(server: ScriptedServer) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(
        model="m", base_url=server.url, timeouts=Timeouts(connect=1, idle=0.5, total=5)
    )


async def text_of(server: ScriptedServer) -> str:
    return "".join([piece async for piece in await model_text(model(server), REQUEST)])


async def test_a_whole_reply(server: ScriptedServer) -> None:
    server.script(Reply(openai_text(["Use ", "pip."])))
    assert await text_of(server) == "Use pip."


async def test_error_before_the_first_event_raises(server: ScriptedServer) -> None:
    server.script(Reply([b'{"error": {"message": "overloaded"}}'], 503, "application/json"))
    with pytest.raises(ModelError, match="503"):
        await model_text(model(server), REQUEST)


async def test_error_mid_stream_ends_with_the_marker(server: ScriptedServer) -> None:
    chunks = openai_text(["Use ", "pip", " and"])
    server.script(Reply([*chunks[:3], sse({"error": {"message": "boom"}})]))
    assert await text_of(server) == "Use pip" + INTERRUPTED_MARKER


async def test_hang_mid_stream_ends_with_the_marker(server: ScriptedServer) -> None:
    server.script(Reply(openai_text(["Use ", "pip"]), hang_after=3))
    assert await text_of(server) == "Use pip" + INTERRUPTED_MARKER


async def test_length_stop_is_marked(server: ScriptedServer) -> None:
    server.script(Reply(openai_text(["Half a sent"], "length")))
    assert await text_of(server) == "Half a sent" + LENGTH_MARKER
