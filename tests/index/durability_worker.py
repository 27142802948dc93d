"""A separate process for the durability test: builds a corpus variant (and may be killed
at any moment), or checks what a fresh reader sees.

    python -m tests.index.durability_worker build DATA_DIR VARIANT   # waits for "go" on stdin
    python -m tests.index.durability_worker check DATA_DIR           # prints one JSON line
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from askdocs.index import IndexStore, QueryFilter, build_index
from askdocs.index.edge import EdgeBackend
from askdocs.index.payload import chunk_from_payload
from askdocs.search.lexical import document_vector, query_vector
from askdocs.types import Chunk
from tests.index.helpers import corpus

SITE = "docs"


def variants() -> dict[str, list[Chunk]]:
    """A: the base corpus; B: two sections edited and a page removed; C: every text changed
    (a full re-embed, so kills also land inside embedding batches)."""
    base = corpus(SITE, pages=8, sections=3)
    edited = [
        replace(c, text=c.text + " Edited.") if i in (1, 7) else c for i, c in enumerate(base)
    ]
    return {
        "A": base,
        "B": [c for c in edited if c.slug != base[-1].slug],
        "C": [replace(c, text=f"Rewritten section {i}: {c.text}") for i, c in enumerate(base)],
    }


def fingerprint(chunks: list[Chunk]) -> list[list[str]]:
    return sorted([c.id, c.text] for c in chunks)


def build(data_dir: Path, variant: str) -> None:
    from askdocs.embeddings.registry import create_embedder
    from askdocs.settings import EmbeddingSettings

    embedder = create_embedder(EmbeddingSettings())
    assert embedder is not None
    embedder.embed_documents(["warm up"])
    print("ready", flush=True)
    if sys.stdin.readline().strip() != "go":
        return
    store = IndexStore(EdgeBackend(data_dir / "index"))
    steps = lambda: print("batch", flush=True)  # noqa: E731
    result = build_index(
        store, embedder, SITE, variants()[variant], sparse=document_vector,
        between_batches=steps, batch_size=8,
    )  # fmt: skip
    store.close()
    print("done", json.dumps({"collection": result.collection, "embedded": result.embedded}))


def check(data_dir: Path) -> dict[str, object]:
    """What a fresh process serves: which variant, and whether it is whole."""
    store = IndexStore(EdgeBackend(data_dir / "index"), read_only=True)
    try:
        info = store.latest()
        if info is None:
            return {"variant": None}
        points = list(store.backend.scroll(info.name, vectors=True))
        chunks = [chunk_from_payload(p.payload) for p in points]
        known = {name: fingerprint(v) for name, v in variants().items()}
        variant = next((name for name, fp in known.items() if fp == fingerprint(chunks)), "?")
        probe = next(p for p in points if p.dense is not None)
        dense = store.query(info, dense=probe.dense, sparse=None, filter=QueryFilter(), limit=1)
        keyword = store.query(
            info, dense=None, sparse=query_vector("websocket receive_json"),
            filter=QueryFilter(site=SITE), limit=3,
        )  # fmt: skip
        return {
            "variant": variant,
            "collection": info.name,
            "manifest_points": info.points,
            "counted": store.backend.count(info.name),
            "dense_points": store.backend.count(info.name, dense_only=True),
            "scrolled": len(points),
            "self_match": bool(np.isclose(dense.best_dense or 0.0, 1.0, atol=1e-4)),
            "keyword_hits": len(keyword.hits),
        }
    finally:
        store.close()


if __name__ == "__main__":
    command, folder = sys.argv[1], Path(sys.argv[2])
    if command == "build":
        build(folder, sys.argv[3])
    else:
        print(json.dumps(check(folder)))
