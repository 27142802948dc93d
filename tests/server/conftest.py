"""Apps over real parts: the real AskDocs over a small docs folder, real limit stores,
scripted model and siteverify servers on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import RootConfig, Settings, SiteConfig
from tests.guard.redis_server import RedisProcess, running_redis
from tests.llm.scripted import ScriptedServer, scripted_server

HOST = "docs.acme.test"
QUIET_HOST = "quiet.acme.test"
DEFAULT_ADDRESS = "https://acme.askdocs.test"

PAGES = {
    "install.md": """---
title: Installing Acme
---

# Installing Acme

## Install with pip

Run `pip install acme` in a virtual environment. Acme needs Python 3.11 or newer.

## Install from source

Clone the repository and run `pip install -e .` in its root folder.
""",
    "sites.md": """---
title: Documentation sites
---

# Documentation sites

## Add a second documentation site

Add another `[[sites]]` table to the config file with its own id, roots and hostnames.
Each site gets its own collection and its own Ask AI limits.
""",
}


@dataclass
class Rig:
    """What a test drives: the app's settings plus the scripted servers around it."""

    settings: Settings
    model: ScriptedServer
    siteverify: ScriptedServer

    def app(self, **changes: Any) -> FastAPI:
        settings = self.settings.model_copy(update=changes) if changes else self.settings
        return create_app(settings, AskDocs(settings))


def write_docs(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in PAGES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def site_configs(docs: Path) -> list[SiteConfig]:
    return [
        SiteConfig(
            id="acme",
            name="Acme",
            roots=[RootConfig(path=docs)],
            hostnames=[HOST],
            default_address=DEFAULT_ADDRESS,
        ),
        SiteConfig(
            id="quiet", roots=[RootConfig(path=docs)], hostnames=[QUIET_HOST], ask_enabled=False
        ),
    ]


def indexed_service(tmp: Path) -> AskDocs:
    """A real service over the fixture docs, indexed (close it when done)."""
    settings = Settings(data_dir=tmp / "data", sites=site_configs(write_docs(tmp / "docs")))
    service = AskDocs(settings)
    service.ensure_indexed()
    return service


def rig_settings(
    tmp_path: Path, model: ScriptedServer, siteverify: ScriptedServer, **extra: Any
) -> Settings:
    values: dict[str, Any] = {
        "data_dir": tmp_path / "data",
        "sites": site_configs(write_docs(tmp_path / "docs")),
        "server": {"index_in_background": False},
        "chat": {
            "provider": "openai-compatible",
            "model": "scripted",
            "base_url": model.url + "/v1",
            "idle_timeout_seconds": 2,
        },
        "bot_check": {
            "provider": "turnstile",
            "secret": "siteverify-secret",
            "site_key": "0x4AAA-site-key",
            "verify_url": siteverify.url + "/siteverify",
            "timeout_seconds": 0.5,
        },
        # A generous store timeout: a healthy store on a loaded CI machine must never look
        # down. The fail-closed tests set the production default (0.5 s) themselves.
        "ask": {"burst_per_minute": 3, "daily_visitor_limit": 2, "limits_timeout_seconds": 3},
    }
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(values.get(key), dict):
            values[key] = {**values[key], **value}
        else:
            values[key] = value
    return Settings.model_validate(values)


@pytest.fixture
def model_server() -> Iterator[ScriptedServer]:
    with scripted_server() as server:
        yield server


@pytest.fixture
def siteverify_server() -> Iterator[ScriptedServer]:
    with scripted_server() as server:
        yield server


@pytest.fixture
def rig(tmp_path: Path, model_server: ScriptedServer, siteverify_server: ScriptedServer) -> Rig:
    settings = rig_settings(tmp_path, model_server, siteverify_server)
    return Rig(settings, model_server, siteverify_server)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisProcess]:
    with running_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisProcess]:
    with running_redis(tmp_path / "redis") as server:
        yield server


def client(app: FastAPI, host: str = HOST) -> httpx.AsyncClient:
    """An in-process client (no lifespan: no background indexing)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=f"http://{host}")
