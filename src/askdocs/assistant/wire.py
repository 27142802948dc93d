"""The assistant's HTTP payloads (camelCase on the wire, nulls omitted in responses)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field, model_validator

from askdocs.admin.proposal_wire import ProposalOut
from askdocs.assistant.types import (
    MessageRecord,
    PageContext,
    ReplyState,
    ThreadDetail,
    ThreadSummary,
    hint,
)
from askdocs.guard.validation import CleanText, NonBlankText
from askdocs.settings import AssistantSettings
from askdocs.wire import Wire

MAX_EXTRA_CHARS = 2000  # seed 002: "caps extra at about 2 KB"
MAX_MESSAGE_CHARS = AssistantSettings().max_message_chars  # documented: the default


class PageContextIn(Wire):
    """The page being read (seed 002 "Who and where"): a hint, bounded and cleaned, shown to
    the model for this turn only and never stored."""

    url: CleanText | None = Field(default=None, max_length=2000)
    title: CleanText | None = Field(default=None, max_length=300)
    path: CleanText | None = Field(default=None, max_length=1000)
    section: CleanText | None = Field(default=None, max_length=300)
    extra: CleanText | None = Field(default=None, max_length=MAX_EXTRA_CHARS)

    def value(self) -> PageContext:
        return PageContext(
            url=hint(self.url),
            title=hint(self.title),
            path=hint(self.path),
            section=hint(self.section),
            extra=hint(self.extra),
        )


class ChatIn(Wire):
    """One turn: ``{threadId, message}``, or the AI SDK ``useChat`` default body
    ``{id, messages: [UIMessage, ...]}`` (the thread id is ``id``; the message is the last
    message's text parts, which must be a user message)."""

    thread_id: CleanText = Field(max_length=64)
    # the route refuses a blank or too long message with its own code; documented here
    message: NonBlankText = Field(json_schema_extra={"maxLength": MAX_MESSAGE_CHARS})
    site_id: CleanText | None = Field(default=None, max_length=64)
    page_context: PageContextIn | None = None

    @model_validator(mode="before")
    @classmethod
    def _use_chat_body(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "messages" not in data or "message" in data:
            return data
        out = {k: v for k, v in data.items() if k not in USE_CHAT_ONLY}
        if "threadId" not in out and "thread_id" not in out and "id" in data:
            out["threadId"] = data["id"]
        out["message"] = last_user_text(data["messages"])
        return out


MAX_UI_MESSAGES = 1000
USE_CHAT_ONLY = frozenset({"id", "messages", "trigger", "messageId"})  # useChat's own fields


def last_user_text(messages: Any) -> str:
    """The text of the last UI message, which must be the user's (``ValueError`` else)."""
    if not isinstance(messages, list) or not messages or len(messages) > MAX_UI_MESSAGES:
        raise ValueError(f"messages must be a list of 1 to {MAX_UI_MESSAGES} UI messages")
    last = messages[-1]
    if not isinstance(last, dict) or last.get("role") != "user":
        raise ValueError("the last message must be a user message")
    parts = last.get("parts")
    if not isinstance(parts, list):
        raise ValueError("the last message must have a parts list")
    texts = [p.get("text") for p in parts if isinstance(p, dict) and p.get("type") == "text"]
    if not all(isinstance(text, str) for text in texts):
        raise ValueError("a text part's text must be a string")
    return "".join(str(text) for text in texts)


class ThreadCreateIn(Wire):
    site_id: CleanText | None = Field(default=None, max_length=64)
    title: NonBlankText | None = Field(default=None, max_length=200)  # blank: 400 empty_title


class ThreadPatchIn(Wire):
    title: NonBlankText | None = Field(default=None, max_length=200)
    archived: bool | None = None


class CreatedOut(Wire):
    id: str


class MessageOut(Wire):
    id: str
    role: str
    content: str
    sequence: int
    created_at: datetime
    metadata: dict[str, Any] | None = None

    @classmethod
    def of(cls, record: MessageRecord) -> MessageOut:
        return cls.copy_of(record)


class ThreadOut(Wire):
    id: str
    site_id: str | None = None
    title: str
    created_at: datetime
    updated_at: datetime
    archived: bool
    awaiting_reply: bool = False
    reply_in_progress: bool = False
    reply_interrupted: bool = False  # the turn answering the last message lost its server

    @classmethod
    def of(cls, summary: ThreadSummary, *, state: ReplyState) -> ThreadOut:
        """``state``: ``turnlog.reply_state`` of the summary (running, interrupted, idle)."""
        return cls(
            id=summary.id,
            site_id=summary.site_id,
            title=summary.title,
            created_at=summary.created_at,
            updated_at=summary.updated_at,
            archived=summary.archived,
            awaiting_reply=summary.last_role == "user" and state != "running",
            reply_in_progress=state == "running",
            reply_interrupted=state == "interrupted",
        )


class ThreadListOut(Wire):
    threads: list[ThreadOut]


class ThreadDetailOut(ThreadOut):
    messages: list[MessageOut]
    proposals: list[ProposalOut] = Field(default_factory=list)

    @classmethod
    def of_detail(
        cls, detail: ThreadDetail, *, state: ReplyState, proposals: list[ProposalOut]
    ) -> ThreadDetailOut:
        summary = ThreadOut.of(detail.summary, state=state)
        messages = [MessageOut.of(m) for m in detail.messages]
        return cls(**summary.model_dump(), messages=messages, proposals=proposals)
