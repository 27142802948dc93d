"""The reader's fixtures: a docs tree in a tmp folder and the real app over it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from askdocs.server.app import create_app
from askdocs.service import AskDocs
from tests.reader.fixtures import build_tree, fixture_settings


@dataclass
class Tree:
    base: Path
    docs: Path


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path, build_tree(tmp_path))


@pytest.fixture
def app(tree: Tree) -> FastAPI:
    settings = fixture_settings(tree.base)
    return create_app(settings, AskDocs(settings))


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        yield http
    app.state.askdocs.reader.close()
