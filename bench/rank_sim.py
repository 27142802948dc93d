"""Offline ranking simulator: the search path's ranking over an exact copy of both sides.

usage: python bench/rank_sim.py [SET.jsonl=DOCS ...] [--data-dir TEMPLATE]
                                [-o search.KEY=VALUE ...] [--grid search.KEY=V1,V2 ...]

For each set already indexed by ``bench/quality.py`` (same ``--data-dir`` template; nothing
is indexed here), every chunk's stored dense and sparse vector is read once, the
questions' query vectors are embedded once, and both are cached in
``DATA_DIR/rank-sim-*.pkl``. Each setting is then scored without the engine: exact
cosines, BM25 with the engine's IDF (``ln(1 + (N - n + 0.5) / (n + 0.5))``), the weighted
RRF over each side's ``prefetch`` best, then the product's own ``collapse``,
``clear_winner_first``, ``follow_intros`` and ``rerank``. It reproduced
``bench/quality.py``'s hit@5 and MRR@10 exactly on the three development sets (issue #13)
and scores a setting in about a second, so a grid of fusion settings takes a minute; confirm
what it finds with ``bench/quality.py -o ...`` (the engine's ranking varies slightly).
Ranking settings only: the match decision and Ask AI's sources are not simulated.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import pickle
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import quality
from askdocs.index import model_spec
from askdocs.index.payload import chunk_from_payload
from askdocs.search import lexical
from askdocs.search.evalset import Question, lead_or_heading, parse_questions
from askdocs.search.hits import Candidate, by_score, collapse
from askdocs.search.intros import follow_intros
from askdocs.search.metrics import Judged, report
from askdocs.search.query import is_keyword_query, search_text
from askdocs.search.ranking import clear_winner_first, rerank
from askdocs.search.retrieval import fusion_weights
from askdocs.service import AskDocs
from askdocs.settings import SearchSettings, load_settings
from askdocs.types import Chunk

Floats = npt.NDArray[np.float32]


@dataclass
class Asked:
    question: Question
    text: str  # the searched text (follow-up rule applied)
    cosines: Floats  # one per chunk
    bm25: Floats  # one per chunk


@dataclass
class Dump:
    chunks: list[Chunk]
    asked: list[Asked]


def dump(ev: quality.EvalSet, data_dir: Path) -> Dump:
    """Both sides of every question of the set over its current collection (cached)."""
    settings = load_settings(None, data_dir=data_dir)
    site = quality.folder_site(ev.docs.resolve(), quality.site_id_for(ev.docs, None))
    service = quality.AskDocs(settings, [site])  # no index(): read what quality.py built
    try:
        collection = service.store.current(model_spec(service.embedder))
        if collection is None:
            raise SystemExit(f"{data_dir}: no index; run bench/quality.py first")
        # A new build or another query encoder (embedding.query_precision): a new dump.
        query_model = str(getattr(service.embedder, "query_model_id", collection.model_id))
        tag = hashlib.sha256(f"{collection.name}|{query_model}".encode()).hexdigest()[:12]
        cache = data_dir / f"rank-sim-{tag}.pkl"
        if cache.exists():
            with cache.open("rb") as f:
                cached: Dump = pickle.load(f)
            return cached
        questions = parse_questions(ev.questions_file.read_text(encoding="utf-8").splitlines())
        out = snapshot(service, site.id, questions, site.default_locale)
    finally:
        service.close()
    with cache.open("wb") as f:
        pickle.dump(out, f)
    return out


def snapshot(
    service: AskDocs, site: str, questions: Sequence[Question], locale: str = "en"
) -> Dump:
    """The chunks a search of ``site`` in its default locale reads (no locale asked, any
    audience), and each question's cosines and BM25 scores over them; IDF is over the
    whole collection, as the engine computes it."""
    embedder = service.embedder
    collection = service.store.current(model_spec(embedder))
    if collection is None or embedder is None:
        raise SystemExit("no hybrid index to read")
    points = list(service.store.backend.scroll(collection.name, vectors=True))
    sparse = [
        dict(zip(p.sparse.indices, p.sparse.values, strict=True)) if p.sparse else {}
        for p in points
    ]
    df: Counter[int] = Counter(t for terms in sparse for t in terms)
    idf = {t: math.log(1 + (len(points) - c + 0.5) / (c + 0.5)) for t, c in df.items()}
    chunks = [chunk_from_payload(p.payload) for p in points]
    keep = [i for i, c in enumerate(chunks) if c.site == site and c.locale == locale]
    dense = np.stack([np.asarray(points[i].dense, dtype=np.float32) for i in keep])
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    asked = []
    for q in questions:
        text = search_text(q.question, q.history).text
        vector = np.array(embedder.embed_query(text), dtype=np.float32).reshape(-1)
        vector /= np.linalg.norm(vector)
        query = lexical.query_vector(text, locale)
        weights = dict(zip(query.indices, query.values, strict=True)) if query else {}
        bm25 = np.array(
            [
                sum(w * idf.get(t, 0.0) * sparse[i].get(t, 0.0) for t, w in weights.items())
                for i in keep
            ],
            dtype=np.float32,
        )
        asked.append(Asked(q, text, dense @ vector, bm25))
    return Dump([chunks[i] for i in keep], asked)


def rrf(sides: list[tuple[npt.NDArray[Any], float]], k: int, prefetch: int) -> dict[int, float]:
    """Qdrant's weighted RRF: position p of a side scores 1 / ((p + 1) / weight + k - 1)."""
    fused: dict[int, float] = {}
    for order, weight in sides:
        for p, i in enumerate(order[:prefetch]):
            fused[int(i)] = fused.get(int(i), 0.0) + 1.0 / ((p + 1) / weight + k - 1)
    return fused


