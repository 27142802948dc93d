"""One assistant turn, running on its own task: it outlives the request that started it.

The HTTP response only *reads* the frames a turn writes. When the client goes away the
response calls ``detach()``: frames are no longer queued, and the turn keeps going for at
most ``detached_turn_seconds`` before it is abandoned. The reply is persisted before
``text-end``, so a stream that dies afterwards still leaves a complete record.

Every frame also goes to the turn's log in the database, in batches every
``FLUSH_SECONDS``, so a reader on any replica can replay the stream (``follow``); when the
turn ends its last batch is written before its registry row says how it ended.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anyio

from askdocs.admin.active import ChatChoice
from askdocs.assistant import stream
from askdocs.assistant.extractive import extractive_reply
from askdocs.assistant.inject import InjectedDocs, inject_docs, source_list
from askdocs.assistant.limits import ReplyBuffer, output_ceiling
from askdocs.assistant.loop import LoopIO, LoopResult, run_loop
from askdocs.assistant.prompt import system_prompt
from askdocs.assistant.runtime import AssistantRuntime
from askdocs.assistant.titles import model_title
from askdocs.assistant.tools import ToolContext
from askdocs.assistant.types import MessageRecord, PageContext
from askdocs.errors import ModelError
from askdocs.llm.types import ChatMessage, ChatModel, ChatRequest, FinishReason, Usage

log = logging.getLogger(__name__)
MODEL_FAILED = "The assistant could not answer this time. Please ask again."
FLUSH_SECONDS = 0.25  # how often a turn's new frames are written for other readers


@dataclass(frozen=True)
class TurnRequest:
    user_id: str
    thread_id: str
    message: MessageRecord
    site_id: str | None
    page: PageContext | None
    retitle_from: str | None  # the provisional title a model-written one may replace


@dataclass
class Timings:
    started: float = field(default_factory=time.perf_counter)
    retrieval: float = 0.0
    model: float = 0.0

    def as_metadata(self) -> dict[str, int]:
        total = time.perf_counter() - self.started
        return {
            "retrievalMs": round(self.retrieval * 1000),
            "modelMs": round(self.model * 1000),
            "totalMs": round(total * 1000),
        }


class Turn:
    def __init__(
        self, runtime: AssistantRuntime, request: TurnRequest, message_id: str | None = None
    ) -> None:
        self.runtime = runtime
        self.request = request
        self.message_id = message_id or str(uuid.uuid4())  # also the turn's registry id
        self.part_id = str(uuid.uuid4())
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._attached = True
        self._deadline: asyncio.Timeout | None = None
        self.persisted: MessageRecord | None = None
        self._text_ended = False
        self._done = False
        self._proposals: list[dict[str, Any]] = []  # what was proposed, without tokens
        self.chat = ChatChoice(runtime.model, runtime.provider, "settings")
        self.finished = asyncio.Event()
        self.outcome = "failed"  # how the turn ended, for the registry: done | failed
        self._unlogged: list[bytes] = []
        self._logged = 0  # batches written
        self._log_lock = asyncio.Lock()

    # -- the reading side ---------------------------------------------------------------

    async def frames(self) -> AsyncIterator[bytes]:
        while (item := await self._queue.get()) is not None:
            yield item

    def detach(self) -> None:
        """The client is gone: stop queueing frames and start the detached-turn clock."""
        if not self._attached:
            return
        self._attached = False
        self._queue.put_nowait(None)
        self._start_detached_clock()

    def emit(self, data: bytes) -> None:
        self._unlogged.append(data)
        if self._attached:
            self._queue.put_nowait(data)

    # -- the writing side ---------------------------------------------------------------

    async def run(self) -> None:
        flusher = asyncio.create_task(self._flush_every())
        try:
            async with asyncio.timeout(None) as deadline:
                self._deadline = deadline
                if not self._attached:
                    self._start_detached_clock()
                with self.runtime.monitor.interactive():
                    await self._answer()
        except TimeoutError:
            log.warning("assistant turn on thread %s abandoned", self.request.thread_id)
        except Exception:
            log.exception("assistant turn on thread %s failed", self.request.thread_id)
            self._fail()
        finally:
            self.finished.set()
            self.emit_end()
            flusher.cancel()
        await self._end_log()  # not reached when cancelled: shutdown marks the turn

    async def _flush_every(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            await self._flush()

    async def _flush(self) -> None:
        """Write the frames emitted since the last batch (a failure is logged: the live
        stream goes on, only a reader elsewhere misses them)."""
        async with self._log_lock:
            if not self._unlogged:
                return
            batch, self._unlogged = b"".join(self._unlogged), []
            self._logged += 1
            try:
                await anyio.to_thread.run_sync(
                    self.runtime.turn_log.write_frames, self.message_id, self._logged, batch
                )
            except Exception as exc:
                log.warning("assistant turn frames not logged: %s", type(exc).__name__)

    async def _end_log(self) -> None:
        await self._flush()
        try:
            await anyio.to_thread.run_sync(self.runtime.turn_log.end, self.message_id, self.outcome)
        except Exception as exc:  # the sweep writes it down as interrupted later
            log.warning("assistant turn end not recorded: %s", type(exc).__name__)

    def _start_detached_clock(self) -> None:
        if self._deadline is not None and not self.finished.is_set():
            seconds = self.runtime.settings.assistant.detached_turn_seconds
            self._deadline.reschedule(asyncio.get_running_loop().time() + seconds)

    def emit_end(self) -> None:
        if self._attached:
            self._attached = False
            self._queue.put_nowait(None)

    async def _answer(self) -> None:
        self.emit(stream.start(self.message_id))
        self.emit(stream.text_start(self.part_id))
        timings = Timings()
        self.chat = await anyio.to_thread.run_sync(self.runtime.current_chat)
        site = self.runtime.docs_site(self.request.site_id)
        settings = self.runtime.settings.assistant
        docs = await inject_docs(
            self.runtime.service, self.runtime.pool, settings, self.request.message.content, site
        )
        timings.retrieval = time.perf_counter() - timings.started
        if docs.hits:
            self.emit(stream.sources(source_list(docs.hits)))
        reply = ReplyBuffer(settings.max_message_chars)
        model = self.chat.model
        if model is None:
            result = self._extractive(docs, reply)
        else:
            began = time.perf_counter()
            try:
                result = await self._model_loop(model, docs, reply, site)
            except ModelError as exc:
                log.warning("assistant chat model failed: %s", exc.message)
                self._fail()
                return
            timings.model = time.perf_counter() - began
        await self._complete(reply, result, docs, timings)

    def _extractive(self, docs: InjectedDocs, reply: ReplyBuffer) -> LoopResult:
        status = docs.lookup.status if docs.lookup is not None else "ok"
        self._text(reply.add(extractive_reply(docs.hits[:3], status)))
        return LoopResult(reason="stop")

    async def _model_loop(
        self, model: ChatModel, docs: InjectedDocs, reply: ReplyBuffer, site: str | None
    ) -> LoopResult:
        runtime, settings = self.runtime, self.runtime.settings.assistant
        history = await anyio.to_thread.run_sync(
            runtime.threads.replay, self.request.thread_id, settings.max_replay_messages
        )
        tools = await anyio.to_thread.run_sync(runtime.tools_for, self.request.user_id)
        identity = await anyio.to_thread.run_sync(runtime.identity, self.request.user_id)
        request = ChatRequest(
            system=system_prompt(
                tools.specs(),
                intro=settings.system_prompt,
                page=self.request.page,
                site_id=site,
                docs_block=docs.block,
                identity=identity,
            ),
            messages=replay_messages(history),
            tools=tools.specs(),
            max_output_tokens=output_ceiling(settings, self.chat.provider),
        )
        context = ToolContext(
            self.request.user_id, site, self.request.page, thread_id=self.request.thread_id
        )
        io = LoopIO(text=self._text, status=self._status, proposal=self._proposal)
        return await run_loop(model, request, tools, context, reply, io, settings.max_tool_rounds)

    def _text(self, piece: str) -> None:
        if piece and not self._text_ended:
            self.emit(stream.text_delta(self.part_id, piece))

    def _end_text(self) -> None:
        if not self._text_ended:
            self._text_ended = True
            self.emit(stream.text_end(self.part_id))

    def _finish(self, reason: FinishReason, usage: Usage, timings: dict[str, int]) -> None:
        if not self._done:
            self._done = True
            self.emit(stream.finish(reason, usage, timings))
            self.emit(stream.DONE)

    def _status(self, caption: str) -> None:
        self.emit(stream.tool_status(caption))

    def _proposal(self, data: dict[str, Any]) -> None:
        """Send a proposal to the client; the reply's metadata keeps only its outline."""
        self._proposals.append({k: data[k] for k in ("id", "operation", "summary")})
        self.emit(stream.proposal(data))

    async def _complete(
        self, reply: ReplyBuffer, result: LoopResult, docs: InjectedDocs, timings: Timings
    ) -> None:
        ceiling = output_ceiling(self.runtime.settings.assistant, self.chat.provider)
        marker = reply.close(result.reason, ceiling)
        if marker:
            self._text(marker)
        metadata = self._metadata(result, reply, docs, timings)
        self.persisted = await anyio.to_thread.run_sync(
            self.runtime.threads.append_reply,
            self.request.thread_id,
            self.request.message.sequence,
            reply.text,
            metadata,
            self.message_id,  # a reloaded thread's message id equals the streamed one
        )
        self._end_text()
        self.outcome = "done"
        await self._retitle(reply.text)
        self._finish(result.reason, result.usage, timings.as_metadata())

    def _metadata(
        self, result: LoopResult, reply: ReplyBuffer, docs: InjectedDocs, timings: Timings
    ) -> dict[str, Any]:
        return {
            "finishReason": result.reason,
            "usage": {
                "inputTokens": result.usage.input_tokens,
                "outputTokens": result.usage.output_tokens,
            },
            "model": self.chat.model.model_id if self.chat.model else None,
            "toolCalls": result.tool_calls,
            "truncated": reply.cut or result.reason == "length",
            "docsInjected": len(docs.hits),
            "timings": timings.as_metadata(),
            "proposals": self._proposals,
            "sources": source_list(docs.hits),
        }

    async def _retitle(self, reply_text: str) -> None:
        provisional, model = self.request.retitle_from, self.chat.model
        if provisional is None or model is None:
            return
        timeout = self.runtime.settings.assistant.title_timeout_seconds
        title = await model_title(model, self.request.message.content, reply_text, timeout)
        if title is None or title == provisional:
            return
        changed = await anyio.to_thread.run_sync(
            lambda: self.runtime.threads.set_title_if(
                self.request.thread_id, title, current=provisional
            )
        )
        if changed:
            self.emit(stream.thread_title(self.request.thread_id, title))

    def _fail(self) -> None:
        """A turn that could not answer: the protocol's ``error`` chunk (so ``useChat``'s
        ``onError`` fires) with a plain message, then ``finish``; nothing is persisted (the
        question stays open). The provider's error text goes to the log only."""
        self._end_text()
        if not self._done:
            self.emit(stream.error(MODEL_FAILED))
        self._finish("error", Usage(), {})


def replay_messages(history: list[MessageRecord]) -> tuple[ChatMessage, ...]:
    """Persisted turns as model messages, starting with a user turn."""
    messages = [
        ChatMessage("user" if m.role == "user" else "assistant", m.content) for m in history
    ]
    while messages and messages[0].role == "assistant":
        messages.pop(0)
    return tuple(messages)
