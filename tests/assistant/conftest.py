"""Assistant fixtures: a database of each backend, a docs site, scripted model servers, and
an in-process app whose chat model is the real client pointed at a scripted server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from askdocs.admin.api import AdminApi
from askdocs.app import App
from askdocs.assistant.runtime import AssistantRuntime
from askdocs.auth.jwt import mint
from askdocs.db import Database
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import Settings, load_settings
from askdocs.users.service import UserService
from askdocs.users.types import User
from tests.assistant.scripted import ModelServer, model_server
from tests.db.fixtures import migrated_database_url, postgres_server

__all__ = ["database_url", "db", "migrated_database_url", "postgres_server"]


@pytest.fixture
def database_url(migrated_database_url: str) -> str:
    return migrated_database_url


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database.from_url(database_url)
    try:
        yield database
    finally:
        database.close()


DOCS = {
    "user-guide/install.md": (
        "---\ntitle: Installing askdocs\n---\n# Installing askdocs\n\n"
        "## Install with pip\n\nRun `pip install askdocs` and then `askdocs serve`. "
        "The server listens on port 8000 by default.\n\n"
        "## Configuration file\n\nPass `--config askdocs.toml` to read settings from TOML.\n"
    ),
    "user-guide/search.md": (
        "---\ntitle: Searching\n---\n# Searching\n\n## Hybrid search\n\n"
        "askdocs fuses BM25 keyword search with dense vectors using reciprocal rank fusion.\n"
    ),
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def docs_root(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    for name, text in DOCS.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def models() -> Iterator[ModelServer]:
    with model_server() as server:
        yield server


def make_settings(data_dir: Path, docs_root: Path, **overrides: object) -> Settings:
    site = {"id": "docs", "name": "Docs", "roots": [{"path": str(docs_root / "user-guide")}]}
    values: dict[str, object] = {"data_dir": data_dir, "sites": [site]}
    values.update(overrides)
    return load_settings(**values)


@dataclass
class Harness:
    settings: Settings
    runtime: AssistantRuntime
    client: httpx.AsyncClient
    models: ModelServer
    app: App

    @property
    def admin(self) -> AdminApi:
        return self.app.stored().admin

    def user(self, email: str, *, admin: bool = False) -> tuple[User, dict[str, str]]:
        user = UserService(self.runtime.db).create_user(email, email, platform_admin=admin)
        token = mint(self.settings, user.id, keys=self.app.keys)
        return user, {"Authorization": f"Bearer {token}"}

    async def wait_idle(self, thread_id: str) -> None:
        await self.runtime.turns.wait_idle(thread_id)


@asynccontextmanager
async def open_harness(
    data_dir: Path,
    database_url: str,
    docs_root: Path,
    models: ModelServer,
    engine: Callable[[Settings], AskDocs] | None = None,
    **overrides: object,
) -> AsyncIterator[Harness]:
    """An in-process app on ``database_url`` whose chat model talks to ``models`` (and, with
    ``engine``, the engine it makes from the settings, which the caller closes)."""
    chat = {"provider": "openai-compatible", "model": "scripted", "base_url": models.url}
    values: dict[str, object] = {
        "database_url": database_url,
        "chat": chat,
        "embedding": {"provider": "none"},
    }
    values.update(overrides)
    settings = make_settings(data_dir, docs_root, **values)
    built = App(settings, engine=engine(settings) if engine else None)
    runtime = (await built.stored_parts()).assistant
    transport = httpx.ASGITransport(app=create_app(app=built))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://askdocs.test") as client:
            yield Harness(settings, runtime, client, models, built)
    finally:
        await built.aclose()


@pytest.fixture
async def harness(
    tmp_path: Path, database_url: str, docs_root: Path, models: ModelServer
) -> AsyncIterator[Harness]:
    async with open_harness(tmp_path / "data", database_url, docs_root, models) as opened:
        yield opened
