"""The match decision's cosines without fetching the fused hits' vectors."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from askdocs.embeddings.protocol import Embedder, Vectors
from askdocs.index import HybridParams, QueryFilter, model_spec
from askdocs.index.naming import point_id
from askdocs.search import lexical
from askdocs.service import AskDocs
from askdocs.settings import SearchSettings
from tests.search.conftest import SITE, fixture_settings

QUERY = "receive_json"  # a keyword query: the lexical side leads the fusion
BROAD = "cors websocket dependency"  # BM25 hits in three pages
ELSEWHERE = "chocolate cake recipe with strawberries"


class Elsewhere:
    """The real model, but every query vector points at an unrelated text, so the dense
    side's best chunk is not the lexical side's."""

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
        return self.real.embed_query(ELSEWHERE)


def _service(indexed: AskDocs, prefetch: int) -> AskDocs:
    search = SearchSettings(prefetch=prefetch, match_top_k=1).model_dump()
    service = AskDocs(fixture_settings(indexed.settings.data_dir, search=search), indexed.sites)
    assert indexed.embedder is not None
    service._embedder, service._embedder_ready = Elsewhere(indexed.embedder), True
    return service


@pytest.fixture
def narrow(indexed: AskDocs) -> Iterator[AskDocs]:
    """The dense side contributes only its single best chunk."""
    service = _service(indexed, 1)
    yield service
    service.close()


@pytest.fixture
def some(indexed: AskDocs) -> Iterator[AskDocs]:
    """The dense side contributes its three best chunks."""
    service = _service(indexed, 3)
    yield service
    service.close()


@pytest.fixture
def wide(indexed: AskDocs) -> Iterator[AskDocs]:
    service = _service(indexed, 50)
    yield service
    service.close()


def test_a_top_hit_outside_the_dense_side_gets_its_exact_cosine(
    narrow: AskDocs, wide: AskDocs
) -> None:
    embedder = narrow.embedder
    assert embedder is not None
    info = narrow.store.current(model_spec(embedder))
    assert info is not None
    raw = narrow.store.query(
        info, dense=embedder.embed_query(QUERY)[0], sparse=lexical.query_vector(QUERY),
        filter=QueryFilter(site=SITE), limit=10,
        params=HybridParams(prefetch=1, dense_weight=0.2, lexical_weight=1.0, rrf_k=2),
    )  # fmt: skip
    assert raw.hits[0].dense_score is None  # the engine gave the top hit no cosine
    exact, cheap = wide.search(QUERY, site=SITE), narrow.search(QUERY, site=SITE)
    assert cheap.hits[0].heading == exact.hits[0].heading == "Receive JSON"
    assert cheap.best_dense is not None
    assert cheap.best_dense == pytest.approx(exact.best_dense, abs=1e-5)
    assert cheap.match == exact.match


def test_every_shown_hit_has_its_sections_best_cosine_over_the_candidates(
    some: AskDocs,
) -> None:
    """The same per-hit cosines (the per-section floor's input) as if every candidate's
    stored vector had been read, with the dense side scoring only three chunks."""
    embedder = some.embedder
    assert embedder is not None
    info = some.store.current(model_spec(embedder))
    assert info is not None
    s = some.settings.search
    query = embedder.embed_query(BROAD)[0]
    candidates = some.store.query(
        info, dense=query, sparse=lexical.query_vector(BROAD),
        filter=QueryFilter(site=SITE, locales=("en",)), limit=10 * s.candidates_factor,
        params=HybridParams(prefetch=3, dense_weight=s.keyword_dense_weight,
                            lexical_weight=s.keyword_lexical_weight, rrf_k=s.keyword_rrf_k),
    )  # fmt: skip
    assert sum(hit.dense_score is None for hit in candidates.hits) >= 2  # the engine left these
    ids = [point_id(hit.chunk.site, hit.chunk.id) for hit in candidates.hits]
    vectors = some.store.backend.dense_vectors(info.name, ids)
    unit = query / np.linalg.norm(query)
    best: dict[tuple[str, str, str], float] = {}
    for hit, id_ in zip(candidates.hits, ids, strict=True):
        key = (hit.chunk.site, hit.chunk.slug, hit.chunk.section_id)
        best[key] = max(best.get(key, -2.0), float(vectors[id_] @ unit))
    result = some.search(BROAD, site=SITE)
    assert len(result.hits) >= 4
    for hit in result.hits:
        assert hit.cosine == pytest.approx(best[(hit.site, hit.slug, hit.section_id)], abs=1e-5)
