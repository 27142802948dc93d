"""While a site's sections are embedded, every surface says what search can do now.

A real ``askdocs serve`` indexes the fixture tree through a scripted OpenAI-compatible
embeddings server on 127.0.0.1 that holds the first document batch until the test lets it
go. Meanwhile the search answer carries ``indexing`` (keyword mode), ``/readyz`` detail says
``search: keyword`` with the numbers, the reader's search box says "searching by keyword
while 0 of N sections are embedded" in Chromium, and the server's log (no terminal) says the
same; on a terminal ``serve`` draws a live view. Once released: hybrid everywhere.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import shot, watched_page
from tests.embeddings.conftest import fake_vector
from tests.embeddings.scripted_server import Received, Reply, ScriptedServer
from tests.reader.fixtures import build_tree
from tests.reader.serve import serving, toml_config
from tests.support.process import clean_env, free_port, running

pytestmark = pytest.mark.browser
DIMENSION = 8
BATCH = 4
WAIT_SECONDS = 180.0
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass
class Held:
    server: ScriptedServer
    gate: threading.Event

    def embedding_config(self) -> str:
        return f"""
[embedding]
provider = "openai-compatible"
model = "held-embed"
base_url = "{self.server.url}/v1"
dimension = {DIMENSION}
batch_size = {BATCH}
"""


@pytest.fixture
def held() -> Iterator[Held]:
    """Answers like OpenAI; a batch of several texts (documents) waits for ``gate``."""
    gate = threading.Event()

    def script(request: Received) -> Reply:
        assert isinstance(request.body, dict)
        texts = request.body["input"]
        if len(texts) > 1:
            gate.wait(WAIT_SECONDS)
        data = [
            {"object": "embedding", "index": i, "embedding": fake_vector(t, DIMENSION)}
            for i, t in enumerate(texts)
        ]
        return Reply(200, {"object": "list", "data": data, "model": "held-embed"})

    server = ScriptedServer(script).start()
    yield Held(server, gate)
    gate.set()
    server.stop()


def _poll(check: object, what: str) -> object:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        found = check()  # type: ignore[operator]
        if found:
            return found
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}")


def _search(url: str) -> dict[str, object] | None:
    response = httpx.get(f"{url}/api/search", params={"q": "install"}, timeout=30)
    return response.json() if response.status_code == 200 else None


def test_every_surface_says_keyword_while_embedding_then_hybrid(
    held: Held, browser: Browser, artifacts: Path, tmp_path: Path
) -> None:
    build_tree(tmp_path)
    config = toml_config(tmp_path, index=True, extra=held.embedding_config())
    with serving(tmp_path / "data", config) as server:
        body = _poll(
            lambda: (b := _search(server.url)) and b["mode"] == "keyword" and b["indexing"] and b,
            "keyword search while embedding",
        )
        assert isinstance(body, dict)
        total = body["indexing"]["total"]
        assert body["indexing"]["embedded"] == 0
        assert total > BATCH
        ready = httpx.get(f"{server.url}/readyz", timeout=30)
        [site] = ready.json()["sites"]
        assert (ready.status_code, site["search"]) == (200, "keyword")
        assert (site["indexing"]["embedded"], site["indexing"]["total"]) == (0, total)

        with watched_page(browser, "desktop") as page:
            page.goto(server.url + "/")
            expect(page.locator("body")).to_have_attribute("data-ready", "true")
            page.fill("#search-input", "install")
            status = page.locator("#search-status")
            expect(status).to_contain_text(
                f"searching by keyword while 0 of {total} sections are embedded"
            )
            shot(page, artifacts, "search-keyword-while-embedding")

        log = server.log.read_text
        _poll(lambda: f"site fx: searching by keyword while 0 of {total}" in log(), "the log")
        held.gate.set()
        _poll(lambda: (b := _search(server.url)) and b["mode"] == "hybrid", "hybrid search")
        assert _search(server.url)["indexing"] is None  # type: ignore[index]
        _poll(lambda: "site fx: hybrid search ready" in log(), "the hybrid line in the log")
        [site] = httpx.get(f"{server.url}/readyz", timeout=30).json()["sites"]
        assert (site["search"], site["indexing"]) == ("hybrid", None)


def test_on_a_terminal_serve_draws_the_live_view(held: Held, tmp_path: Path) -> None:
    build_tree(tmp_path)
    config = toml_config(tmp_path, index=True, extra=held.embedding_config())
    port = free_port()
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(tmp_path / "data")]
    command += ["--config", str(config), "serve", "--port", str(port)]
    master, slave = pty.openpty()
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=clean_env()
    )
    os.close(slave)
    seen = ""
    try:
        seen = _read_until(master, lambda text: "searching by keyword while 0 of" in text, seen)
        assert "━" in seen  # the bar
        held.gate.set()
        final = "askdocs: site 'fx': hybrid search ready"
        seen = _read_until(master, lambda text: final in text, seen)
    finally:
        process.terminate()
        process.wait(30)
        os.close(master)
    assert "keyword search ready" in seen or "searching by keyword" in seen


def _read_until(master: int, done: object, seen: str) -> str:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                seen += ANSI.sub("", os.read(master, 65536).decode(errors="replace"))
            except OSError:
                break
        if done(seen):  # type: ignore[operator]
            return seen
    raise AssertionError(f"the terminal never showed it; it showed: {seen[-2000:]}")


ROOT = "root@example.com"
PASSWORD = "correct horse battery staple"


@dataclass
class Url:
    url: str


def _admin_install(base: Path, held: Held) -> Path:
    """A configured one-section site (embedded one text at a time: never held) and an
    organisation owned by a platform admin, set up with ``askdocs`` commands. A held batch
    waits up to ``WAIT_SECONDS``: the provider's timeout is as long, so a slow machine sees
    "searching by keyword" rather than a timed-out run."""
    (base / "fx").mkdir()
    (base / "fx" / "index.md").write_text("# Fixture\n\nOne short page.\n", encoding="utf-8")
    config = base / "askdocs.toml"
    config.write_text(
        f"""
