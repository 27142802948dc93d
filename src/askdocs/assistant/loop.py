"""The model loop: stream a reply, run the tools it calls, feed their results back, repeat.

Bounded by ``max_rounds`` model calls; the last round offers no tools, so it must answer.
Visible text goes through a ``ReplyBuffer`` (the character cap); once the cap bites, the
model is not read any further.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from askdocs.assistant.events import model_events
from askdocs.assistant.limits import ReplyBuffer
from askdocs.assistant.tools import (
    JsonObject,
    ToolContext,
    ToolRegistry,
    call_tool,
    tool_message,
)
from askdocs.llm.types import (
    ChatMessage,
    ChatModel,
    ChatRequest,
    Finish,
    FinishReason,
    TextDelta,
    ToolCall,
    Usage,
)


@dataclass
class LoopResult:
    reason: FinishReason = "stop"
    usage: Usage = field(default_factory=Usage)
    tool_calls: list[str] = field(default_factory=list)
    rounds: int = 0


def _no_proposal(data: JsonObject) -> None:
    return None


@dataclass
class LoopIO:
    """Where the loop writes: visible text pieces, tool captions, and proposals for the
    person's client (never fed back to the model)."""

    text: Callable[[str], None]
    status: Callable[[str], None]
    proposal: Callable[[JsonObject], None] = _no_proposal


@dataclass
class _Round:
    text: list[str] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    finish: Finish | None = None


async def _stream_round(
    model: ChatModel, request: ChatRequest, reply: ReplyBuffer, io: LoopIO
) -> _Round:
    state = _Round()
    async with model_events(model, request) as events:
        async for event in events:
            if isinstance(event, TextDelta):
                shown = reply.add(_joined(reply, state, event.text))
                state.text.append(event.text)
                if shown:
                    io.text(shown)
                if reply.cut:
                    state.finish = Finish("length", state.finish.usage if state.finish else Usage())
                    break
            elif isinstance(event, ToolCall):
                state.calls.append(event)
            elif isinstance(event, Finish):
                state.finish = event
    return state


def _joined(reply: ReplyBuffer, state: _Round, text: str) -> str:
    """A round's first text after an earlier round's text starts on a new paragraph."""
    if state.text or not text:
        return text
    earlier = reply.text
    if not earlier or earlier[-1].isspace():
        return text
    return "\n\n" + text


def _add(a: Usage, b: Usage) -> Usage:
    return Usage(a.input_tokens + b.input_tokens, a.output_tokens + b.output_tokens)


async def run_loop(
    model: ChatModel,
    request: ChatRequest,
    tools: ToolRegistry,
    context: ToolContext,
    reply: ReplyBuffer,
    io: LoopIO,
    max_rounds: int,
) -> LoopResult:
    result = LoopResult()
    messages = list(request.messages)
    for round_number in range(1, max_rounds + 1):
        offered = request.tools if round_number < max_rounds else ()
        state = await _stream_round(
            model, replace(request, messages=tuple(messages), tools=offered), reply, io
        )
        result.rounds = round_number
        finish = state.finish or Finish("other")
        result.usage = _add(result.usage, finish.usage)
        result.reason = finish.reason
        if reply.cut or not state.calls or not offered:
            break
        messages.append(ChatMessage("assistant", "".join(state.text), tuple(state.calls)))
        for call in state.calls:
            outcome = await call_tool(tools, call, context, io.status)
            result.tool_calls.append(call.name)
            if outcome.proposal is not None:
                io.proposal(outcome.proposal)
            messages.append(ChatMessage("tool", tool_message(call.name, outcome), (), call.id))
    return result
