"""What every admin operation needs: the database, settings, the one token service, the
secret box, where site folders live, the grantable tool names, and ways to tell the engine
that sites or providers changed."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import JsonValue
from sqlalchemy.orm import Session

from askdocs.confirm.service import ConfirmationTokens
from askdocs.db import Database
from askdocs.keys import SecretBox
from askdocs.settings import Settings
from askdocs.types import PageError

R = TypeVar("R")
Payload = Mapping[str, JsonValue]  # JSON: what a confirmation token binds
# A site's state (``service.SiteState``) and the pages its last indexing run could not use
SiteReport = tuple[str, tuple[PageError, ...]]


@dataclass(frozen=True)
class Prepared(Generic[R]):
    """A change as re-derived from the database and the arguments.

    ``payload`` is what the token binds (its canonical JSON); ``summary`` and ``diff`` are
    what a person reads before agreeing; ``write`` performs the change (apply only) and
    returns what it wrote.
    """

    payload: Payload
    summary: str
    write: Callable[[Session], R]
    diff: str | None = None


@dataclass
class AdminEnv:
    db: Database
    settings: Settings
    tokens: ConfirmationTokens
    secrets: SecretBox
    sites_dir: Path
    grantable: tuple[str, ...] = ()  # every admin tool name (``admin.table``)
    reserved_site_ids: Callable[[], set[str]] = field(default=lambda: set())
    sites_changed: Callable[[], None] = field(default=lambda: None)
    providers_changed: Callable[[], None] = field(default=lambda: None)
    site_report: Callable[[str], SiteReport] = field(default=lambda site_id: ("unknown", ()))
    apply_lock: threading.Lock = field(default_factory=threading.Lock)  # applies, one at a time
