"""Two installs, two replicas each, on one Qdrant server (qdrant-client's local mode: its
Python implementation of the server API; no Qdrant binary is installable here): names and
aliases are scoped per install, so the installs keep their indexes through alternating
builds; the replicas of one install share the install id and the build lock through their
database, so exactly one builds at a time and the other picks the new collection up."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from askdocs.db import Database
from askdocs.index import IndexStore, QueryFilter, build_index, model_spec
from askdocs.index.server import QdrantBackend
from askdocs.replicas.locks import IndexCoordination
from askdocs.search.lexical import document_vector, query_vector
from askdocs.settings import DatabaseSettings, load_settings
from askdocs.types import Chunk
from tests.index.helpers import HashingEmbedder, chunk

LOADED = DatabaseSettings(timeout_seconds=10)  # a loaded CI machine: tests/conftest.py


EMBEDDER = HashingEmbedder()
MODEL = model_spec(EMBEDDER)


@dataclass
class Replica:
    install: str
    store: IndexStore


def docs(install: str, round_: int) -> list[Chunk]:
    """Each install's own words (``alpha``/``omega``), edited every round."""
    word = {"x": "alpha", "y": "omega"}[install]
    return [
        chunk("docs", f"page-{n}", f"Section {n}", f"{word} guide {n} edition {round_}")
        for n in range(4)
    ]


@pytest.fixture
def servers(
    tmp_path: Path, postgres_server: object
) -> Iterator[tuple[QdrantClient, dict[str, str]]]:
    from tests.db.postgres import PostgresServer

    assert isinstance(postgres_server, PostgresServer)
    names = {i: postgres_server.create_database(postgres_server.migrated_template()) for i in "xy"}
    client = QdrantClient(path=str(tmp_path / "qdrant"))
    try:
        yield client, {i: postgres_server.url(name) for i, name in names.items()}
    finally:
        client.close()
        for name in names.values():
            postgres_server.drop_database(name)


@pytest.fixture
def replicas(
    tmp_path: Path, servers: tuple[QdrantClient, dict[str, str]]
) -> Iterator[list[Replica]]:
    client, urls = servers
    opened: list[tuple[Replica, Database]] = []
    for install, number in (("x", 1), ("x", 2), ("y", 1), ("y", 2)):
        settings = load_settings(
            data_dir=tmp_path / f"{install}{number}", database_url=urls[install]
        )
        db = Database.from_url(urls[install], LOADED)
        coordination = IndexCoordination(settings, lambda db=db: db)  # type: ignore[misc]
        backend = QdrantBackend(client, settings.data_dir / "index", coordination=coordination)
        opened.append((Replica(install, IndexStore(backend)), db))
    yield [replica for replica, _ in opened]
    for _, db in opened:
        db.close()


def words_found(replica: Replica, word: str) -> set[str]:
    info = replica.store.current(MODEL)
    assert info is not None, f"install {replica.install} lost its index"
    result = replica.store.query(
        info,
        dense=EMBEDDER.embed_query(word)[0],
        sparse=query_vector(word),
        filter=QueryFilter(site="docs"),
        limit=10,
    )
    return {hit.chunk.text.split()[0] for hit in result.hits}


@pytest.mark.postgres
def test_two_installs_and_two_replicas_keep_their_indexes_through_ten_alternating_builds(
    replicas: list[Replica], servers: tuple[QdrantClient, dict[str, str]]
) -> None:
    client, _ = servers
    x1, x2, y1, y2 = replicas
    assert x1.store.backend.install == x2.store.backend.install  # type: ignore[attr-defined]
    assert x1.store.backend.install != y1.store.backend.install  # type: ignore[attr-defined]
    order = [x1, y1, x2, y2, x1, y2, x2, y1, x1, y1]
    built: set[str] = set()
    for round_, builder in enumerate(order):
        result = build_index(
            builder.store, EMBEDDER, "docs", docs(builder.install, round_), sparse=document_vector
        )
        assert not result.unchanged
        built.add(builder.install)
        for replica in (r for r in replicas if r.install in built):  # each finds its own docs
            own = "alpha" if replica.install == "x" else "omega"
            assert words_found(replica, own) == {own}
            info = replica.store.current(MODEL)
            assert info is not None
            mine = x1 if replica.install == "x" else y1
            assert info.name == mine.store.current(MODEL).name  # type: ignore[union-attr]
        names = [c.name for c in client.get_collections().collections]
        assert len(names) == len(built), names  # one current collection an install, rest swept
        assert len(client.get_aliases().aliases) == len(built)


@pytest.mark.postgres
def test_exactly_one_replica_of_an_install_builds_at_a_time(replicas: list[Replica]) -> None:
    x1, x2, _, _ = replicas
    chunks = docs("x", 0)
    results = []
    embedders = [HashingEmbedder(), HashingEmbedder()]

    def build(replica: Replica, embedder: HashingEmbedder) -> None:
        results.append(build_index(replica.store, embedder, "docs", chunks, sparse=document_vector))

    threads = [
        threading.Thread(target=build, args=(r, e))
        for r, e in zip((x1, x2), embedders, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(results) == 2
    assert sorted(r.unchanged for r in results) == [False, True]  # the second found it built
    assert sorted(len(e.embedded) for e in embedders) == [0, len(chunks)]
    assert words_found(x2, "alpha") == {"alpha"}
    edited = [replace(c, text=c.text + " again") for c in chunks]
    build_index(x2.store, EMBEDDER, "docs", edited, sparse=document_vector)
    info = x1.store.current(MODEL)
    assert info is not None
    assert info.name == x2.store.current(MODEL).name  # type: ignore[union-attr]


@pytest.mark.postgres
def test_two_installs_of_the_same_docs_keep_apart(
    replicas: list[Replica], servers: tuple[QdrantClient, dict[str, str]]
) -> None:
    client, _ = servers
    x1, _, y1, y2 = replicas
    same = docs("x", 0)
    first = build_index(x1.store, EMBEDDER, "docs", same, sparse=document_vector)
    second = build_index(y1.store, EMBEDDER, "docs", same, sparse=document_vector)
    assert first.collection == second.collection  # the same content, the same logical name...
    assert len(client.get_collections().collections) == 2  # ...but each install its own
    build_index(y2.store, EMBEDDER, "docs", docs("y", 1), sparse=document_vector)
    assert words_found(x1, "alpha") == {"alpha"}
    assert words_found(y1, "omega") == {"omega"}


@pytest.mark.postgres
def test_an_older_versions_unscoped_collections_are_dropped_by_the_next_build(
    replicas: list[Replica], servers: tuple[QdrantClient, dict[str, str]]
) -> None:
    from qdrant_client import models

    client, _ = servers
    x1, _, y1, _ = replicas
    mine = x1.store.backend.install  # type: ignore[attr-defined]
    theirs = y1.store.backend.install  # type: ignore[attr-defined]
    for name, owner in (
        ("docs_test-hashing_0123abcd_0123456789ab", mine),
        ("docs_test-hashing_0123abcd_ba9876543210", theirs),
    ):
        client.create_collection(
            name,
            vectors_config={"v": models.VectorParams(size=4, distance=models.Distance.COSINE)},
            metadata={"askdocs_install": owner},
        )
    build_index(x1.store, EMBEDDER, "docs", docs("x", 0), sparse=document_vector)
    names = {c.name for c in client.get_collections().collections}
    assert "docs_test-hashing_0123abcd_0123456789ab" not in names  # this install's: swept
    assert "docs_test-hashing_0123abcd_ba9876543210" in names  # another install's: kept
