"""Broken docs are visible: a missing or unreadable docs root is the explicit site state
``docs_root_missing`` on ``/readyz``, in search's answer (503 ``docs_root_missing``, never
``index_building`` for ever), in ``askdocs sites`` and to the assistant's docs tool (not
``still_indexing``); a root that vanishes after indexing is reported at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from askdocs.assistant.retrieval import lookup
from askdocs.blocking import BlockingPool
from askdocs.cli import cli
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import RootConfig, Settings, SiteConfig

pytestmark = pytest.mark.anyio


def _settings(tmp_path: Path, root: Path) -> Settings:
    return Settings.model_validate(
        {
            "data_dir": tmp_path / "data",
            "sites": [SiteConfig(id="gone", roots=[RootConfig(path=root)])],
            "server": {"index_in_background": False},
            "embedding": {"provider": "none"},
        }
    )


async def _surfaces(settings: Settings, service: AskDocs) -> tuple[httpx.Response, httpx.Response]:
    transport = httpx.ASGITransport(app=create_app(settings, service))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        return await http.get("/readyz"), await http.get("/api/search", params={"q": "install"})


async def test_a_missing_root_is_its_own_state_on_readyz_and_search(tmp_path: Path) -> None:
    settings = _settings(tmp_path, tmp_path / "never-there")
    service = AskDocs(settings)
    with pytest.raises(Exception, match="does not exist"):
        service.ensure_indexed()
    ready, search = await _surfaces(settings, service)
    found = await lookup(service, BlockingPool(1), "install", site="gone", limit=3, timeout=30)
    service.close()
    assert ready.status_code == 503
    assert ready.json()["sites"][0]["state"] == "docs_root_missing"
    assert "never-there does not exist" in ready.json()["sites"][0]["error"]
    assert (search.status_code, search.json()["error"]["code"]) == (503, "docs_root_missing")
    assert found.status == "unavailable"
    assert found.reason is not None
    assert "missing" in found.reason


async def test_a_root_removed_after_indexing_is_reported_at_once(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "install.md").write_text("# Install\n\nRun pip install.\n", encoding="utf-8")
    settings = _settings(tmp_path, root)
    service = AskDocs(settings)
    service.ensure_indexed()
    assert service.status("gone").state == "ready"
    shutil.rmtree(root)
    ready, search = await _surfaces(settings, service)
    service.close()
    assert ready.json()["sites"][0]["state"] == "docs_root_missing"
    assert search.json()["error"]["code"] == "docs_root_missing"


async def test_a_file_in_place_of_the_root_is_missing_too(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.write_text("not a folder", encoding="utf-8")
    service = AskDocs(_settings(tmp_path, root))
    status = service.status("gone")
    service.close()
    assert status.state == "docs_root_missing"
    assert status.error is not None
    assert "is not a folder" in status.error


def test_askdocs_sites_names_the_state(tmp_path: Path) -> None:
    config = tmp_path / "askdocs.toml"
    config.write_text(
        f'[[sites]]\nid = "gone"\n[[sites.roots]]\npath = "{tmp_path / "missing"}"\n',
        encoding="utf-8",
    )
    runner = CliRunner()
    args = ["--data-dir", str(tmp_path / "data"), "--config", str(config), "sites"]
    text = runner.invoke(cli, args)
    data = runner.invoke(cli, [*args, "--json"])
    assert "[docs_root_missing: docs root" in text.output
    assert '"state": "docs_root_missing"' in data.output
