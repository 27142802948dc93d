"""Defect 3 of the hardening battery: a symbolic link, a FIFO or a file over 1 MiB in a
docs root leaves every good page served; the bad ones are listed (``askdocs corpus``,
``/readyz``) and logged once per file per corpus revision, not once per request."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from askdocs.cli import cli
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from tests.reader.conftest import Tree
from tests.reader.fixtures import fixture_settings

pytestmark = pytest.mark.anyio
BAD = {"guide/linked.md", "guide/pipe.md", "guide/huge.md"}


def add_bad_files(docs: Path) -> None:
    (docs / "guide" / "linked.md").symlink_to(docs / "guide" / "install.md")
    os.mkfifo(docs / "guide" / "pipe.md")
    (docs / "guide" / "huge.md").write_text("# Huge\n\n" + "word " * 220_000)


def _slugs(catalog: dict[str, object]) -> set[str]:
    categories = catalog["categories"]
    assert isinstance(categories, list)
    return {a["slug"] for c in categories for a in c["articles"]}


async def test_bad_files_leave_every_good_page_served(
    tree: Tree, caplog: pytest.LogCaptureFixture
) -> None:
    add_bad_files(tree.docs)
    settings = fixture_settings(tree.base)
    app = create_app(settings, AskDocs(settings))
    transport = httpx.ASGITransport(app=app)
    with caplog.at_level(logging.WARNING, logger="askdocs"):
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            catalogs = [await http.get("/api/docs/catalog", params={"locale": "en"}) for _ in "ab"]
            article = await http.get("/api/docs/articles/guide/install", params={"locale": "en"})
    assert [r.status_code for r in catalogs] == [200, 200]
    assert article.status_code == 200
    slugs = _slugs(catalogs[0].json())
    assert "guide/install" in slugs
    assert not {s.removesuffix(".md") for s in BAD} & slugs
    skipped = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    assert len(skipped) == len(BAD)  # once per file, not once per request


async def test_readyz_lists_the_bad_files(tree: Tree) -> None:
    add_bad_files(tree.docs)
    settings = fixture_settings(tree.base).model_copy(update={"embedding": _keyword_only()})
    service = AskDocs(settings)
    service.ensure_indexed()
    app = create_app(settings, service)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        response = await http.get("/readyz")
    service.close()
    assert response.status_code == 200
    (site,) = response.json()["sites"]
    assert {entry["path"] for entry in site["bad_files"]} == BAD


def test_askdocs_corpus_lists_the_bad_files(tree: Tree) -> None:
    add_bad_files(tree.docs)
    result = CliRunner().invoke(
        cli, ["--data-dir", str(tree.base / "data"), "corpus", str(tree.docs), "--json"]
    )
    assert result.exit_code in (0, 1), result.output
    listed = json.loads(result.output)["errors"]
    assert {entry["path"] for entry in listed} >= BAD


def _keyword_only() -> object:
    from askdocs.settings import EmbeddingSettings

    return EmbeddingSettings(provider="none")
