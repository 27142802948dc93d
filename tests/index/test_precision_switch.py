"""``local`` runs int8 weights by default (issue #20): a data dir indexed with float32
vectors (``local-fp32``) is re-embedded under the int8 model id, never mixed."""

from __future__ import annotations

from pathlib import Path

from askdocs.embeddings.local import INT8_MODEL_ID, MODEL_ID
from askdocs.index import model_spec
from askdocs.service import AskDocs
from askdocs.settings import EmbeddingSettings, Settings
from tests.server.conftest import site_configs, write_docs


def _service(tmp_path: Path, provider: str) -> AskDocs:
    settings = Settings(
        data_dir=tmp_path / "data",
        sites=site_configs(write_docs(tmp_path / "docs"))[:1],
        embedding=EmbeddingSettings(provider=provider),  # type: ignore[arg-type]
    )
    return AskDocs(settings)


def test_switching_from_float32_to_the_int8_default_re_embeds_every_chunk(
    tmp_path: Path,
) -> None:
    old = _service(tmp_path, "local-fp32")
    first = old.index("acme")
    assert old.embedder is not None
    assert old.embedder.model_id == MODEL_ID
    old.close()
    assert first.embedded == first.chunks > 0

    new = _service(tmp_path, "local")
    second = new.index("acme")
    embedder = new.embedder
    assert embedder is not None
    assert embedder.model_id == INT8_MODEL_ID
    assert (second.embedded, second.reused) == (second.chunks, 0)  # nothing of fp32's reused
    assert second.collection != first.collection
    assert "int8" in second.collection
    current = new.store.current(model_spec(embedder))
    assert current is not None
    assert current.name == second.collection
    points = list(new.store.backend.scroll(current.name, vectors=True))
    assert len(points) == second.chunks
    assert all(p.dense is not None and len(p.dense) == 384 for p in points)
    new.close()
