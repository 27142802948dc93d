"""A fresh server's first catalog read waits for no worker process start: ``App.start``
starts the reader's parse and render workers in the background, and the first catalog
read (a long page for the parse worker, pages with images rendered for the revision)
uses those two, starting none. Before, it started both on the spot: 11-25 s at load 12-16
on 2 cores for the first ``GET /api/docs/catalog`` of a fresh ``askdocs serve``."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from askdocs.app import App
from askdocs.corpus.parse_pool import IN_PROCESS_MAX_CHARS
from askdocs.reader.control import DocsReader
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from tests.reader.fixtures import build_tree, fixture_settings

LONG = "# Long guide\n\n" + "".join(f"## Part {i}\n\nAbout part {i}.\n\n" for i in range(400))


def _wait_until_ready(reader: DocsReader) -> tuple[list[int], list[int]]:
    deadline = time.monotonic() + 60  # waits for the starts; not a timing assert
    while not (reader.parser.idle_worker_pids() and reader.renderer.idle_worker_pids()):
        assert time.monotonic() < deadline, "the reader's workers did not start"
        time.sleep(0.05)
    return reader.parser.idle_worker_pids(), reader.renderer.idle_worker_pids()


@pytest.mark.anyio
async def test_the_first_catalog_read_uses_the_workers_started_at_start(tmp_path: Path) -> None:
    docs = build_tree(tmp_path)
    assert len(LONG) > IN_PROCESS_MAX_CHARS
    (docs / "guide" / "long.md").write_text(LONG, encoding="utf-8")
    settings = fixture_settings(tmp_path, embedding={"provider": "none"})
    app = App(settings, engine=AskDocs(settings))
    await app.start()
    try:
        reader = app.reader
        # before any request, both workers are on their way
        assert (reader.parser.workers_started, reader.renderer.workers_started) == (1, 1)
        ready = _wait_until_ready(reader)
        transport = httpx.ASGITransport(app=create_app(app=app))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            response = await http.get("/api/docs/catalog", params={"site": "fx", "locale": "en"})
        assert response.status_code == 200, response.text
        slugs = [a["slug"] for c in response.json()["categories"] for a in c["articles"]]
        assert "guide/long" in slugs  # parsed in the worker
        # the read went through the started workers and started no process of its own
        assert (reader.parser.workers_started, reader.renderer.workers_started) == (1, 1)
        assert (reader.parser.idle_worker_pids(), reader.renderer.idle_worker_pids()) == ready
    finally:
        await app.aclose()  # closes the reader and its workers


def test_without_start_the_first_catalog_read_starts_both_workers(tmp_path: Path) -> None:
    """The contrast (and why ``start`` starts them): a reader nobody started starts its
    workers on the first catalog read of such a tree."""
    docs = build_tree(tmp_path)
    (docs / "guide" / "long.md").write_text(LONG, encoding="utf-8")
    settings = fixture_settings(tmp_path, embedding={"provider": "none"})
    reader = DocsReader(settings)
    try:
        assert (reader.parser.workers_started, reader.renderer.workers_started) == (0, 0)
        reader.catalog(settings.sites[0], "en")
        assert (reader.parser.workers_started, reader.renderer.workers_started) == (1, 1)
    finally:
        reader.close()
