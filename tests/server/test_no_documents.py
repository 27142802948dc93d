"""Defect 9 (part) of the hardening battery: an empty docs root is an explicit "no
documents" state: ``/readyz`` is 200 with ``empty: true`` (never stuck at 503), and search
answers ``404 no_documents`` instead of ``503 index_building`` forever."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import RootConfig, Settings, SiteConfig

pytestmark = pytest.mark.anyio


def _settings(tmp_path: Path) -> Settings:
    empty = tmp_path / "docs"
    empty.mkdir()
    return Settings.model_validate(
        {
            "data_dir": tmp_path / "data",
            "sites": [SiteConfig(id="empty", roots=[RootConfig(path=empty)])],
            "server": {"index_in_background": False},
            "embedding": {"provider": "none"},
        }
    )


async def test_empty_docs_root_is_ready_with_no_documents(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    service = AskDocs(settings)
    service.ensure_indexed()
    transport = httpx.ASGITransport(app=create_app(settings, service))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        ready = await http.get("/readyz")
        search = await http.get("/api/search", params={"q": "install"})
    service.close()
    assert ready.status_code == 200
    assert ready.json()["sites"][0]["empty"] is True
    assert (search.status_code, search.json()["error"]["code"]) == (404, "no_documents")


async def test_before_the_first_run_it_is_building_not_empty(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    service = AskDocs(settings)
    transport = httpx.ASGITransport(app=create_app(settings, service))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        ready = await http.get("/readyz")
    service.close()
    assert ready.status_code == 503
    assert ready.json()["sites"][0]["empty"] is False
