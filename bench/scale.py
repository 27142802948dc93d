"""A million sections on one machine: build time, disk, memory and hybrid search latency.

usage: python bench/scale.py [--sizes 100000 300000 1000000] [--quantization int8 none]
                             [--root DIR] [--vectors-from TEMPLATE] [--queries 400] [--json]

The material is the real corpora of ``../shared/corpora`` (fastapi, httpx, traefik):
their chunks, and their dense vectors read from data dirs that indexed them with the local
model (``--vectors-from``, e.g. ``bench/quality.py``'s ``.askdocs-data/quality-{set}``;
missing ones are embedded once and kept in ``ROOT/material-<corpus>.npz``). A collection of
N sections is built without running the model:

- replica 0 of fastapi, httpx and traefik is the real corpus, unchanged, as its own site
  (``fastapi-docs``, ...), so the development questions can be scored inside the big
  collection;
- every other replica is a copy of one corpus (in turn) with about 10% of its words replaced
  by other words of that corpus (BM25 statistics stay realistic) and each dense vector the
  real one plus Gaussian noise at a cosine of about 0.9, re-normalised; two of every five
  replicas go to one large site, ``big`` (40% of the sections, every fourth of its replicas
  in locale ``de``), each of the others is a small site of its own.

The build streams the points (BM25 vectors by the product's analyser, payloads and point
ids by the product's code) into one Qdrant Edge collection through the store's backend in
batches, then seals it (the engine's optimiser builds the HNSW graphs and, with
``int8``, the int8 copies) and makes it current: build seconds (writing, sealing), disk size
and the building process's peak memory. Each size and quantization runs in child processes
(``ROOT/<quantization>-<size>``, kept and reused by later runs).

Searching runs in a fresh child per collection, as a server would: ``AskDocs.search`` with the
bundled query model, the query vectors already in the query cache (every question is asked
once before timing), so the figures exclude the query embedding. Queries alternate: the
``big`` site (locale ``en``, or ``de`` with its ``en`` fallback) and a small site of the
question's corpus; hybrid, with the site and locale filters. After the warm-up the child
waits until the background reads of the term ids (the unknown-name check) are done, then
times ``--queries`` searches: p50 and p99 wall ms and CPU ms per search, by site kind (on a
busy machine the wall figures measure the wait for a core; CPU ms per search does not), and
its own ``VmRSS`` and ``VmHWM``. It also scores the development questions on their real
sites inside the collection (hit@5, MRR@10, as ``bench/quality.py`` does), so quantization
can be judged at scale.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from askdocs.embeddings.local import LocalEmbedder
from askdocs.index import model_spec, open_store
from askdocs.index.backend import Manifest, PointRecord
from askdocs.index.edge import EdgeBackend
from askdocs.index.naming import collection_name, corpus_hash, point_id
from askdocs.index.payload import chunk_payload
from askdocs.ingest import read_site
from askdocs.search import lexical
from askdocs.settings import Quantization, load_settings
from askdocs.sites import folder_site
from askdocs.types import Chunk
from shared_data import require, shared

CORPORA = ("fastapi", "httpx", "traefik")  # the development sets' corpora
BATCH = 2048
CHILD = Path(__file__).resolve()


@dataclass
class Material:
    corpus: str
    chunks: list[Chunk]
    vectors: np.ndarray
    vocabulary: list[str]


def docs_of(corpus: str) -> Path:
    return shared("corpora", f"{corpus}-docs")


def real_site(corpus: str) -> str:
    return f"{corpus}-docs"


def read_chunks(corpus: str) -> list[Chunk]:
    settings = load_settings(
        data_dir=Path(tempfile.mkdtemp()), corpus={"parse_timeout_seconds": 600.0}
    )
    return list(read_site(folder_site(docs_of(corpus), real_site(corpus)), settings.corpus).chunks)


def material(corpus: str, root: Path, reuse: str | None) -> Material:
    """A corpus's chunks and dense vectors (from ``reuse`` or the cache, else embedded)."""
    chunks = read_chunks(corpus)
    cache = root / f"material-{corpus}.npz"
    known: dict[str, np.ndarray] = {}
    if cache.is_file():
        saved = np.load(cache)
        known = dict(zip(saved["ids"].tolist(), saved["vectors"], strict=True))
    if reuse:
        known |= stored_vectors(Path(reuse.format(set=corpus)), chunks)
    missing = [c for c in chunks if c.embed_hash not in known]
    if missing:
        embedder = LocalEmbedder()
        for start in range(0, len(missing), 64):
            part = missing[start : start + 64]
            vectors = embedder.embed_documents([c.embed_text for c in part])
            known |= dict(zip((c.embed_hash for c in part), vectors, strict=True))
        ids = sorted(known)
        np.savez(cache, ids=np.array(ids), vectors=np.stack([known[i] for i in ids]))
    print(f"{corpus}: {len(chunks)} chunks, {len(missing)} embedded", file=sys.stderr)
    vocabulary = sorted({w for c in chunks for w in c.text.split() if w.isalpha()})
    vectors = np.stack([known[c.embed_hash] for c in chunks]).astype(np.float32)
    return Material(corpus, chunks, vectors, vocabulary)


