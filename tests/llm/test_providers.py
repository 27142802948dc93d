"""Each provider against a scripted 127.0.0.1 server speaking its real streaming protocol."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from askdocs.errors import ModelError
from askdocs.llm import ChatMessage, ChatModel, ChatRequest, Finish, TextDelta, ToolCall
from askdocs.llm.anthropic import AnthropicModel
from askdocs.llm.gemini import GeminiModel
from askdocs.llm.http import Timeouts
from askdocs.llm.openai_compat import OpenAICompatibleModel
from askdocs.llm.types import ChatEvent
from tests.llm.scripted import (
    Reply,
    ScriptedServer,
    anthropic_text,
    gemini_text,
    openai_text,
    scripted_server,
    sse,
)
from tests.support.timing import bounded

KEY = "sk-test-SECRET-0123456789abcdef"
FAST = Timeouts(connect=1.0, idle=0.4, total=10.0)


@dataclass(frozen=True)
class Vendor:
    name: str
    build: Callable[[str, Timeouts], ChatModel]
    text: Callable[..., list[bytes]]
    length: str
    error_event: bytes
    auth_header: str
    path: str


VENDORS = [
    Vendor(
        "openai",
        lambda url, t: OpenAICompatibleModel(
            model="m1", base_url=url + "/v1", api_key=KEY, timeouts=t
        ),
        openai_text,
        "length",
        sse({"error": {"message": "upstream overloaded", "type": "server_error"}}),
        "authorization",
        "/v1/chat/completions",
    ),
    Vendor(
        "anthropic",
        lambda url, t: AnthropicModel(model="m1", base_url=url, api_key=KEY, timeouts=t),
        anthropic_text,
        "max_tokens",
        sse(
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            "error",
        ),
        "x-api-key",
        "/v1/messages",
    ),
    Vendor(
        "gemini",
        lambda url, t: GeminiModel(model="models/m1", base_url=url, api_key=KEY, timeouts=t),
        gemini_text,
        "MAX_TOKENS",
        sse(
            {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
        ),
        "x-goog-api-key",
        "/v1beta/models/m1:streamGenerateContent?alt=sse",
    ),
]
REQUEST = ChatRequest(system="Be brief.", messages=(ChatMessage("user", "Hello?"),))


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with scripted_server() as state:
        yield state


@pytest.fixture(params=VENDORS, ids=[v.name for v in VENDORS])
def vendor(request: pytest.FixtureRequest) -> Vendor:
    value: Vendor = request.param
    return value


async def collect(model: ChatModel, request: ChatRequest = REQUEST) -> list[ChatEvent]:
    return [event async for event in model.stream(request)]


@pytest.mark.anyio
async def test_text_streams_in_pieces_then_finish(server: ScriptedServer, vendor: Vendor) -> None:
    server.script(Reply(vendor.text(["Hel", "lo", " there"])))
    events = await collect(vendor.build(server.url, FAST))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hel", "lo", " there"]
    assert events[-1] == Finish("stop", events[-1].usage)  # type: ignore[union-attr]
    assert isinstance(events[-1], Finish)
    assert (events[-1].usage.input_tokens, events[-1].usage.output_tokens) == (11, 7)
    (received,) = server.received
    assert received.path == vendor.path
    assert KEY in received.headers[vendor.auth_header]
    assert KEY not in received.path


@pytest.mark.anyio
async def test_length_stop_reason_maps_to_length(server: ScriptedServer, vendor: Vendor) -> None:
    server.script(Reply(vendor.text(["cut"], vendor.length)))
    events = await collect(vendor.build(server.url, FAST))
    assert isinstance(events[-1], Finish)
    assert events[-1].reason == "length"


@pytest.mark.anyio
async def test_http_error_before_stream_is_scrubbed(server: ScriptedServer, vendor: Vendor) -> None:
    body = f'{{"error": {{"message": "Incorrect API key provided: {KEY}"}}}}'.encode()
    server.script(Reply([body], 401, "application/json"))
    with pytest.raises(ModelError) as caught:
        await collect(vendor.build(server.url, FAST))
    assert "401" in caught.value.message
    assert "Incorrect API key" in caught.value.message
    assert KEY not in caught.value.message
    assert "SECRET" not in caught.value.message


@pytest.mark.anyio
async def test_error_event_mid_stream(server: ScriptedServer, vendor: Vendor) -> None:
    chunks = vendor.text(["partial ", "answer", " more", " end"])
    server.script(Reply([*chunks[:-3], vendor.error_event]))
    seen: list[ChatEvent] = []

    async def consume() -> None:
        async for event in vendor.build(server.url, FAST).stream(REQUEST):
            seen.append(event)

    with pytest.raises(ModelError, match=r"(?i)overloaded"):
        await consume()
    assert any(isinstance(e, TextDelta) for e in seen)


@pytest.mark.anyio
async def test_connection_dropped_mid_stream(server: ScriptedServer, vendor: Vendor) -> None:
    server.script(Reply(vendor.text(["a", "b", "c"]), close_after=2))
    with pytest.raises(ModelError, match=r"early|connection"):
        await collect(vendor.build(server.url, FAST))


@pytest.mark.anyio
async def test_hang_mid_stream_hits_the_idle_timeout(
    server: ScriptedServer, vendor: Vendor
) -> None:
    server.script(Reply(vendor.text(["a", "b"]), hang_after=1))
    idle_only = Timeouts(connect=1.0, idle=0.4, total=120.0)  # only the idle bound can fire
    started = time.monotonic()
    with pytest.raises(ModelError, match="timed out"):
        await collect(vendor.build(server.url, idle_only))
    assert time.monotonic() - started < bounded(idle_only.idle)  # the server hangs 30 s


@pytest.mark.anyio
async def test_refused_connection_is_a_model_error(vendor: Vendor) -> None:
    with scripted_server() as closed:
        url = closed.url
    with pytest.raises(ModelError, match="connection failed"):
        await collect(vendor.build(url, FAST))


@pytest.mark.anyio
async def test_malformed_chunk_is_a_model_error(server: ScriptedServer, vendor: Vendor) -> None:
    server.script(Reply([b"data: {not json\n\n"]))
    with pytest.raises(ModelError, match="malformed"):
        await collect(vendor.build(server.url, FAST))


TOOL_REQUEST = ChatRequest(
    system="s",
    messages=(
        ChatMessage("user", "weather?"),
        ChatMessage("assistant", "", (ToolCall("call_9", "weather", {"city": "Oslo"}),)),
        ChatMessage("tool", '{"temp": 3}', tool_call_id="call_9"),
    ),
)


@pytest.mark.anyio
async def test_openai_tool_call_deltas_accumulate(server: ScriptedServer) -> None:
    def piece(delta: dict[str, object], finish: str | None = None) -> bytes:
        return sse({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

    first = {
        "index": 0,
        "id": "call_1",
        "type": "function",
        "function": {"name": "search", "arguments": ""},
    }
    server.script(
        Reply(
            [
                piece({"tool_calls": [first]}),
                piece({"tool_calls": [{"index": 0, "function": {"arguments": '{"q": "ins'}}]}),
                piece({"tool_calls": [{"index": 0, "function": {"arguments": 'tall"}'}}]}),
                piece({}, "tool_calls"),
                sse("[DONE]"),
            ]
        )
    )
    model = OpenAICompatibleModel(model="m1", base_url=server.url, api_key=KEY, timeouts=FAST)
    events = await collect(model, TOOL_REQUEST)
    assert events[0] == ToolCall("call_1", "search", {"q": "install"})
    assert isinstance(events[-1], Finish)
    assert events[-1].reason == "tool-calls"
    sent = server.received[0].body["messages"]
    assert sent[2]["tool_calls"][0]["function"] == {
        "name": "weather",
        "arguments": '{"city": "Oslo"}',
    }
    assert sent[3] == {"role": "tool", "tool_call_id": "call_9", "content": '{"temp": 3}'}


@pytest.mark.anyio
async def test_anthropic_tool_use_input_json_deltas(server: ScriptedServer) -> None:
    start = {
        "type": "content_block_start",
        "index": 1,
        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {}},
    }

    def part(text: str) -> bytes:
        delta = {"type": "input_json_delta", "partial_json": text}
        return sse(
            {"type": "content_block_delta", "index": 1, "delta": delta}, "content_block_delta"
        )

    chunks = anthropic_text(["Let me look."], "tool_use")
    server.script(
        Reply(
            [
                *chunks[:5],
                sse(start),
                part('{"q":'),
                part(' "x"}'),
                sse({"type": "content_block_stop", "index": 1}),
                *chunks[5:],
            ]
        )
    )
    model = AnthropicModel(model="m1", base_url=server.url, api_key=KEY, timeouts=FAST)
    events = await collect(model, TOOL_REQUEST)
    assert TextDelta("Let me look.") in events
    assert ToolCall("toolu_1", "search", {"q": "x"}) in events
    assert isinstance(events[-1], Finish)
    assert events[-1].reason == "tool-calls"
    body = server.received[0].body
    assert body["system"] == "s"
    assert body["max_tokens"] == 1024
    assert body["messages"][1]["content"][0] == {
        "type": "tool_use",
        "id": "call_9",
        "name": "weather",
        "input": {"city": "Oslo"},
    }
    assert body["messages"][2] == {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "call_9", "content": '{"temp": 3}'}],
    }


@pytest.mark.anyio
async def test_gemini_function_call_parts(server: ScriptedServer) -> None:
    call = {"functionCall": {"name": "search", "args": {"q": "x"}}}
    chunk = {
        "candidates": [{"content": {"role": "model", "parts": [call]}, "finishReason": "STOP"}]
    }
    server.script(Reply([sse(chunk)]))
    model = GeminiModel(model="m1", base_url=server.url, api_key=KEY, timeouts=FAST)
    events = await collect(model, TOOL_REQUEST)
    assert events[0] == ToolCall("call_1", "search", {"q": "x"})
    assert isinstance(events[-1], Finish)
    assert events[-1].reason == "tool-calls"
    body = server.received[0].body
    assert body["systemInstruction"] == {"parts": [{"text": "s"}]}
    assert body["contents"][1] == {
        "role": "model",
        "parts": [{"functionCall": {"name": "weather", "args": {"city": "Oslo"}}}],
    }
    response = body["contents"][2]["parts"][0]["functionResponse"]
    assert response == {"name": "weather", "response": {"content": '{"temp": 3}'}}


@pytest.mark.anyio
async def test_gemini_safety_block_is_content_filter(server: ScriptedServer) -> None:
    server.script(Reply(gemini_text(["x"], "SAFETY")))
    model = GeminiModel(model="m1", base_url=server.url, api_key=KEY, timeouts=FAST)
    events = await collect(model)
    assert isinstance(events[-1], Finish)
    assert events[-1].reason == "content-filter"
