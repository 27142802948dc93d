"""The start-up warm-up searches each indexed site once, so the first real search finds the
model run and the collection open (issue #20: the first search after /readyz took 0.4 s)."""

from __future__ import annotations

from askdocs.index import model_spec
from askdocs.index.edge import EdgeBackend
from askdocs.service import AskDocs
from tests.search.conftest import fixture_settings


def test_warm_up_opens_each_indexed_sites_collection(indexed: AskDocs) -> None:
    service = AskDocs(fixture_settings(indexed.settings.data_dir), indexed.sites)
    backend = service.store.backend
    assert isinstance(backend, EdgeBackend)
    assert not backend._handles  # nothing open before
    service.warm_up()
    assert not service.warming_up
    assert service.embedder is not None
    current = service.store.current(model_spec(service.embedder))
    assert current is not None
    assert current.name in backend._handles
    service.close()
