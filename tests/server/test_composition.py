"""The composition root: one ``App`` per process, parts replaced through
``app.dependency_overrides``, and a CLI-indexed site served by ``askdocs serve``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from askdocs.app import App
from askdocs.llm.registry import create_chat_model
from askdocs.server.app import create_app
from askdocs.server.deps import fixed_chat, get_chat
from askdocs.service import AskDocs
from askdocs.settings import BotCheckSettings, ChatSettings, Settings
from tests.llm.scripted import Reply, ScriptedServer, openai_text, scripted_server
from tests.server.conftest import Rig, client, site_configs, write_docs
from tests.server.process import serving
from tests.support.process import clean_env

KEYWORD_ONLY = {"ASKDOCS_EMBEDDING__PROVIDER": "none"}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AskDocs]:
    tmp = tmp_path_factory.mktemp("composition")
    settings = Settings(data_dir=tmp / "data", sites=site_configs(write_docs(tmp / "docs")))
    service = AskDocs(settings)
    service.ensure_indexed()
    yield service
    service.close()


@pytest.fixture
def other_model() -> Iterator[ScriptedServer]:
    with scripted_server() as server:
        yield server


@pytest.mark.anyio
async def test_a_chat_model_is_replaced_through_dependency_overrides(
    rig: Rig, indexed: AskDocs, other_model: ScriptedServer
) -> None:
    settings = rig.settings.model_copy(update={"bot_check": BotCheckSettings(provider="off")})
    app = create_app(settings, indexed)
    replacement = create_chat_model(
        ChatSettings(provider="openai-compatible", model="other", base_url=other_model.url + "/v1")
    )
    app.dependency_overrides[get_chat] = lambda: fixed_chat(replacement)
    other_model.script(Reply(openai_text(["From the ", "replacement."])))
    body = {"token": "", "messages": [{"role": "user", "content": "How do I install Acme?"}]}
    async with client(app) as http:
        response = await http.post("/api/ask", json=body)
    assert response.status_code == 200, response.text
    assert response.text == "From the replacement."
    assert len(other_model.received) == 1
    assert rig.model.received == []  # the app's own model was never called
    assert app.state.askdocs.chat is not replacement  # nothing global was patched


@pytest.mark.anyio
async def test_two_apps_in_one_process_share_no_state(tmp_path: Path) -> None:
    first = App(Settings(data_dir=tmp_path / "one", sites=site_configs(write_docs(tmp_path))))
    second = App(Settings(data_dir=tmp_path / "two"))
    try:
        first.catalog.set_admin_sites([(site_configs(tmp_path)[1].model_copy(
            update={"id": "org-site"}), "org")])  # fmt: skip
        assert "org-site" in first.catalog.admin_ids()
        assert second.catalog.admin_ids() == frozenset()
        assert first.engine.monitor is not second.engine.monitor
        assert first.pool is not second.pool
        assert first.stored().admin.env.tokens is first.tokens  # REST and tools: one key
        assert first.stored().assistant.tools is first.stored().assistant.tools
    finally:
        await first.aclose()
        await second.aclose()


def test_a_site_indexed_by_the_cli_is_served_by_serve(tmp_path: Path) -> None:
    docs, data = write_docs(tmp_path / "mydocs"), tmp_path / "data"
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data)]
    indexed = subprocess.run(
        [*command, "index", str(docs), "--site", "mydocs"],
        env=clean_env(KEYWORD_ONLY),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert indexed.returncode == 0, indexed.stderr.decode()
    with serving(data, KEYWORD_ONLY) as server:
        response = httpx.get(
            server.url + "/api/search", params={"site": "mydocs", "q": "install with pip"}
        )
    assert response.status_code == 200, response.text
    found = response.json()
    assert found["site"] == "mydocs"
    assert found["hits"]
    assert found["hits"][0]["title"] == "Installing Acme"