[server]
index_in_background = true

[index]
first_run_delay_seconds = 0

[[sites]]
id = "fx"
name = "Fixture"

[[sites.roots]]
path = "{base / "fx"}"
{held.embedding_config()}
timeout_seconds = {WAIT_SECONDS:g}
""",
        encoding="utf-8",
    )
    data = base / "data"
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data), "--config", str(config)]
    for args, stdin in (
        (["users", "create", "--email", ROOT, "--platform-admin", "--password-stdin"], PASSWORD),
        (["orgs", "create", "--name", "Docs team", "--owner", ROOT], None),
    ):
        done = subprocess.run(
            [*command, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0, done.stderr
    return config


def _pages(folder: Path) -> None:
    for n in range(6):
        steps = (f"## Step {n}.{s}\n\nDo step {s} of part {n} carefully." for s in range(3))
        text = "\n\n".join(steps)
        (folder / f"part-{n}.md").write_text(f"# Part {n}\n\n{text}\n", encoding="utf-8")


def test_the_admin_sites_tab_shows_the_embedding_live(
    held: Held, browser: Browser, artifacts: Path, tmp_path: Path
) -> None:
    """Issue #29: the admin Sites tab says what an organisation site's search reads while
    its sections are embedded, and updates in place (no reload) once they are."""
    from tests.browser.test_admin_browser import _create_site, _sign_in, _tab

    config = _admin_install(tmp_path, held)
    data, port = tmp_path / "data", free_port()
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data), "--config", str(config)]
    command += ["serve", "--host", "127.0.0.1", "--port", str(port)]
    log = tmp_path / "serve.log"
    with running(command, clean_env(), port, log, 90), watched_page(browser, "desktop") as page:
        install = Url(f"http://127.0.0.1:{port}")
        _sign_in(page, install)  # type: ignore[arg-type]
        _create_site(page, "guide", artifacts)
        _pages(data / "sites" / "guide")
        page.get_by_role("button", name="Re-index Handbook guide").click()
        cell = page.locator(".site-state[data-site-id=guide]")
        deadline = time.monotonic() + WAIT_SECONDS
        while "searching by keyword while 0 of" not in (cell.text_content() or ""):
            assert time.monotonic() < deadline, cell.text_content()
            page.wait_for_timeout(1000)
            _tab(page, "runs")
            _tab(page, "sites")
        shot(page, artifacts, "admin-sites-embedding")
        held.gate.set()
        # the same element, updated by the tab's own polling
        expect(cell).to_contain_text("hybrid search ready", timeout=WAIT_SECONDS * 1000)
