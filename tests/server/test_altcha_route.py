"""``GET /api/altcha/challenge`` in process: a signed challenge when ALTCHA is the bot check,
404 ``bot_check_off`` otherwise; and ALTCHA is what ``auto`` picks beyond loopback."""

from __future__ import annotations

import httpx
import pytest

from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import BotCheckSettings
from tests.server.conftest import HOST, Rig

pytestmark = pytest.mark.anyio


async def _challenge(rig: Rig, host: str = "127.0.0.1", **bot_check: object) -> httpx.Response:
    update = {"bot_check": BotCheckSettings(**bot_check)}
    server = rig.settings.server.model_copy(update={"host": host})
    settings = rig.settings.model_copy(update={**update, "server": server})
    app = create_app(settings, AskDocs(settings))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=f"http://{HOST}") as http:
        return await http.get("/api/altcha/challenge")


async def test_altcha_hands_out_signed_challenges(rig: Rig) -> None:
    response = await _challenge(rig, provider="altcha")
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert body["parameters"]["algorithm"] == "PBKDF2/SHA-256"
    assert body["parameters"]["data"] == {"action": "ask"}
    assert len(body["signature"]) == 64


async def test_no_challenge_without_altcha(rig: Rig) -> None:
    response = await _challenge(rig, provider="off")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "bot_check_off"


async def test_auto_is_altcha_beyond_loopback(rig: Rig) -> None:
    assert (await _challenge(rig, host="0.0.0.0")).status_code == 200
    assert (await _challenge(rig, host="127.0.0.1")).status_code == 404
