"""What every admin operation needs: the database, settings, the one token service, the
secret box, where site folders live, and a way to tell the engine the sites changed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from askdocs.confirm.service import ConfirmationTokens
from askdocs.db import Database
from askdocs.keys import SecretBox
from askdocs.settings import Settings

JsonObject = dict[str, Any]


@dataclass(frozen=True)
class Prepared:
    """A change as re-derived from the database and the arguments.

    ``payload`` is what the token binds (its canonical JSON); ``summary`` and ``diff`` are
    what a person reads before agreeing; ``write`` performs the change (apply only).
    """

    payload: JsonObject
    summary: str
    write: Callable[[Session], JsonObject]
    diff: str | None = None


@dataclass
class AdminEnv:
    db: Database
    settings: Settings
    tokens: ConfirmationTokens
    secrets: SecretBox
    sites_dir: Path
    reserved_site_ids: Callable[[], set[str]] = field(default=lambda: set())
    sites_changed: Callable[[], None] = field(default=lambda: None)
    providers_changed: Callable[[], None] = field(default=lambda: None)
    apply_lock: threading.Lock = field(default_factory=threading.Lock)  # applies, one at a time


# One Propose/Apply pair: reads the database and its typed arguments (its own model from
# ``admin.models``), never writes.
Prepare = Callable[["AdminEnv", Session, str | None, str, Any], Prepared]
# The same over the arguments as given (JSON, absent fields left out).
PrepareGiven = Callable[["AdminEnv", Session, str | None, str, JsonObject], Prepared]
