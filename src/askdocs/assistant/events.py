"""Open a model's event stream so that it is always closed (its HTTP response released)."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager

from askdocs.llm.types import ChatEvent, ChatModel, ChatRequest


@asynccontextmanager
async def model_events(
    model: ChatModel, request: ChatRequest
) -> AsyncIterator[AsyncIterator[ChatEvent]]:
    """``ChatModel.stream`` is typed as an iterator; close it when it is a generator."""
    events = model.stream(request)
    try:
        yield events
    finally:
        if isinstance(events, AsyncGenerator):
            await events.aclose()
