"""The self-hosted bot check in real Chromium: with ``bot_check.provider = "altcha"`` the
real ALTCHA widget (askdocs's copy of the npm package) fetches a real challenge, solves it
in its workers, and Ask AI answers, in the reader and in the embeddable widget; the same
solution sent again is refused (403 ``bot_check_failed``) before any model is called."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import chat_config, shot, wait_ready, watched_page
from tests.browser.test_widget_browser import LAUNCHER, serving_host_page
from tests.llm.scripted import Reply, ScriptedServer, openai_text, scripted_server
from tests.reader.fixtures import build_tree
from tests.reader.serve import Served, serving, toml_config

pytestmark = pytest.mark.browser
QUESTION = "How do I install fixture with pip?"


@dataclass
class Guarded:
    server: Served
    model: ScriptedServer


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guarded]:
    base = tmp_path_factory.mktemp("altcha-site")
    build_tree(base)
    with scripted_server() as model:
        extra = chat_config(model) + (
            '\n[bot_check]\nprovider = "altcha"\naltcha_cost = 100\naltcha_max_number = 400\n'
        )
        config = toml_config(base, index=True, extra=extra, site_extra='hostnames = ["127.0.0.1"]')
        with serving(base / "data", config) as server:
            wait_ready(server.url)
            yield Guarded(server, model)


def replayed(guarded: Guarded, body: str) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    return httpx.post(f"{guarded.server.url}/api/ask", content=body, headers=headers, timeout=30)


def assert_replay_refused(guarded: Guarded, body: str) -> None:
    calls = len(guarded.model.received)
    again = replayed(guarded, body)
    assert again.status_code == 403, again.text
    assert again.json()["error"]["code"] == "bot_check_failed"
    assert "already used" in again.json()["error"]["message"]
    assert len(guarded.model.received) == calls  # refused before any model call


def test_ask_ai_with_altcha_is_answered_and_a_replay_is_refused(
    guarded: Guarded, browser: Browser, artifacts: Path
) -> None:
    guarded.model.script(Reply(openai_text(["Solved ", "and answered."])))
    with watched_page(browser, "desktop") as page:
        page.goto(guarded.server.url + "/")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.click("#ask-open")
        page.fill("#ask-input", QUESTION)
        with page.expect_request(lambda r: r.url.endswith("/api/ask")) as sent:
            page.keyboard.press("Enter")
        expect(page.locator(".answer-text")).to_have_text("Solved and answered.")
        shot(page, artifacts, "altcha-answered")
        body = sent.value.post_data or ""
    token = json.loads(body)["token"]
    assert json.loads(base64.b64decode(token))["solution"]["derivedKey"]
    assert_replay_refused(guarded, body)


def test_the_embeddable_widget_solves_altcha_in_its_frame(
    guarded: Guarded, browser: Browser, artifacts: Path
) -> None:
    guarded.model.script(Reply(openai_text(["Framed ", "and answered."])))
    with watched_page(browser, "desktop") as page, serving_host_page(guarded.server.url) as host:
        page.goto(host.url)
        page.get_by_role("button", name=LAUNCHER).click()
        frame = page.frame_locator(f"iframe[title='{LAUNCHER}']")
        frame.locator("#ask-input").fill(QUESTION)
        with page.expect_request(lambda r: r.url.endswith("/api/ask")) as sent:
            frame.locator("#ask-input").press("Enter")
        expect(frame.locator(".answer-text")).to_have_text("Framed and answered.")
        shot(page, artifacts, "altcha-widget-answered")
        body = sent.value.post_data or ""
    assert_replay_refused(guarded, body)
