"""Real Chromium (Debian's package) driven by Playwright against real ``askdocs serve``
processes over a small fixture docs tree, with a scripted chat model on 127.0.0.1."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from tests.llm.scripted import ScriptedServer, scripted_server
from tests.reader.fixtures import build_tree
from tests.reader.serve import Served, serving, toml_config

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "browser"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
READY_TIMEOUT = 120.0
# How long Playwright's expectations and actions wait for the page to get there. Its default
# (5 s) is a wall-clock bound: on a loaded 2-core machine the first catalog read of a fresh
# server (parse worker start-up included) took 11 s, and the reader was still "Loading…" when
# the expectation gave up. A longer wait changes no verdict, only how long a failure takes.
EXPECT_TIMEOUT_MS = 30_000
expect.set_options(timeout=EXPECT_TIMEOUT_MS)

pytestmark = pytest.mark.browser


@dataclass
class Site:
    server: Served
    model: ScriptedServer
    base: Path

    @property
    def url(self) -> str:
        return self.server.url


def wait_ready(url: str) -> None:
    """Poll until every site has a complete index (GET /readyz is 200): the server process
    offers no readiness event to await."""
    deadline = time.monotonic() + READY_TIMEOUT
    with httpx.Client(timeout=5) as http:
        while time.monotonic() < deadline:
            if http.get(f"{url}/readyz").status_code == 200:
                return
            time.sleep(0.25)
    raise RuntimeError("the fixture site was not indexed in time")


def chat_config(model: ScriptedServer) -> str:
    return f"""
[chat]
provider = "openai-compatible"
model = "scripted"
base_url = "{model.url}/v1"
idle_timeout_seconds = 20
"""


# Module scope, not session: while sync Playwright runs, its event loop counts as running in
# this thread, so async tests of later modules (anyio's runner) would refuse to start.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is not installed: run scripts/install-test-deps")
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    base = tmp_path_factory.mktemp("browser-site")
    build_tree(base)
    with scripted_server() as model:
        config = toml_config(base, index=True, extra=chat_config(model))
        with serving(base / "data", config) as server:
            wait_ready(server.url)
            yield Site(server, model, base)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@contextmanager
def watched_page(browser: Browser, viewport: str, init_script: str | None = None) -> Iterator[Page]:
    """A page in a fresh context; any console error or warning, or page error, fails the test."""
    context = browser.new_context(viewport=VIEWPORTS[viewport])  # type: ignore[arg-type]
    page = context.new_page()
    if init_script:
        page.add_init_script(init_script)
    problems: list[str] = []
    page.on("console", lambda message: _console(message, problems))
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.viewport_name = viewport  # type: ignore[attr-defined]
    yield page
    context.close()
    assert problems == []


def _console(message: ConsoleMessage, problems: list[str]) -> None:
    if message.type in ("error", "warning"):
        problems.append(f"{message.type}: {message.text}")


def shot(page: Page, artifacts: Path, name: str) -> None:
    path = artifacts / f"{page.viewport_name}-{name}.png"  # type: ignore[attr-defined]
    page.screenshot(path=str(path), animations="disabled")
