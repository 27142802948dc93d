"""Threads and messages as the assistant and its HTTP surface see them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

MessageRole = Literal["user", "assistant", "system", "tool"]
_HINT_DROP = re.compile(r"[\x00-\x1f\x7f-\x9f<>\[\]{}]")


def hint(value: str | None) -> str | None:
    """Untrusted text for the prompt made plain: control characters and brackets become
    spaces, whitespace collapses; empty is None. Pure."""
    if value is None:
        return None
    return " ".join(_HINT_DROP.sub(" ", value).split()) or None


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
class Membership:
    organisation: str  # the organisation's name
    role: str  # owner, admin or member


@dataclass(frozen=True)
class Identity:
    """Who is asking, read from the database for this turn by the signed-in user's id: never
    from the request body, the page context or the conversation (seed 002 "Who and where")."""

    name: str
    email: str
    platform_admin: bool
    memberships: tuple[Membership, ...] = ()


@dataclass(frozen=True)
class PageContext:
    """The page the caller has open (per-call context, untrusted)."""

    url: str | None = None
    title: str | None = None
    path: str | None = None
    section: str | None = None
    extra: str | None = None  # what the page adds (openWithPrompt's extraContext)
