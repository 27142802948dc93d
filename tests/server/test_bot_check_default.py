"""Defect 9 (part) of the hardening battery: with no bot check configured, Ask AI answers
only loopback clients; another machine's question is ``403 bot_check_required`` before any
limit is counted or model called (a port forward or container network must not open it)."""

from __future__ import annotations

import httpx
import pytest

from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import BotCheckSettings
from tests.server.conftest import HOST, Rig

pytestmark = pytest.mark.anyio
QUESTION = {"messages": [{"role": "user", "content": "How do I install?"}]}


async def _ask(rig: Rig, client: tuple[str, int], **bot_check: object) -> httpx.Response:
    settings = rig.settings.model_copy(update={"bot_check": BotCheckSettings(**bot_check)})
    app = create_app(settings, AskDocs(settings))
    transport = httpx.ASGITransport(app=app, client=client)
    async with httpx.AsyncClient(transport=transport, base_url=f"http://{HOST}") as http:
        return await http.post("/api/ask", json=QUESTION)


async def test_no_bot_check_refuses_a_remote_client(rig: Rig) -> None:
    response = await _ask(rig, ("203.0.113.7", 5555))
    assert (response.status_code, response.json()["error"]["code"]) == (
        403,
        "bot_check_required",
    )
    assert rig.model.received == []


async def test_no_bot_check_still_answers_loopback(rig: Rig) -> None:
    response = await _ask(rig, ("127.0.0.1", 5555))
    # past the bot check: the next refusal is the (not yet built) index's
    assert response.json()["error"]["code"] == "index_building"


async def test_explicit_opt_out_answers_a_remote_client(rig: Rig) -> None:
    response = await _ask(rig, ("203.0.113.7", 5555), allow_public_ask_without_bot_check=True)
    # past the bot check: the next refusal is the (not yet built) index's
    assert response.json()["error"]["code"] == "index_building"
