"""The web UI routes: pages with a strict CSP, an allowlist of static files, the widget."""

from __future__ import annotations

import json
import re
from html import unescape

import httpx
import pytest

from askdocs.server.routes.web import static_files

pytestmark = pytest.mark.anyio
STRICT = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; frame-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@pytest.mark.parametrize(
    "path", ["/", "/docs/guide/install", "/docs/anything/at/all", "/assistant"]
)
async def test_reader_pages_have_a_strict_csp(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["content-security-policy"] == STRICT
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "unsafe-inline" not in response.headers["content-security-policy"]


async def test_pages_have_no_inline_script_or_style(client: httpx.AsyncClient) -> None:
    for path in ("/", "/widget/frame", "/assistant"):
        html = (await client.get(path)).text
        scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.DOTALL)
        assert scripts
        assert all("src=" in attrs and not body.strip() for attrs, body in scripts)
        assert "<style" not in html
        assert " style=" not in html
        assert not re.search(r"\son[a-z]+=", html)


async def test_page_config_is_escaped_json(client: httpx.AsyncClient) -> None:
    html = (await client.get("/")).text
    content = re.search(r'<meta name="askdocs-config" content="([^"]*)">', html)
    assert content is not None
    config = json.loads(unescape(content.group(1)))
    assert config == {
        "site": "fx",
        "siteName": "Fixture",
        "locales": ["en", "cs", "sk"],
        "defaultLocale": "en",
        "botCheck": "off",
        "askEnabled": True,
    }


async def test_static_files_are_an_allowlist(client: httpx.AsyncClient) -> None:
    assert {"reader.css", "js/reader.js", "js/ask.js", "widget.js"} <= set(static_files())
    css = await client.get("/static/reader.css")
    assert css.status_code == 200
    assert css.headers["content-type"] == "text/css; charset=utf-8"
    etag = css.headers["etag"]
    again = await client.get("/static/reader.css", headers={"If-None-Match": etag})
    assert again.status_code == 304
    module = await client.get("/static/js/reader.js")
    assert module.headers["content-type"] == "text/javascript; charset=utf-8"
    for missing in ("/static/index.html", "/static/nope.js", "/static/js/", "/static/__init__.py"):
        assert (await client.get(missing)).status_code == 404


async def test_widget_script(client: httpx.AsyncClient) -> None:
    response = await client.get("/widget.js")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/javascript; charset=utf-8"
    assert response.headers["cross-origin-resource-policy"] == "cross-origin"
    assert "askdocs-widget-token" in response.text


async def test_widget_frame_may_be_framed_by_loopback_pages_only_on_loopback(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/widget/frame")
    policy = response.headers["content-security-policy"]
    assert policy.endswith("frame-ancestors 'self' http://127.0.0.1:* http://localhost:*")
    assert "x-frame-options" not in response.headers


def test_frame_ancestors_for_configured_hostnames() -> None:
    from askdocs.server.routes.web import frame_ancestors
    from askdocs.settings import RootConfig, SiteConfig

    site = SiteConfig(
        id="s",
        roots=[RootConfig(path="/tmp")],
        hostnames=["docs.acme.com", "bad host;script-src *", "localhost:8080"],
        default_address="https://acme.askdocs.example",
    )
    assert frame_ancestors(site, "acme.askdocs.example") == (
        "'self' https://docs.acme.com http://localhost:8080 https://acme.askdocs.example"
    )


async def test_unknown_site_page_is_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/", params={"site": "nope"})
    assert response.status_code == 404


async def test_the_assistant_page_config_holds_no_secret(client: httpx.AsyncClient) -> None:
    html = (await client.get("/assistant")).text
    content = re.search(r'<meta name="askdocs-config" content="([^"]*)">', html)
    assert content is not None
    assert json.loads(unescape(content.group(1))) == {"site": "fx", "maxMessageChars": 32000}
    assert "<title>Assistant — Fixture</title>" in html
    assert '<script type="module" src="/static/js/assistant-page.js"></script>' in html
    modules = {"js/assistant-page.js", "js/assistant.js", "js/assistant-api.js", "js/proposal.js"}
    assert modules | {"js/assistant-turns.js", "assistant.css"} <= set(static_files())
    assert (await client.get("/static/assistant.html")).status_code == 404


async def test_the_assistant_page_needs_no_public_site(client: httpx.AsyncClient) -> None:
    response = await client.get("/assistant", params={"site": "nosuch"})
    assert response.status_code == 200
    content = re.search(r'<meta name="askdocs-config" content="([^"]*)">', response.text)
    assert content is not None
    assert json.loads(unescape(content.group(1)))["site"] is None
    assert "<title>Assistant — askdocs</title>" in response.text


def test_the_assistant_scripts_keep_the_token_out_of_urls() -> None:
    """The token is read from and written to sessionStorage only, and sent only in the
    Authorization header; no script puts it in a URL, a cookie or localStorage."""
    scripts = {name: f.data.decode() for name, f in static_files().items() if "assistant" in name}
    joined = "\n".join(scripts.values())
    assert "sessionStorage" in scripts["js/assistant-page.js"]
    assert not re.search(r"localStorage\.[a-zA-Z]", joined)
    assert not re.search(r"document\.cookie", joined)
    assert "Authorization: `Bearer ${this.token}`" in scripts["js/assistant-api.js"]
    assert not re.search(r"[?&](access_)?token=", joined)
