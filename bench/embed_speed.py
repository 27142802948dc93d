"""Embedding speed of the local provider (onnxruntime, fused and plain graphs) vs torch.

Encodes the chunk texts of a docs folder (default: ../shared/corpora/fastapi-docs, read
with the product's own corpus reader, so the texts are exactly what indexing embeds) and
prints, for each runtime: load seconds, total seconds, texts/s, and the p50 latency of a
single query. sentence-transformers (torch) is measured only when it is importable; it is
a dev-only reference, never a product dependency.

    .venv/bin/python bench/embed_speed.py [--docs DIR] [--limit N] [--threads T] [--no-torch]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from askdocs.embeddings.local import LocalEmbedder
from askdocs.embeddings.local_model import bundled_model_dir
from askdocs.ingest import read_site
from askdocs.settings import CorpusSettings
from askdocs.sites import folder_site
from shared_data import require, shared

DEFAULT_DOCS = shared("corpora", "fastapi-docs")
QUERIES = ("How do I allow CORS?", "dependency with yield", "upload a file", "OAuth2 scopes")

Encode = Callable[[Sequence[str]], np.ndarray]


def chunk_texts(docs: Path, limit: int | None) -> list[str]:
    snapshot = read_site(folder_site(docs), CorpusSettings())
    texts = [chunk.embed_text for chunk in snapshot.chunks]
    return texts[:limit] if limit else texts


def measure(name: str, load: Callable[[], Encode], texts: Sequence[str]) -> np.ndarray:
    started = time.perf_counter()
    encode = load()
    encode(["warm-up"])
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    vectors = encode(texts)
    total = time.perf_counter() - started
    latencies = []
    for query in QUERIES * 3:
        tick = time.perf_counter()
        encode([query])
        latencies.append((time.perf_counter() - tick) * 1000)
    print(
        f"{name:<22} load {loaded:6.2f} s   {len(texts)} texts in {total:7.2f} s"
        f"   {len(texts) / total:7.1f} texts/s   query p50 {statistics.median(latencies):6.1f} ms"
    )
    return vectors


def onnx_loader(threads: int, fused: bool) -> Callable[[], Encode]:
    def load() -> Encode:
        embedder = LocalEmbedder(threads=threads, fused=fused)
        embedder.load()
        return embedder.embed_documents

    return load


def torch_loader(threads: int) -> Callable[[], Encode] | None:
    try:
        import torch
        from sentence_transformers import SentenceTransformer
    except ImportError:
        return None

    def load() -> Encode:
        torch.set_num_threads(threads)
        model = SentenceTransformer(str(bundled_model_dir()), device="cpu")
        return lambda texts: model.encode(list(texts), batch_size=32, normalize_embeddings=True)

    return load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS)
    parser.add_argument("--limit", type=int, default=None, help="embed only the first N chunks")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--no-torch", action="store_true")
    args = parser.parse_args()
    require(args.docs)
    texts = chunk_texts(args.docs, args.limit)
    chars = sum(len(t) for t in texts)
    print(f"{len(texts)} chunk texts from {args.docs} ({chars} chars), {args.threads} threads")
    fused = measure("onnxruntime fused", onnx_loader(args.threads, True), texts)
    measure("onnxruntime plain", onnx_loader(args.threads, False), texts)
    loader = None if args.no_torch else torch_loader(args.threads)
    if loader is not None:
        reference = measure("sentence-transformers", loader, texts)
        cosines = (fused * reference).sum(1)
        print(f"cosine fused vs torch: min {cosines.min():.6f}  mean {cosines.mean():.6f}")


if __name__ == "__main__":
    main()
