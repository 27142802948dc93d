"""The custom-domain bot check in real Chromium: the widget frames /askdocs-turnstile from
askdocs with the embedding page's origin, the real page posts the token back, the widget
hands it to its panel and /api/ask verifies it against a scripted siteverify server. Only
Cloudflare's api.js is replaced (by a Playwright route): nothing leaves 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Route, expect

from tests.browser.conftest import VIEWPORTS, chat_config, wait_ready
from tests.browser.test_widget_browser import LAUNCHER, serving_host_page
from tests.llm.scripted import Reply, ScriptedServer, openai_text, scripted_server
from tests.reader.fixtures import build_tree
from tests.reader.serve import Served, serving, toml_config

pytestmark = pytest.mark.browser
TOKEN = "stub-turnstile-token-1"
TURNSTILE_STUB = f'window.askdocsToken && window.askdocsToken("{TOKEN}");'


@dataclass
class Guarded:
    server: Served
    model: ScriptedServer
    siteverify: ScriptedServer


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guarded]:
    base = tmp_path_factory.mktemp("guarded-site")
    build_tree(base)
    with scripted_server() as model, scripted_server() as siteverify:
        extra = (
            chat_config(model)
            + f"""
[bot_check]
provider = "turnstile"
secret = "test-secret"
site_key = "0x4AAAAAAA-test"
verify_url = "{siteverify.url}/siteverify"
"""
        )
        config = toml_config(base, index=True, extra=extra, site_extra='hostnames = ["127.0.0.1"]')
        with serving(base / "data", config) as server:
            wait_ready(server.url)
            yield Guarded(server, model, siteverify)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    context.route("https://challenges.cloudflare.com/**", _turnstile_stub)
    yield context
    context.close()


def _turnstile_stub(route: Route) -> None:
    route.fulfill(status=200, content_type="text/javascript", body=TURNSTILE_STUB)


def _script_pass(guarded: Guarded) -> None:
    verdict = {"success": True, "action": "ask", "hostname": "127.0.0.1"}
    guarded.siteverify.script(Reply([json.dumps(verdict).encode()], 200, "application/json"))
    guarded.model.script(Reply(openai_text(["Checked ", "and answered."])))


def test_widget_relays_the_turnstile_token(
    guarded: Guarded, context: BrowserContext, artifacts: Path
) -> None:
    _script_pass(guarded)
    page = context.new_page()
    with serving_host_page(guarded.server.url) as host:
        page.goto(host.url)
        page.get_by_role("button", name=LAUNCHER).click()
        frame = page.frame_locator(f"iframe[title='{LAUNCHER}']")
        frame.locator("#ask-input").fill("How do I install fixture with pip?")
        frame.locator("#ask-input").press("Enter")
        expect(frame.locator(".answer-text")).to_have_text("Checked and answered.")
        expect(frame.locator(".ask-sources summary")).to_contain_text("Installing")
        page.screenshot(path=str(artifacts / "desktop-widget-botcheck.png"))
    (received,) = guarded.siteverify.received
    assert f"response={TOKEN}" in str(received.body)
    assert "secret=test-secret" in str(received.body)


def test_reader_uses_the_same_origin_bot_check(guarded: Guarded, context: BrowserContext) -> None:
    _script_pass(guarded)
    page = context.new_page()
    page.goto(guarded.server.url + "/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.click("#ask-open")
    page.fill("#ask-input", "How do I install fixture with pip?")
    page.keyboard.press("Enter")
    expect(page.locator(".answer-text")).to_have_text("Checked and answered.")
    assert f"response={TOKEN}" in str(guarded.siteverify.received[-1].body)


def test_missing_token_is_refused(guarded: Guarded, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(guarded.server.url + "/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    status = page.evaluate(
        """async () => (await fetch("/api/ask", {method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({token: "", messages: [{role: "user", content: "hi"}]})
        })).status"""
    )
    assert status == 403
