"""Hybrid retrieval against the real model and a real Qdrant Edge store on disk."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from askdocs.embeddings.protocol import Embedder, Vectors
from askdocs.error_codes import ErrorCode
from askdocs.errors import EmbeddingError, IndexBuilding, VectorStoreError
from askdocs.index import CollectionInfo, HybridParams, IndexStore
from askdocs.search.retrieval import Retriever, SearchRequest, is_keyword_query
from askdocs.service import AskDocs
from askdocs.settings import EmbeddingSettings
from askdocs.sites import folder_site
from tests.search.conftest import SITE, fixture_settings
from tests.search.fixtures import write_docs


class FailingQueries:
    """The real embedder, except that query embedding fails (a provider outage)."""

    def __init__(self, real: Embedder) -> None:
        self.real = real

    @property
    def model_id(self) -> str:
        return self.real.model_id

    @property
    def dimension(self) -> int:
        return self.real.dimension

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return self.real.embed_documents(texts)

    def embed_query(self, text: str) -> Vectors:
        raise EmbeddingError("provider timed out", code=ErrorCode.EMBEDDING_TIMEOUT)


def paths(service: AskDocs, query: str, **kwargs: object) -> list[tuple[str, str]]:
    result = service.search(query, site=SITE, **kwargs)  # type: ignore[arg-type]
    return [(hit.path, hit.heading) for hit in result.hits]


def test_hybrid_search_finds_sections_with_citations(indexed: AskDocs) -> None:
    result = indexed.search("send a welcome email without making the user wait", site=SITE)
    assert result.mode == "hybrid"
    assert result.reason is None
    assert result.coverage == 1.0
    top = result.hits[0]
    assert (top.path, top.heading) == ("background.md", "Send an email after the response")
    assert top.url.endswith("#send-an-email-after-the-response")
    assert top.text
    assert result.match
    assert result.best_dense is not None


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('Depends(scope="function")', ("dependencies.md", "Dependency scope")),
        ("receive_json", ("websockets.md", "Receive JSON")),
        ("shm-size", ("deployment/docker.md", "Shared memory")),
    ],
)
def test_exact_identifiers_rank_first(indexed: AskDocs, query: str, expected: object) -> None:
    assert paths(indexed, query)[0] == expected


def test_unrelated_question_is_not_a_match(indexed: AskDocs) -> None:
    result = indexed.search("what is the capital of australia", site=SITE)
    assert not result.match


def test_a_name_the_docs_never_mention_is_not_a_match(indexed: AskDocs) -> None:
    known = indexed.search("how do I configure CORSMiddleware credentials?", site=SITE)
    unknown = indexed.search("how do I configure Kubernetes credentials?", site=SITE)
    assert known.match
    assert not unknown.match
    assert unknown.hits  # results are still returned, only the decision changes


def test_short_followup_uses_the_previous_question(indexed: AskDocs) -> None:
    alone = paths(indexed, "and with credentials?")
    joined = paths(
        indexed, "and with credentials?", history=["my browser app cannot call the API (CORS)"]
    )
    assert joined[0][0] == "cors.md"
    assert alone != joined


def test_locale_fallback_prefers_requested_variant(indexed: AskDocs) -> None:
    result = indexed.search("CORSMiddleware povolené původy", site=SITE, locale="cs")
    cors = [h for h in result.hits if h.slug == "cors"]
    assert cors[0].locale == "cs"
    assert cors[0].translated
    others = [h for h in result.hits if h.slug != "cors"]
    assert others
    assert all(h.locale == "en" and not h.translated for h in others)
    keys = [(h.slug, h.section_id) for h in result.hits]
    assert len(keys) == len(set(keys))  # one hit per section, whatever the locales


def test_english_search_never_returns_translations(indexed: AskDocs) -> None:
    result = indexed.search("CORSMiddleware", site=SITE, locale="en")
    assert result.hits
    assert all(h.locale == "en" and h.translated for h in result.hits)


def test_audience_filter(indexed: AskDocs) -> None:
    assert indexed.search("docker", site=SITE, audience="user").hits
    assert not indexed.search("docker", site=SITE, audience="developer").hits


def test_limit_is_respected(indexed: AskDocs) -> None:
    assert len(indexed.search("call", site=SITE, limit=2).hits) == 2


def test_query_embedding_failure_degrades_to_keywords(indexed: AskDocs) -> None:
    assert indexed.embedder is not None
    service = AskDocs(indexed.settings, indexed.sites)
    service._embedder, service._embedder_ready = FailingQueries(indexed.embedder), True
    try:
        result = service.search("receive_json", site=SITE)
    finally:
        service.close()
    assert result.mode == "keyword"
    assert "embedding_timeout" in (result.reason or "")
    assert result.coverage == 1.0
    assert result.best_dense is None
    assert result.hits[0].path == "websockets.md"
    assert result.match


def test_search_before_the_first_index_raises_index_building(tmp_path: Path) -> None:
    service = AskDocs(fixture_settings(tmp_path), [folder_site(tmp_path, SITE)])
    try:
        with pytest.raises(IndexBuilding):
            service.search("anything", site=SITE)
        assert not service.status(SITE).ready
    finally:
        service.close()


def test_keyword_only_provider_and_switching_model(tmp_path: Path, docs_root: Path) -> None:
    none = EmbeddingSettings(provider="none")
    service = AskDocs(fixture_settings(tmp_path, embedding=none), [folder_site(docs_root, SITE)])
    try:
        report = service.index(SITE)
        assert report.embedded == 0
        assert report.chunks > 0
        result = service.search("shared memory for the container", site=SITE)
        assert result.mode == "keyword"
        assert result.coverage == 0.0
        assert result.reason == "no embedding provider is configured"
        assert result.hits[0].path == "deployment/docker.md"
        assert result.match
        assert not service.search("prometheus metrics exporter", site=SITE).match
        service.set_embedding(EmbeddingSettings(provider="local"))
        building = service.search("shared memory for the container", site=SITE)
        assert building.mode == "keyword"
        assert "still being built" in (building.reason or "")
        service.ensure_indexed()
        assert service.search("shared memory for the container", site=SITE).mode == "hybrid"
    finally:
        service.close()


def test_vector_store_failure_raises(tmp_path: Path, docs_root: Path) -> None:
    none = EmbeddingSettings(provider="none")
    service = AskDocs(fixture_settings(tmp_path, embedding=none), [folder_site(docs_root, SITE)])
    try:
        name = service.index(SITE).collection
        service.store.backend.close()
        shard = tmp_path / "index" / "collections" / name / "shard"
        shutil.rmtree(shard)
        shard.write_text("not a shard")  # the store on disk is broken under the service
        with pytest.raises(VectorStoreError):
            service.search("docker", site=SITE)
    finally:
        service.close()


def test_keyword_query_detection() -> None:
    assert is_keyword_query("GZipMiddleware minimum_size")
    assert is_keyword_query("--root-path /api/v1")
    assert is_keyword_query('Depends(scope="function")')
    assert not is_keyword_query("how do I send an email after the response is returned")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("receive_json", (2, 0.2, 1.0)),
        ("how do I read a message with receive_json in my endpoint", (6, 0.4, 1.0)),
        ("how do I send an email after the response is returned", (5, 1.0, 0.25)),
    ],
    ids=["keyword", "mixed", "natural"],
)
def test_each_query_kind_is_fused_with_its_own_weights(
    indexed: AskDocs,
    monkeypatch: pytest.MonkeyPatch,
    query: str,
    expected: tuple[int, float, float],
) -> None:
    """The store is asked with the kind's (k, dense weight, lexical weight), defaults as
    documented in docs/search.md; the search still finds its section."""
    seen: list[HybridParams] = []
    real = IndexStore.query

    def recording(self: IndexStore, *args: object, **kwargs: object) -> object:
        params = kwargs["params"]
        assert isinstance(params, HybridParams)
        seen.append(params)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(IndexStore, "query", recording)
    retriever = Retriever(indexed.store, indexed.embedder, indexed.settings.search)
    result = retriever.search(SearchRequest(query=query, site=SITE))
    assert [(p.rrf_k, p.dense_weight, p.lexical_weight) for p in seen] == [expected]
    assert result.mode == "hybrid"
    assert result.hits


def test_a_collection_swept_under_a_search_is_read_again_from_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search planned on collection A while two builds swap in B, then C (whose build
    sweeps A): the engine refuses A, the search reads the collection now current instead of
    answering 503 vector_store_unavailable."""
    docs = write_docs(tmp_path / "docs")
    none = EmbeddingSettings(provider="none")
    service = AskDocs(
        fixture_settings(tmp_path / "data", embedding=none), [folder_site(docs, SITE)]
    )
    try:
        first = service.index(SITE).collection
        real = IndexStore.query
        asked: list[str] = []

        def racing(self: IndexStore, collection: CollectionInfo, **kwargs: object) -> object:
            asked.append(collection.name)
            if len(asked) == 1:  # two builds land while this search runs
                for n in (1, 2):
                    (docs / f"new-{n}.md").write_text(f"# New {n}\n\nDocker page {n}.\n")
                    service.index(SITE)
            return real(self, collection, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(IndexStore, "query", racing)
        result = service.search("docker", site=SITE)
        assert asked[0] == first
        assert asked[-1] != first  # searched again, on the collection current now
        assert result.hits
    finally:
        service.close()
