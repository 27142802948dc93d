"""Indexing speed on fastapi-docs: cold index vs encoding alone, no-op and one-edit re-index.

usage: python bench/index_bench.py [--docs PATH] [--json]

All figures come from one run on one machine, so the ratio compares like with like:

1. ``encode_s``: the local model (already loaded) embeds every chunk's embedded text in
   batches of ``embedding.batch_size``: the floor any indexer pays. It runs before and
   after the cold index and the mean is used, because the machine may be shared; the CPU
   time of this process (``*_cpu_s``, ``cpu_ratio``) is reported too, as it is far less
   sensitive to other processes than wall time.
2. ``cold_s``: ``AskDocs.index`` into an empty data dir: reading and chunking the docs,
   loading the model, embedding, BM25 vectors, writing and verifying the Qdrant Edge
   collection, moving the pointer. ``ratio = cold_s / encode_s`` (bar: <= 1.3).
3. ``noop_s``: the same index call again (bar: <= 3 s, 0 chunks embedded).
4. ``edit``: one paragraph of one page changed; the chunks embedded (bar: only the edited).
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from askdocs.embeddings.registry import create_embedder
from askdocs.ingest import read_site
from askdocs.service import AskDocs
from askdocs.settings import load_settings
from askdocs.sites import folder_site
from shared_data import require, shared

DEFAULT_DOCS = shared("corpora", "fastapi-docs")
EDITED_PAGE = "tutorial/cors.md"


def encode_alone(docs: Path, data_dir: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of this process, chunks) to embed every chunk text."""
    settings = load_settings(data_dir=data_dir)
    texts = [c.embed_text for c in read_site(folder_site(docs), settings.corpus).chunks]
    embedder = create_embedder(settings.embedding)
    assert embedder is not None
    embedder.embed_documents(["warm up"])  # load the model outside the timing
    size = settings.embedding.batch_size
    started, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), size):
        embedder.embed_documents(texts[start : start + size])
    return time.perf_counter() - started, time.process_time() - cpu, len(texts)


def edit_one_paragraph(docs: Path) -> None:
    page = docs / EDITED_PAGE
    text = page.read_text(encoding="utf-8")
    paragraphs = text.split("\n\n")
    index = next(i for i, p in enumerate(paragraphs) if len(p) > 120 and p[0].isalpha())
    paragraphs[index] += " This sentence was added by the index benchmark."
    page.write_text("\n\n".join(paragraphs), encoding="utf-8")


def run(source: Path) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix="askdocs-index-bench-"))
    try:
        docs = work / "docs"
        shutil.copytree(source, docs)
        before_s, before_cpu, chunks = encode_alone(docs, work / "scratch")
        service = AskDocs(load_settings(data_dir=work / "data"), [folder_site(docs, "bench")])
        started, cpu = time.perf_counter(), time.process_time()
        cold = service.index("bench")
        cold_s, cold_cpu = time.perf_counter() - started, time.process_time() - cpu
        after_s, after_cpu, _ = encode_alone(docs, work / "scratch")
        encode_s, encode_cpu = (before_s + after_s) / 2, (before_cpu + after_cpu) / 2
        started = time.perf_counter()
        noop = service.index("bench")
        noop_s = time.perf_counter() - started
        edit_one_paragraph(docs)
        edited = service.index("bench")
        service.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "chunks": chunks,
        "encode_s": round(encode_s, 2),
        "encode_runs_s": [round(before_s, 2), round(after_s, 2)],
        "cold_s": round(cold_s, 2),
        "ratio": round(cold_s / encode_s, 3),
        "encode_cpu_s": round(encode_cpu, 2),
        "cold_cpu_s": round(cold_cpu, 2),
        "cpu_ratio": round(cold_cpu / encode_cpu, 3),
        "cold_embedded": cold.embedded,
        "noop_s": round(noop_s, 3),
        "noop_embedded": noop.embedded,
        "edit_embedded": edited.embedded,
        "edit_reused": edited.reused,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="askdocs indexing benchmark")
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    require(args.docs)
    figures = run(args.docs)
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:>14}: {value}")


if __name__ == "__main__":
    main()