def ranked(d: Dump, a: Asked, s: SearchSettings, limit: int = 10) -> list[tuple[str, str]]:
    keyword = is_keyword_query(a.text)
    k, dw, lw = fusion_weights(a.text, s)
    dense_order = np.argsort(-a.cosines, kind="stable")
    lexical_order = np.argsort(-a.bm25, kind="stable")
    lexical_order = lexical_order[a.bm25[lexical_order] > 0]
    fused = rrf([(dense_order, dw), (lexical_order, lw)], k, s.prefetch)
    on_dense = {int(i) for i in dense_order[: s.prefetch]}
    top = sorted(fused.items(), key=lambda kv: -kv[1])[: limit * s.candidates_factor]
    candidates = by_score(
        [
            Candidate(d.chunks[i], score, float(a.cosines[i]) if i in on_dense else None)
            for i, score in top
        ]
    )
    shown = collapse(candidates, None, len(candidates))
    if not keyword:
        shown = clear_winner_first(shown, s.dense_margin)
    shown = follow_intros(shown, s.intro_top)
    shown = rerank(shown, a.text, demote=s.demote_changelogs, per_page=s.max_per_page)[:limit]
    return [lead_or_heading(c.chunk.path, c.chunk.heading, c.chunk.section_id) for c, _ in shown]


def score(dumps: dict[str, Dump], s: SearchSettings) -> dict[str, tuple[float, float]]:
    rows = {}
    for name, d in dumps.items():
        judged = [
            Judged(
                a.question.id, a.question.kind, a.question.relevant, tuple(ranked(d, a, s)), True
            )
            for a in d.asked
            if a.question.relevant
        ]
        r = report(judged)
        rows[name] = (r.hit_at_5, r.mrr_at_10)
    rows["macro"] = (
        sum(v[0] for v in rows.values()) / len(rows),
        sum(v[1] for v in rows.values()) / len(rows),
    )
    return rows


def search_settings(pairs: list[str]) -> SearchSettings:
    values = quality.overrides(pairs).get("search", {})
    return SearchSettings.model_validate({**SearchSettings().model_dump(), **values})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", help="SET.jsonl=DOCS (default: ../shared/eval)")
    parser.add_argument("--data-dir", default=quality.DEFAULT_TEMPLATE, help="with {set}")
    parser.add_argument("-o", "--override", action="append", default=[], help="search.KEY=VALUE")
    parser.add_argument("--grid", action="append", default=[], help="search.KEY=V1,V2,...")
    args = parser.parse_args()
    sets = [quality.parse_pair(p) for p in args.sets] or quality.shared_sets()
    dumps = {ev.name: dump(ev, Path(args.data_dir.format(set=ev.name))) for ev in sets}
    axes = [(key, raw.split(",")) for key, _, raw in (g.partition("=") for g in args.grid)]
    for combo in itertools.product(*(values for _, values in axes)):
        pairs = [*args.override, *(f"{key}={v}" for (key, _), v in zip(axes, combo, strict=True))]
        rows = score(dumps, search_settings(pairs))
        cells = "  ".join(f"{n} {h:.3f}/{m:.3f}" for n, (h, m) in rows.items())
        print(json.dumps(pairs), cells)


if __name__ == "__main__":
    main()
