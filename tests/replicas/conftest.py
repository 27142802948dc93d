"""Two replicas in one test: two ``App``s, each with its own data dir, on one database (each
backend) and one secrets key, each with its change watcher running as ``serve`` runs it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from cryptography.fernet import Fernet

from askdocs.admin.table import grantable_tools
from askdocs.db.admin_models import ToolGrantRow
from askdocs.service import AskDocs
from askdocs.settings import Settings
from askdocs.users.service import UserService
from askdocs.users.types import User
from tests.assistant.conftest import Harness, docs_root, open_harness
from tests.assistant.scripted import ModelServer, model_server
from tests.db.fixtures import migrated_database_url, postgres_server

__all__ = ["docs_root", "migrated_database_url", "postgres_server"]
POLL_SECONDS = 0.2
HEARTBEAT_SECONDS, LOST_SECONDS = 0.25, 1.5  # a dead replica's turns: interrupted after 1.5 s


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@dataclass
class Replicas:
    a: Harness
    b: Harness
    models: ModelServer

    async def kill(self, harness: Harness) -> None:
        """What kill -9 leaves of a replica's turns: no heartbeat, no ending written."""
        runtime = harness.runtime
        pulse, runtime._pulse = runtime._pulse, None
        tasks = [*runtime.turns.tasks(), *([pulse] if pulse else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def owner_with_org(self, email: str) -> tuple[User, str, dict[str, str]]:
        """A signed-up organisation owner holding every admin tool, and a bearer header."""
        users = UserService(self.a.runtime.db)
        user, header = self.a.user(email)
        org = users.create_organisation(f"Org of {email}", user.id).id
        with self.a.runtime.db.session(write=True) as session:
            for tool in grantable_tools():
                session.add(ToolGrantRow(user_id=user.id, tool_name=tool))
        return user, org, header


@asynccontextmanager
async def open_replicas(
    tmp_path: Path,
    database_url: str,
    docs_root: Path,
    engine: Callable[[Settings], AskDocs] | None = None,
    **overrides: object,
) -> AsyncIterator[Replicas]:
    """Replicas ``a`` and ``b`` on ``database_url``, their change watchers and turn pulses
    running; ``engine`` makes each one's engine (the caller closes them)."""
    shared: dict[str, object] = {
        "admin": {"secrets_key": Fernet.generate_key().decode()},
        "server": {"change_poll_seconds": POLL_SECONDS, "index_in_background": False},
        "assistant": {
            "turn_heartbeat_seconds": HEARTBEAT_SECONDS,
            "turn_lost_seconds": LOST_SECONDS,
        },
        **overrides,
    }
    with model_server() as models:
        async with AsyncExitStack() as stack:
            opened = [
                await stack.enter_async_context(
                    open_harness(tmp_path / name, database_url, docs_root, models, engine, **shared)
                )
                for name in ("a", "b")
            ]
            for harness in opened:
                harness.app.changes = await anyio.to_thread.run_sync(harness.app.watch_changes)
                harness.app.changes.start()
                harness.runtime.start_pulse()
            yield Replicas(opened[0], opened[1], models)


@pytest.fixture
async def replicas(
    tmp_path: Path, migrated_database_url: str, docs_root: Path
) -> AsyncIterator[Replicas]:
    async with open_replicas(tmp_path, migrated_database_url, docs_root) as opened:
        yield opened
