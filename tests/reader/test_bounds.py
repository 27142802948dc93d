"""Rendering is bounded: pathological Markdown is cut off by the worker's time budget, the
output size is capped, and a stuck render never blocks the next one (RX-01/02)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import anyio
import httpx
import pytest

from askdocs.reader.article import output_limit
from askdocs.reader.markup import MarkupJob
from askdocs.reader.pool import RenderFailed, RenderPool
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from tests.reader.conftest import Tree
from tests.reader.fixtures import fixture_settings
from tests.reader.pages import page_from, render
from tests.reader.pathological import CASES, sized
from tests.support.timing import bounded

BUDGET = 0.5
SIZE = 128 * 1024
SLOW = {"many link openers with no closers"}  # ~9 s unbounded at this size (anchors RX-01)


@pytest.fixture(scope="module")
def pool() -> Iterator[RenderPool]:
    pool = RenderPool(workers=1, timeout=BUDGET, max_output_chars=2 * 1024 * 1024)
    yield pool
    pool.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_pathological_input_is_bounded(pool: RenderPool, name: str) -> None:
    pool.render(MarkupJob("warm", ()))
    [worker] = pool.idle_worker_pids()
    outcome = _render_or_reason(pool, sized(CASES[name], SIZE))
    assert outcome in ("ok", "timeout", "too-large")
    if name in SLOW:
        assert outcome == "timeout"
    if outcome == "timeout":  # cut at the budget: its worker was killed, not left running
        assert not _running(worker)
    healthy = pool.render(MarkupJob("# Fine\n\nStill **works**.", ("fine",)))
    assert "<strong>works</strong>" in healthy.html


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _render_or_reason(pool: RenderPool, text: str) -> str:
    try:
        markup = pool.render(MarkupJob(text, ()))
    except RenderFailed as exc:
        return (
            "timeout"
            if "longer than" in str(exc)
            else "too-large"
            if "large" in str(exc)
            else str(exc)
        )
    return "ok" if markup.weight <= 2 * 1024 * 1024 else "unbounded"


def test_output_amplification_is_capped() -> None:
    text = "# T\n\n[a]: <" + "u" * 900 + ">\n\n" + "[x][a] " * 2000
    with pytest.raises(RenderFailed, match="too large"):
        render(page_from(text))
    assert output_limit("x" * 10, 2 * 1024 * 1024, 10) == 64 * 1024
    assert output_limit("x" * 1024 * 1024, 2 * 1024 * 1024, 10) == 2 * 1024 * 1024


def test_worker_side_output_cap() -> None:
    pool = RenderPool(workers=1, timeout=5, max_output_chars=1000)
    try:
        with pytest.raises(RenderFailed, match="too large"):
            pool.render(MarkupJob("word " * 1000, ()))
        assert pool.render(MarkupJob("small", ())).html == "<p>small</p>\n"
    finally:
        pool.close()


@pytest.mark.anyio
async def test_pathological_article_is_503_and_others_still_render(tree: Tree) -> None:
    (tree.docs / "slow.md").write_text("# Slow\n\n" + "[ a_" * 5000 + "\n")  # ~3 s unbounded
    settings = fixture_settings(tree.base, reader={"render_timeout_seconds": 0.2})
    app = create_app(settings, AskDocs(settings))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        await http.get("/api/docs/catalog", params={"locale": "en"})  # warm the corpus cache
        slow = await http.get("/api/docs/articles/slow", params={"locale": "en"})  # cut at 0.2 s
        again = await http.get("/api/docs/articles/slow", params={"locale": "en"})
        fine = await http.get("/api/docs/articles/guide/install", params={"locale": "en"})
    app.state.askdocs.reader.close()
    assert slow.status_code == 503
    assert slow.json()["error"]["code"] == "docs-unavailable"
    assert again.status_code == 503
    assert fine.status_code == 200


def test_toc_of_a_page_with_40k_headings_is_capped() -> None:
    from askdocs.corpus.markdown import parse_markdown
    from askdocs.reader.article import TOC_MAX_ENTRIES, TOC_MAX_TEXT, toc_of
    from askdocs.types import Page

    text = "# Title\n\n" + "".join(f"## {'h' * 300} {n}\n\n" for n in range(40_000))
    headings = tuple(parse_markdown(text).headings)
    page = Page.__new__(Page)
    object.__setattr__(page, "headings", headings)
    object.__setattr__(page, "meta", {})
    toc = toc_of(page, title_omitted=True)
    assert len(toc) == TOC_MAX_ENTRIES
    assert max(len(entry.text) for entry in toc) <= TOC_MAX_TEXT


@pytest.mark.anyio
async def test_a_pathological_page_cannot_stall_the_first_catalog_read(tree: Tree) -> None:
    """Defect 4: the page's parse is cut at ``corpus.parse_timeout_seconds`` in a worker;
    the catalog lists every good page, and ``/healthz`` answers while the read runs."""
    from tests.corpus.test_parse_budget import slow_page

    (tree.docs / "slow.md").write_text(slow_page())  # 24 s to parse unbounded
    settings = fixture_settings(tree.base, corpus={"parse_timeout_seconds": 0.5})
    app = create_app(settings, AskDocs(settings))
    transport = httpx.ASGITransport(app=app)
    answered: list[str] = []
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:

        async def get(path: str, name: str) -> httpx.Response:
            response = await http.get(path, params={"locale": "en"})
            answered.append(name)
            return response

        async with anyio.create_task_group() as group:
            catalogs: list[httpx.Response] = []

            async def catalog() -> None:
                with anyio.fail_after(bounded(0.5)):
                    catalogs.append(await get("/api/docs/catalog", "catalog"))

            group.start_soon(catalog)
            for _ in range(3):
                group.start_soon(get, "/healthz", "health")
    app.state.askdocs.reader.close()
    assert answered.index("catalog") == 3  # every /healthz answered while the read ran
    (response,) = catalogs
    assert response.status_code == 200
    slugs = {a["slug"] for c in response.json()["categories"] for a in c["articles"]}
    assert "guide/install" in slugs
    assert "slow" not in slugs
