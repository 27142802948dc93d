"""Behind a TLS proxy (issue #26, item 1), in process: the browser's ``Origin`` is the public
https origin while askdocs itself is reached over http. ``server.public_url`` and
``server.trusted_proxies`` make sign-in, Secure cookies, HSTS, absolute links and the
visitor identity follow the public side; nothing a client writes is believed from a peer
that is not a trusted proxy. (The same through real nginx and Chromium: tests/rig.)"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import httpx
import pytest

from tests.assistant.conftest import Harness, open_harness
from tests.assistant.scripted import model_server
from tests.signin.conftest import PASSWORD, person

pytestmark = pytest.mark.anyio
PUBLIC = "https://docs.example"
FROM_TLS_PROXY = {"Host": "docs.example", "X-Forwarded-Proto": "https"}
Opened = Callable[..., AbstractAsyncContextManager[Harness]]


@pytest.fixture
def opened(tmp_path: Path, docs_root: Path) -> Opened:
    @asynccontextmanager
    async def open_with(
        ask: dict[str, object] | None = None, **server: object
    ) -> AsyncIterator[Harness]:
        with model_server() as models:
            url = f"sqlite:///{tmp_path / 'proxy.db'}"
            unguarded = {"allow_public_ask_without_bot_check": True}  # not what this tests
            overrides = {"server": server, "ask": ask or {}, "bot_check": unguarded}
            async with open_harness(tmp_path / "data", url, docs_root, models, **overrides) as h:
                yield h

    return open_with


async def sign_in_from(
    harness: Harness, headers: dict[str, str], origin: str = PUBLIC
) -> httpx.Response:
    person(harness, "ada@example.com")
    return await harness.client.post(
        "/api/v1/auth/sign-in",
        json={"email": "ada@example.com", "password": PASSWORD},
        headers={**headers, "Origin": origin},
    )


def code(response: httpx.Response) -> str:
    return str(response.json()["error"]["code"])


async def test_without_proxy_settings_sign_in_behind_a_tls_proxy_is_refused(
    opened: Opened,
) -> None:
    """The defect: the browser says https, askdocs sees http, the origins differ."""
    async with opened() as harness:
        response = await sign_in_from(harness, FROM_TLS_PROXY)
    assert (response.status_code, code(response)) == (403, "csrf_failed")


async def test_a_trusted_proxy_makes_sign_in_work_with_a_secure_cookie(opened: Opened) -> None:
    async with opened(trusted_proxies=["127.0.0.1"]) as harness:
        response = await sign_in_from(harness, FROM_TLS_PROXY)
        assert response.status_code == 200, response.text
        assert "; secure" in response.headers["set-cookie"].lower()
        csrf = response.json()["csrfToken"]
        session = response.headers["set-cookie"].split(";", 1)[0]  # a Secure cookie: the
        harness.client.cookies.clear()  # client's jar keeps it for https, the browser sends it
        write = await harness.client.post(
            "/api/v1/assistant/threads",
            json={},
            headers={**FROM_TLS_PROXY, "Origin": PUBLIC, "X-CSRF-Token": csrf, "Cookie": session},
        )
        assert write.status_code == 201, write.text
        assert "strict-transport-security" not in write.headers  # no https public_url


async def test_public_url_alone_is_enough_for_its_host(opened: Opened) -> None:
    """A proxy that passes the Host but not the scheme: public_url says it is https."""
    async with opened(public_url=PUBLIC) as harness:
        response = await sign_in_from(harness, {"Host": "docs.example"})
        assert response.status_code == 200, response.text
        assert "; secure" in response.headers["set-cookie"].lower()
        assert response.headers["strict-transport-security"] == "max-age=31536000"


@pytest.mark.parametrize("origin", ["https://evil.example", "http://docs.example", "null"])
async def test_an_origin_matching_neither_is_refused(opened: Opened, origin: str) -> None:
    async with opened(public_url=PUBLIC, trusted_proxies=["127.0.0.1"]) as harness:
        response = await sign_in_from(harness, FROM_TLS_PROXY, origin)
    assert (response.status_code, code(response)) == (403, "csrf_failed")
    assert "set-cookie" not in response.headers


async def test_an_untrusted_peer_cannot_claim_https_or_another_host(opened: Opened) -> None:
    """Trusted proxies exist, but the peer is not one of them: its headers say nothing."""
    async with opened(trusted_proxies=["10.0.0.0/8"]) as harness:
        response = await sign_in_from(harness, {**FROM_TLS_PROXY, "X-Forwarded-Host": "x.y"})
    assert (response.status_code, code(response)) == (403, "csrf_failed")


async def test_absolute_links_use_the_public_origin(opened: Opened) -> None:
    async with opened(public_url=PUBLIC, trusted_proxies=["127.0.0.1"]) as harness:
        root = person(harness, "root@example.com", admin=True)
        _, headers = harness.user("boss@example.com", admin=True)
        invited = await harness.client.post(
            "/api/v1/invitations", json={"email": "new@example.com"}, headers=headers
        )
        assert invited.json()["link"].startswith(f"{PUBLIC}/invite/"), invited.text
        assert root.email == "root@example.com"
        links = {
            host: (await harness.client.get("/llms.txt", headers={"Host": host})).text
            for host in ("docs.example", "other.example")
        }
        direct = await harness.client.get("/llms.txt", headers={"Host": "127.0.0.1:8000"})
    assert f"]({PUBLIC}/docs/" in links["docs.example"]  # public_url for its host
    assert "](http://other.example/docs/" in links["other.example"]  # as the request came
    assert "](http://127.0.0.1:8000/docs/" in direct.text


async def test_forwarded_host_and_scheme_shape_the_links(opened: Opened) -> None:
    async with opened(trusted_proxies=["127.0.0.1"]) as harness:
        headers = {"Forwarded": 'for=198.51.100.3;proto=https;host="docs.example:8443"'}
        llms = await harness.client.get("/llms.txt", headers=headers)
    assert "](https://docs.example:8443/docs/" in llms.text


async def test_visitors_are_told_apart_only_through_a_trusted_proxy(opened: Opened) -> None:
    """Rotating X-Forwarded-For from an untrusted peer stays one visitor (AU-20): with a
    burst limit of 1, the second request is refused unless a trusted proxy names another
    client. (Every request counts toward the burst, even one with an invalid body.)"""
    for trusted, second in (([], 429), (["127.0.0.1"], 400)):
        async with opened(ask={"burst_per_minute": 1}, trusted_proxies=trusted) as harness:
            statuses = [(await ask_from(harness, f"203.0.113.{n}")).status_code for n in (1, 2)]
        assert statuses == [400, second]


async def ask_from(harness: Harness, address: str) -> httpx.Response:
    headers = {"X-Forwarded-For": address, "Content-Type": "application/json"}
    return await harness.client.post("/api/ask", content=b"{}", headers=headers)
