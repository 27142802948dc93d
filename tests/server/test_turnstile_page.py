from __future__ import annotations

import pytest

from askdocs.settings import BotCheckSettings
from tests.server.conftest import DEFAULT_ADDRESS, Rig, client

pytestmark = pytest.mark.anyio
DEFAULT_HOST = DEFAULT_ADDRESS.removeprefix("https://")


async def test_page_for_a_custom_domain(rig: Rig) -> None:
    async with client(rig.app(), host=DEFAULT_HOST) as http:
        response = await http.get("/askdocs-turnstile", params={"origin": "https://docs.acme.test"})
    assert response.status_code == 200
    policy = response.headers["content-security-policy"]
    assert policy.endswith("frame-ancestors https://docs.acme.test")
    assert "script-src 'nonce-" in policy
    assert 'var ORIGIN = "https://docs.acme.test";' in response.text
    assert "postMessage(message, ORIGIN)" in response.text
    assert 'data-action="ask"' in response.text
    assert 'data-sitekey="0x4AAA-site-key"' in response.text
    assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example",
        "http://docs.acme.test",
        "https://docs.acme.test/path",
        "https://user@docs.acme.test",
        "https://docs.acme.test?x=1",
        "javascript:alert(1)",
        "https://docs.acme.test\r\nX-Evil: 1",
        "https://docs.acme.test:99999",
        "https://docs.acme.test' 'unsafe-inline",
        "",
    ],
)
async def test_other_origins_are_refused(rig: Rig, origin: str) -> None:
    async with client(rig.app(), host=DEFAULT_HOST) as http:
        response = await http.get("/askdocs-turnstile", params={"origin": origin})
    assert response.status_code == 400
    assert response.json()["error"]["code"] in ("invalid_origin", "invalid_request")
    assert "content-security-policy" not in response.headers


async def test_no_page_when_the_bot_check_is_off(rig: Rig) -> None:
    app = rig.app(bot_check=BotCheckSettings(provider="off"))
    async with client(app, host=DEFAULT_HOST) as http:
        response = await http.get("/askdocs-turnstile", params={"origin": "https://docs.acme.test"})
    assert (response.status_code, response.json()["error"]["code"]) == (404, "bot_check_off")
