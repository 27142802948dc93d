"""Real docs trees (trimmed copies in tests/data) parse cleanly; headings match the labels."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from askdocs.corpus import cache as corpus_cache
from askdocs.ingest import CorpusSnapshot, IngestCache, read_site
from askdocs.settings import CorpusSettings
from askdocs.sites import folder_site
from tests.conftest import EVAL_DIR, FASTAPI_DOCS, FRIGATE_DOCS

CACHE = IngestCache()


@pytest.fixture(scope="module")
def fastapi() -> CorpusSnapshot:
    return read_site(folder_site(FASTAPI_DOCS), CorpusSettings(), CACHE)


@pytest.fixture(scope="module")
def frigate() -> CorpusSnapshot:
    return read_site(folder_site(FRIGATE_DOCS), CorpusSettings(), CACHE)


def test_fastapi_parses_cleanly(fastapi: CorpusSnapshot) -> None:
    assert fastapi.errors == ()
    assert fastapi.warnings == ()
    assert len(fastapi.pages) == 31
    assert len({c.id for c in fastapi.chunks}) == len(fastapi.chunks) > 300
    cors = fastapi.page("tutorial/cors", "en")
    assert cors is not None
    assert cors.title == "CORS (Cross-Origin Resource Sharing)"
    headings = {c.heading: c for c in fastapi.chunks_of(cors)}
    assert headings["Use `CORSMiddleware`"].url == "/docs/tutorial/cors#use-corsmiddleware"


def test_frigate_parses_cleanly(frigate: CorpusSnapshot) -> None:
    assert frigate.errors == ()
    assert len(frigate.pages) == 12
    home = frigate.page("index", "en")  # front matter "slug: /"
    assert home is not None
    assert home.path == "frigate/index.md"
    assert all(chunk.text.strip() for chunk in frigate.chunks)


def test_warm_read_reuses_the_snapshot(
    fastapi: CorpusSnapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    real_read = corpus_cache.read_markdown

    def counted(root: object, rel: str, max_bytes: int) -> object:
        opened.append(rel)
        return real_read(root, rel, max_bytes)  # type: ignore[arg-type]

    monkeypatch.setattr(corpus_cache, "read_markdown", counted)
    again = read_site(folder_site(FASTAPI_DOCS), CorpusSettings(), CACHE)
    assert again is fastapi
    assert opened == []  # unchanged files are only stat'ed: no page read or parsed again


def test_every_eval_label_is_a_chunk_heading_when_sections_stay_apart() -> None:
    snapshot = read_site(folder_site(FASTAPI_DOCS), CorpusSettings(min_chars=0))
    headings: dict[str, set[str]] = defaultdict(set)
    for chunk in snapshot.chunks:
        headings[chunk.path].add(chunk.heading)
    labels = [
        label
        for line in (EVAL_DIR / "fastapi-docs-dev.jsonl").read_text().splitlines()
        if line.strip()
        for label in json.loads(line)["relevant"]
    ]
    assert len(labels) == 49
    missing = [label for label in labels if label["heading"] not in headings[label["path"]]]
    assert missing == []
