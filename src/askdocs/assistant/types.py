"""Threads and messages as the assistant and its HTTP surface see them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

MessageRole = Literal["user", "assistant", "system", "tool"]


@dataclass(frozen=True)
class MessageRecord:
    id: str
    thread_id: str
    role: str
    content: str
    sequence: int
    created_at: datetime
    metadata: dict[str, Any] | None = None


TurnState = Literal["running", "done", "failed", "interrupted"]
ReplyState = Literal["idle", "running", "interrupted"]  # how a thread's last question stands


@dataclass(frozen=True)
class TurnView:
    """A thread's latest turn as the registry (``assistant_turns``) holds it."""

    id: str
    state: str  # TurnState
    user_sequence: int
    heartbeat_at: datetime


@dataclass(frozen=True)
class ThreadSummary:
    id: str
    site_id: str | None
    title: str
    created_at: datetime
    updated_at: datetime
    archived: bool
    last_role: str | None  # role of the newest message; None for an empty thread
    turn: TurnView | None = None  # the newest turn started on the thread, if any


@dataclass(frozen=True)
class ThreadDetail:
    summary: ThreadSummary
    messages: tuple[MessageRecord, ...]


@dataclass(frozen=True)
class PageContext:
    """The page the caller has open (per-call context, untrusted)."""

    url: str | None = None
    title: str | None = None
    path: str | None = None
    section: str | None = None
