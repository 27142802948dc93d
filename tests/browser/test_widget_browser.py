"""The embeddable widget on a plain HTML page served from another port, under a strict
CSP of its own (no 'unsafe-inline'): one <script> tag adds the launcher; the panel frame
asks /api/ask and shows sources, then the streamed answer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import VIEWPORTS, Site, watched_page
from tests.llm.scripted import Reply, openai_text
from tests.support.http_server import serving

pytestmark = pytest.mark.browser
LAUNCHER = "Ask the docs"


@dataclass
class HostPage:
    url: str


def host_html(askdocs: str) -> bytes:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme product</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Acme product docs</h1><p>A page that is not served by askdocs.</p>
<script src="{askdocs}/widget.js" data-site="fx" data-launcher-text="{LAUNCHER}" async></script>
</body></html>""".encode()


@pytest.fixture(scope="module")
def host_page(site: Site) -> Iterator[HostPage]:
    with serving_host_page(site.url) as page:
        yield page


@contextmanager
def serving_host_page(askdocs: str) -> Iterator[HostPage]:
    """A plain page on its own port embedding the widget of ``askdocs``, with a strict CSP."""
    body = host_html(askdocs)
    policy = (
        f"default-src 'self'; script-src 'self' {askdocs}; frame-src {askdocs}; "
        "style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'"
    )

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Security-Policy", policy)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return

    with serving(Handler) as server:
        yield HostPage(f"http://127.0.0.1:{server.server_address[1]}/")


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with watched_page(browser, request.param) as page:
        yield page


def test_widget_asks_from_another_origin(
    page: Page, site: Site, host_page: HostPage, artifacts: Path
) -> None:
    site.model.script(Reply(openai_text(["Use ", "`pip install fixture`."])))
    page.goto(host_page.url)
    launcher = page.get_by_role("button", name=LAUNCHER)
    expect(launcher).to_be_visible()
    launcher.click()
    frame = page.frame_locator(f"iframe[title='{LAUNCHER}']")
    question = frame.locator("#ask-input")
    expect(question).to_be_focused()
    question.fill("How do I install fixture with pip?")
    question.press("Enter")
    expect(frame.locator(".ask-sources li a").filter(has_text="Install with pip")).to_have_count(1)
    expect(frame.locator(".answer-text")).to_have_text("Use pip install fixture.")
    link = frame.locator(".ask-sources li a").first
    expect(link).to_have_attribute("target", "_blank")
    box = page.locator(f"iframe[title='{LAUNCHER}']").bounding_box()
    assert box is not None
    viewport = VIEWPORTS[page.viewport_name]  # type: ignore[attr-defined]
    if page.viewport_name == "phone":  # type: ignore[attr-defined]
        assert box["width"] == viewport["width"]
        assert 0.8 * viewport["height"] < box["height"] + 1 < 0.9 * viewport["height"]
    else:
        assert box["width"] == 560
        assert box["x"] + box["width"] == viewport["width"]
    page.screenshot(
        path=str(artifacts / f"{page.viewport_name}-widget.png"),  # type: ignore[attr-defined]
        animations="disabled",
    )
    frame.locator("#ask-close").click()
    expect(page.locator(f"iframe[title='{LAUNCHER}']")).to_be_hidden()
    expect(launcher).to_be_focused()
