"""Several processes on one on-disk store: readers never wait for the indexer, two
processes read the same collection at once, and a superseded collection goes away once
its last reader has moved on."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from askdocs.index import IndexStore, build_index
from askdocs.index.edge import EdgeBackend
from askdocs.search.lexical import document_vector
from tests.conftest import REPO
from tests.index.helpers import HashingEmbedder, corpus


class Reader:
    def __init__(self, data_dir: Path, embedder: HashingEmbedder) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.index.reader_worker", str(data_dir),
             embedder.model_id, str(embedder.dimension)],
            cwd=REPO, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout

    def ask(self) -> dict[str, object]:
        self.stdin.write("q\n")
        self.stdin.flush()
        return dict(json.loads(self.stdout.readline()))

    def stop(self) -> None:
        self.stdin.close()
        assert self.proc.wait(timeout=30) == 0


@pytest.fixture
def readers(data_dir: Path) -> Iterator[list[Reader]]:
    started = [Reader(data_dir, HashingEmbedder()) for _ in range(2)]
    yield started
    for reader in started:
        if reader.proc.poll() is None:
            reader.proc.kill()
            reader.proc.wait()


def test_readers_in_other_processes_never_wait_and_switch_cleanly(
    data_dir: Path, readers: list[Reader]
) -> None:
    embedder = HashingEmbedder()
    store = IndexStore(EdgeBackend(data_dir / "index"))
    old = build_index(store, embedder, "docs", corpus(), sparse=document_vector).collection
    first = [reader.ask() for reader in readers]  # both processes open the same collection
    assert all(a["collection"] == old and a["counted"] == a["points"] == 18 for a in first)
    during: list[dict[str, object]] = []

    def ask_readers() -> None:  # the builder holds the build lock right now
        during.extend(reader.ask() for reader in readers)

    edited = [replace(c, text=c.text + " again") for c in corpus()]
    new = build_index(
        store, embedder, "docs", edited, sparse=document_vector,
        batch_size=6, between_batches=ask_readers,
    ).collection  # fmt: skip
    assert len(during) == 6
    assert all(a["collection"] == old and a["hits"] for a in during)
    assert old in store.backend.collections()  # still open in the readers: not dropped
    after = [reader.ask() for reader in readers]
    assert all(a["collection"] == new and a["counted"] == 18 for a in after)
    for reader in readers:
        reader.stop()
    assert store.backend.collections() == [new]  # the last reader to move on removed it
    store.close()
