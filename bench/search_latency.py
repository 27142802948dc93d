"""Hybrid search latency at 1k, 10k and 100k chunks, query embedding included; memory.

usage: python bench/search_latency.py [--sizes 1000 10000 100000] [--queries 200]
                                      [--data-root DIR] [--provider local] [--query-cache]
                                      [--vectors-from DATA_DIR SITE]
                                      [--compare-src OLD_SRC --reps 3] [--json]

How the corpus is scaled: the real fastapi-docs chunks are indexed once with the real local
model (or their vectors are read from ``--vectors-from``, a data dir that indexed fastapi-
docs with the same model). Each synthetic chunk is a copy of a real one (``i mod n_real``)
with a replica number in its slug and about 10% of its words replaced by other words of the
corpus vocabulary, so BM25 statistics stay realistic; its vector is the real chunk's vector
plus Gaussian noise scaled to a cosine of about 0.9 with the original, re-normalised, so
dense neighbourhoods stay realistic. Collections are built with the real index builder (BM25
vectors, Qdrant Edge shard, manifest, pointer); only the document vectors come from the
table above instead of the model.

Searching runs in a fresh child process per size that opens the store and the real local
model and calls ``AskDocs.search`` (query embedding, fused hybrid query, dedupe, match
decision) for the dev-set questions in a loop; it reports p50 and p99 wall time and the
median CPU time per search, and its own memory from ``/proc/self/status``: ``VmHWM`` (the
searcher's peak) and ``VmRSS`` (steady, after serving). ``ru_maxrss`` is not used: a child
inherits the parent's peak across ``exec``, which made the 100k figure the builder's.

The query cache is off (``embedding.query_cache_size = 0``) unless ``--query-cache``: the
loop repeats the 40 questions, and every search must pay for its query embedding.
``--data-root`` keeps the synthetic collections between runs (built once per size).
``--compare-src`` then runs the searching child (``bench/search_child.py``) ``--reps`` times
over an older source tree (before) and this checkout (after), alternating, on the same
collections, and prints the medians with after/before ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from askdocs.embeddings.protocol import Embedder, Vectors
from askdocs.embeddings.registry import create_embedder
from askdocs.index import build_index, model_spec, open_store
from askdocs.index.naming import point_id
from askdocs.ingest import read_site
from askdocs.search import lexical
from askdocs.settings import load_settings
from askdocs.sites import folder_site
from askdocs.types import Chunk
from shared_data import require, shared

REPO = Path(__file__).resolve().parents[1]
DOCS = shared("corpora", "fastapi-docs")
QUESTIONS = shared("eval", "fastapi-docs-dev.jsonl")
SITE = "synth"
CHILD = Path(__file__).resolve().parent / "search_child.py"


class TableEmbedder:
    """Document vectors from a precomputed table; queries through the real model."""

    def __init__(self, real: Embedder, table: dict[str, np.ndarray]) -> None:
        self.real, self.table = real, table

    @property
    def model_id(self) -> str:
        return self.real.model_id

    @property
    def dimension(self) -> int:
        return self.real.dimension

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return np.stack([self.table[text] for text in texts]).astype(np.float32)

    def embed_query(self, text: str) -> Vectors:
        return self.real.embed_query(text)


def real_chunks(
    embedder: Embedder, reuse: tuple[Path, str] | None
) -> tuple[list[Chunk], np.ndarray]:
    """The real chunks and their vectors: read from ``reuse`` (a data dir that indexed the
    same docs with the same model, and its site id) where it has them, else embedded."""
    settings = load_settings(data_dir=Path(tempfile.mkdtemp()))
    chunks = list(read_site(folder_site(DOCS, SITE), settings.corpus).chunks)
    known = stored_vectors(reuse, chunks, embedder) if reuse else {}
    missing = [c for c in chunks if c.id not in known]
    for i in range(0, len(missing), 64):
        part = missing[i : i + 64]
        known |= dict(
            zip(
                (c.id for c in part),
                embedder.embed_documents([c.embed_text for c in part]),
                strict=True,
            )
        )
    print(f"vectors: {len(chunks) - len(missing)} reused, {len(missing)} embedded", file=sys.stderr)
    return chunks, np.stack([known[c.id] for c in chunks])


def stored_vectors(
    reuse: tuple[Path, str], chunks: list[Chunk], embedder: Embedder
) -> dict[str, np.ndarray]:
    data_dir, site = reuse
    store = open_store(load_settings(data_dir=data_dir), read_only=True)
    try:
        info = store.current(model_spec(embedder))
        if info is None:
            return {}
        ids = {point_id(site, c.id): c.id for c in chunks}
        found = store.backend.dense_vectors(info.name, list(ids))
    finally:
        store.close()
    return {ids[pid]: vector for pid, vector in found.items()}


def synthesise(
    chunks: list[Chunk], vectors: np.ndarray, size: int, rng: random.Random
) -> tuple[list[Chunk], dict[str, np.ndarray]]:
    vocabulary = sorted({w for c in chunks for w in c.text.split() if w.isalpha()})
    noise = np.random.default_rng(rng.randrange(2**32))
    scale = 0.5 / np.sqrt(vectors.shape[1])  # cosine with the original about 0.9
    out: list[Chunk] = []
    table: dict[str, np.ndarray] = {}
    for i in range(size):
        base, replica = chunks[i % len(chunks)], i // len(chunks)
        words = [rng.choice(vocabulary) if rng.random() < 0.1 else w for w in base.text.split()]
        chunk = replace(base, slug=f"{base.slug}-r{replica}", text=" ".join(words))
        vector = vectors[i % len(chunks)] + noise.normal(0, scale, vectors.shape[1])
        out.append(chunk)
        table[chunk.embed_text] = vector / np.linalg.norm(vector)
    return out, table


def build(data_dir: Path, chunks: list[Chunk], embedder: Embedder) -> float:
    store = open_store(load_settings(data_dir=data_dir))
    started = time.perf_counter()
    build_index(
        store,
        embedder,
        SITE,
        chunks,
        sparse=lexical.sparse_encoder(),
        lexical_version=lexical.lexical_version(),
        batch_size=512,
    )
    store.close()
    return time.perf_counter() - started


def run(
    sizes: list[int],
    queries: int,
    root: Path | None,
    provider: str,
    cache: bool,
    reuse: tuple[Path, str] | None = None,
) -> list[dict[str, object]]:
    real = create_embedder(load_settings().embedding.model_copy(update={"provider": provider}))
    assert real is not None
    chunks: list[Chunk] | None = None
    rng = random.Random(7)
    results: list[dict[str, object]] = []
    for size in sizes:
        data_dir = (root or Path(tempfile.mkdtemp())) / f"askdocs-latency-{provider}-{size}"
        build_s = 0.0
        if not (data_dir / "index").is_dir():
            if chunks is None:
                chunks, vectors = real_chunks(real, reuse)
            synthetic, table = synthesise(chunks, vectors, size, rng)
            build_s = build(data_dir, synthetic, TableEmbedder(real, table))
        row = child(data_dir, queries, provider, cache, None)
        results.append({"chunks": size, "build_s": round(build_s, 1), **row})
    return results


def child(
    data_dir: Path, queries: int, provider: str, cache: bool, src: Path | None
) -> dict[str, float]:
    """One searching child (``bench/search_child.py``), over ``src`` when given."""
    command = [sys.executable, str(CHILD), str(data_dir), str(queries), provider, str(int(cache))]
    env = dict(os.environ) | ({"PYTHONPATH": str(src)} if src else {})
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    found: dict[str, float] = json.loads(done.stdout)
    return found


def compare(
    sizes: list[int], queries: int, root: Path, provider: str, src: Path, reps: int
) -> list[dict[str, object]]:
    """Children over ``src`` (before) and this checkout (after), alternating, on the
    collections ``run`` built under ``root``: medians and after/before ratios."""
    rows: list[dict[str, object]] = []
    for size in sizes:
        data_dir = root / f"askdocs-latency-{provider}-{size}"
        runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        for rep in range(reps):
            order = [("before", src), ("after", None)]
            for name, tree in order if rep % 2 == 0 else order[::-1]:
                runs[name].append(child(data_dir, queries, provider, False, tree))
        row: dict[str, object] = {"chunks": size, "load_avg": round(os.getloadavg()[0], 1)}
        for key in ("p50_ms", "p99_ms", "cpu_p50_ms", "peak_mb", "steady_mb"):
            before = statistics.median(r[key] for r in runs["before"])
            after = statistics.median(r[key] for r in runs["after"])
            row[key] = {"before": before, "after": after, "ratio": round(after / before, 2)}
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description="askdocs search latency benchmark")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--data-root", type=Path, help="keep (and reuse) the collections here")
    parser.add_argument("--provider", default="local", choices=["local", "local-int8"])
    parser.add_argument("--query-cache", action="store_true", help="leave the query cache on")
    parser.add_argument(
        "--vectors-from",
        nargs=2,
        metavar=("DATA_DIR", "SITE"),
        help="reuse the real chunks' vectors of a data dir that indexed fastapi-docs as SITE",
    )
    parser.add_argument(
        "--compare-src",
        type=Path,
        help="also run an older source tree's search on the same collections (needs --data-root)",
    )
    parser.add_argument("--reps", type=int, default=3, help="children per tree with --compare-src")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    require(DOCS, QUESTIONS)
    reuse = (Path(args.vectors_from[0]), args.vectors_from[1]) if args.vectors_from else None
    rows = run(args.sizes, args.queries, args.data_root, args.provider, args.query_cache, reuse)
    if args.compare_src and args.data_root:
        rows = compare(
            args.sizes, args.queries, args.data_root, args.provider, args.compare_src, args.reps
        )
    for row in rows:
        print(json.dumps(row) if args.json else "  ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