def stored_vectors(data_dir: Path, chunks: list[Chunk]) -> dict[str, np.ndarray]:
    """Vectors by embed hash from a data dir that indexed the corpus (any site id)."""
    if not (data_dir / "index").is_dir():
        return {}
    store = open_store(load_settings(data_dir=data_dir), read_only=True)
    try:
        info = store.latest()
        if info is None or not info.dimension:
            return {}
        points = {
            p.id: p.payload.get("embed_hash")
            for p in store.backend.scroll(info.name, vectors=False)
        }
        found = store.backend.dense_vectors(info.name, list(points))
    finally:
        store.close()
    wanted = {c.embed_hash for c in chunks}
    return {str(points[pid]): v for pid, v in found.items() if points[pid] in wanted}


@dataclass(frozen=True)
class Replica:
    number: int
    material: Material
    site: str
    locale: str
    real: bool


def replicas(materials: list[Material], size: int) -> Iterator[Replica]:
    """The replicas that make up ``size`` sections, in order (the last one cut short)."""
    count, number = 0, 0
    while count < size:
        mat = materials[number % len(materials)]
        real = number < len(materials) and mat.corpus in CORPORA
        if real:
            site, locale = real_site(mat.corpus), "en"
        elif number % 5 < 2:
            site, locale = "big", "de" if (number // 5) % 4 == 3 else "en"
        else:
            site, locale = f"s{number:05d}-{mat.corpus}", "en"
        yield Replica(number, mat, site, locale, real)
        count += len(mat.chunks)
        number += 1


def points(rep: Replica, rng: random.Random, limit: int) -> Iterator[tuple[Chunk, np.ndarray]]:
    mat = rep.material
    noise = np.random.default_rng(rep.number)
    scale = 0.5 / np.sqrt(mat.vectors.shape[1])  # cosine with the original about 0.9
    for chunk, vector in list(zip(mat.chunks, mat.vectors, strict=True))[:limit]:
        if rep.real:
            yield chunk, vector
            continue
        words = [
            rng.choice(mat.vocabulary) if rng.random() < 0.1 else w for w in chunk.text.split()
        ]
        slug = f"{chunk.slug}-r{rep.number}"
        copy = replace(
            chunk, site=rep.site, locale=rep.locale, slug=slug, text=" ".join(words),
            url=f"/r{rep.number}{chunk.url}",
        )  # fmt: skip
        moved = vector + noise.normal(0, scale, vector.shape[0]).astype(np.float32)
        yield copy, moved / np.linalg.norm(moved)


def build(data_dir: Path, size: int, quantization: Quantization, materials: list[Material]) -> dict:
    """Stream ``size`` points into one collection and make it current (in this process)."""
    backend = EdgeBackend(data_dir / "index", quantization)
    model = model_spec(LocalEmbedder())
    run = uuid.uuid4().hex
    version = lexical.lexical_version()
    name = collection_name(model, corpus_hash({"synthetic": f"{size}"}, version, quantization))
    backend.create(name, model.dimension)
    rng = random.Random(size)
    sites: dict[str, int] = {}
    batch: list[PointRecord] = []
    started, written = time.monotonic(), 0
    for rep in replicas(materials, size):
        for chunk, vector in points(rep, rng, size - written):
            pid = point_id(chunk.site, chunk.id)
            sparse = lexical.document_vector(chunk)
            batch.append(PointRecord(pid, chunk_payload(chunk, run), sparse, vector))
            sites[chunk.site] = sites.get(chunk.site, 0) + 1
            written += 1
            if len(batch) == BATCH:
                backend.upsert(name, batch)
                batch = []
    if batch:
        backend.upsert(name, batch)
    wrote = time.monotonic()
    manifest = Manifest(
        name=name, model_id=model.model_id, dimension=model.dimension, points=written,
        dense_points=written, lexical_version=version,
        site_hashes=dict.fromkeys(sites, "synthetic"), site_points=sites, run=run,
        created=time.time(),
    )  # fmt: skip
    backend.seal(name, manifest)
    backend.set_pointer(model.key, name)
    sealed = time.monotonic()
    backend.close()
    (data_dir / "sites.json").write_text(json.dumps(sorted(sites)))
    return {
        "points": written,
        "sites": len(sites),
        "write_s": round(wrote - started, 1),
        "seal_s": round(sealed - wrote, 1),
        "disk_mb": round(disk_bytes(data_dir / "index" / "collections" / name) / 2**20, 1),
        "build_peak_mb": own_memory()["VmHWM"],
    }


def disk_bytes(folder: Path) -> int:
    """Bytes the files take on disk (sparse preallocated files count what is written)."""
    return sum(p.stat().st_blocks * 512 for p in folder.rglob("*") if p.is_file())


def own_memory() -> dict[str, float]:
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return {key: round(int(fields[key].split()[0]) / 1024, 1) for key in ("VmRSS", "VmHWM")}


# -- searching (child) --------------------------------------------------------------------


@dataclass(frozen=True)
class Ask:
    kind: str  # "big" or "small": which site
    site: str
    locale: str | None
    question: str
    history: tuple[str, ...]


def questions() -> dict[str, list]:  # type: ignore[type-arg]
    from askdocs.search.evalset import parse_questions

    found = {}
    for corpus in CORPORA:
        path = shared("eval", f"{corpus}-docs-dev.jsonl")
        found[corpus] = parse_questions(path.read_text(encoding="utf-8").splitlines(), str(path))
    return found


def plan(sites: list[str], asked: dict[str, list], count: int) -> list[Ask]:  # type: ignore[type-arg]
    """``count`` searches: the big site (en, or de with the en fallback) and small sites of
    the question's corpus, in turn."""
    small = {c: [s for s in sites if s.endswith(f"-{c}") and s.startswith("s")] for c in CORPORA}
    pool = [(c, q) for c in CORPORA for q in asked[c]]
    out: list[Ask] = []
    for i in range(count):
        corpus, q = pool[i % len(pool)]
        if i % 2 == 0:
            out.append(Ask("big", "big", "de" if i % 4 == 0 else None, q.question, q.history))
        elif small[corpus]:
            site = small[corpus][(i // 2) % len(small[corpus])]
            out.append(Ask("small", site, None, q.question, q.history))
    return out


def root_of(site: str) -> Path:
    """The docs folder a site's hits come from (freshness reads it; ``big`` mixes corpora
    and names the first)."""
    for corpus in CORPORA:
        if site in (real_site(corpus), f"-{corpus}") or site.endswith(f"-{corpus}"):
            return docs_of(corpus)
    return docs_of(CORPORA[0])


def search_child(data_dir: Path, quantization: str, count: int) -> dict:
    from askdocs.search.evalset import lead_or_heading
    from askdocs.search.metrics import Judged, report
    from askdocs.service import AskDocs
    from askdocs.settings import SiteConfig

    sites = json.loads((data_dir / "sites.json").read_text())
    asked = questions()
    asks = plan(sites, asked, count)
    scored = [
        Ask("real", real_site(c), None, q.question, q.history) for c in CORPORA for q in asked[c]
    ]
    used = {a.site for a in asks + scored}
    configs = [
        SiteConfig.model_validate({"id": site, "roots": [{"path": str(root_of(site))}]})
        for site in sorted(used)
    ]
    settings = load_settings(
        data_dir=data_dir,
        index={"quantization": quantization},
        embedding={"query_cache_size": 4096},
    )
    service = AskDocs(settings, configs)
    began = time.monotonic()
    for ask in scored + asks:  # every query vector into the cache; term ids start reading
        service.search(ask.question, site=ask.site, locale=ask.locale, history=ask.history)
    while any(t.name == "askdocs-term-ids" for t in __import__("threading").enumerate()):
        time.sleep(0.2)
    warm_s = time.monotonic() - began
    wall: dict[str, list[float]] = {"big": [], "small": []}
    cpu: dict[str, list[float]] = {"big": [], "small": []}
    for ask in asks:
        started, started_cpu = time.perf_counter(), time.process_time()
        service.search(ask.question, site=ask.site, locale=ask.locale, history=ask.history)
        wall[ask.kind].append(1000 * (time.perf_counter() - started))
        cpu[ask.kind].append(1000 * (time.process_time() - started_cpu))
    quality = {}
    for corpus in CORPORA:
        judged = []
        for q in asked[corpus]:
            result = service.search(q.question, site=real_site(corpus), limit=10, history=q.history)
            judged.append(Judged(q.id, q.kind, q.relevant, tuple(
                lead_or_heading(h.path, h.heading, h.section_id) for h in result.hits
            ), result.match))  # fmt: skip
        r = report(judged)
        quality[corpus] = {"hit@5": round(r.hit_at_5, 3), "MRR@10": round(r.mrr_at_10, 3)}
    memory = own_memory()
    service.close()
    everything = wall["big"] + wall["small"]
    return {
        "warm_s": round(warm_s, 1),
        "p50_ms": pct(everything, 0.5),
        "p99_ms": pct(everything, 0.99),
        "big_p50_ms": pct(wall["big"], 0.5),
        "big_p99_ms": pct(wall["big"], 0.99),
        "small_p50_ms": pct(wall["small"], 0.5),
        "small_p99_ms": pct(wall["small"], 0.99),
        "cpu_p50_ms": pct(cpu["big"] + cpu["small"], 0.5),
        "cpu_p99_ms": pct(cpu["big"] + cpu["small"], 0.99),
        "big_cpu_p50_ms": pct(cpu["big"], 0.5),
        "small_cpu_p50_ms": pct(cpu["small"], 0.5),
        "rss_mb": memory["VmRSS"],
        "peak_mb": memory["VmHWM"],
        "quality": quality,
    }


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2) if ordered else 0.0


# -- driver --------------------------------------------------------------------------------


def child(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, str(CHILD), *args], capture_output=True, text=True, env=dict(os.environ)
    )
    if done.returncode != 0:
        raise SystemExit(f"child {args} failed:\n{done.stderr[-3000:]}")
    found: dict = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 300_000, 1_000_000])
    parser.add_argument("--quantization", nargs="+", default=["int8"], choices=["int8", "none"])
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "askdocs-scale")
    parser.add_argument("--vectors-from", help="data dirs with the corpora's vectors, {set}")
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    require(*(docs_of(c) for c in CORPORA), shared("eval"))
    args.root.mkdir(parents=True, exist_ok=True)
    rows = []
    for size in args.sizes:
        for quantization in args.quantization:
            data_dir = args.root / f"{quantization}-{size}"
            built: dict = {}
            if not (data_dir / "sites.json").is_file():
                extra = [args.vectors_from] if args.vectors_from else []
                built = child(
                    "build", str(data_dir), str(size), quantization, str(args.root), *extra
                )
            searched = child("search", str(data_dir), quantization, str(args.queries))
            row = {"sections": size, "quantization": quantization, **built, **searched}
            row["load_avg"] = round(os.getloadavg()[0], 1)
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    for row in rows:
        print(json.dumps(row) if args.json else "  ".join(f"{k}={v}" for k, v in row.items()))


def child_main(argv: list[str]) -> None:
    if argv[0] == "build":
        data_dir, size, quantization, root = Path(argv[1]), int(argv[2]), argv[3], Path(argv[4])
        reuse = argv[5] if len(argv) > 5 else None
        materials = [material(c, root, reuse) for c in CORPORA]
        result = build(data_dir, size, quantization, materials)  # type: ignore[arg-type]
    else:
        result = search_child(Path(argv[1]), argv[2], int(argv[3]))
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("build", "search"):
        child_main(sys.argv[1:])
    else:
        main()
