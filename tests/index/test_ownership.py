"""Defect 5 of the hardening battery: builds only ever drop collections this install
owns. A foreign ``docs_other`` collection (and a foreign collection whose name looks like
askdocs's own) survives every build, on qdrant-client's local mode (the Qdrant-server
backend) and on the Qdrant Edge path."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from qdrant_client import QdrantClient, models

from askdocs.index import IndexStore, build_index
from askdocs.index.edge import EdgeBackend
from askdocs.index.server import QdrantBackend
from askdocs.search.lexical import document_vector
from tests.index.helpers import HashingEmbedder, corpus

LOOKALIKE = "docs_other-model_0123abcd_0123456789ab"
FOREIGN = ("docs_other", LOOKALIKE)


def _three_builds(store: IndexStore) -> None:
    embedder = HashingEmbedder()
    chunks = corpus()
    for text in ("", " v2", " v3"):
        edited = [replace(c, text=c.text + text) for c in chunks]
        build_index(store, embedder, "docs", edited, sparse=document_vector)


def test_foreign_collections_survive_builds_on_qdrant_client_local(tmp_path: Path) -> None:
    client = QdrantClient(path=str(tmp_path / "qdrant"))
    vectors = {"v": models.VectorParams(size=4, distance=models.Distance.COSINE)}
    for name in FOREIGN:
        client.create_collection(name, vectors_config=vectors)
    client.update_collection_aliases(
        [
            models.CreateAliasOperation(
                create_alias=models.CreateAlias(
                    collection_name=LOOKALIKE, alias_name="docs_other-model_0123abcd_current"
                )
            )
        ]
    )
    store = IndexStore(QdrantBackend(client, tmp_path / "index"))
    try:
        _three_builds(store)
        names = {c.name for c in client.get_collections().collections}
        aliases = {a.alias_name for a in client.get_aliases().aliases}
    finally:
        store.close()
    assert set(FOREIGN) <= names
    assert "docs_other-model_0123abcd_current" in aliases
    assert len(names - set(FOREIGN)) == 1  # this install's current collection only


def test_another_install_on_the_same_server_keeps_its_collections(tmp_path: Path) -> None:
    client = QdrantClient(path=str(tmp_path / "qdrant"))
    first = IndexStore(QdrantBackend(client, tmp_path / "one"))
    build_index(first, HashingEmbedder(), "docs", corpus("docs", 2, 2), sparse=document_vector)
    theirs = {c.name for c in client.get_collections().collections}
    second = IndexStore(QdrantBackend(client, tmp_path / "two"))
    try:
        assert second.backend.collections() == []
        assert second.sweep() == []
    finally:
        client.close()
    assert theirs <= {
        c.name for c in QdrantClient(path=str(tmp_path / "qdrant")).get_collections().collections
    }


def test_foreign_folders_survive_builds_on_qdrant_edge(tmp_path: Path) -> None:
    root = tmp_path / "index"
    store = IndexStore(EdgeBackend(root))
    for name in ("docs_other", "backup"):
        (root / "collections" / name / "shard").mkdir(parents=True)
        (root / "collections" / name / "shard" / "data.bin").write_bytes(b"theirs")
    try:
        _three_builds(store)
    finally:
        store.close()
    for name in ("docs_other", "backup"):
        assert (root / "collections" / name / "shard" / "data.bin").read_bytes() == b"theirs"


def test_install_id_is_created_once(tmp_path: Path) -> None:
    from askdocs.index.ownership import install_id

    first = install_id(tmp_path)
    assert install_id(tmp_path) == first
    assert first.startswith(tmp_path.name)


@pytest.mark.parametrize("name", ["docs_other", "docs_a_b_c", "foo"])
def test_names_askdocs_never_gives_are_not_its_own(name: str) -> None:
    from askdocs.index.ownership import is_askdocs_name

    assert not is_askdocs_name(name)
