"""askdocs against a plain retrieval pipeline, side by side on one corpus and its questions.

usage: python bench/compare.py [--docs DIR] [--questions FILE] [--reps 3]
                               [--provider local|local-int8] [--json]

The plain pipeline is what one writes in an afternoon: every Markdown file split at its
level 1-3 headings (one chunk per section, heading line + text), the same bundled MiniLM
(``LocalEmbedder``, float32, truncated at 256 tokens) for dense vectors, ``bm25s`` for
BM25, and per question both rankings by a numpy dot product / BM25, fused by reciprocal
rank (k = 60), best sections first.

Both run in this one process, interleaved: each repetition indexes askdocs cold (a fresh
data dir; the compiled model file is reused, as on every start after the first) and then
the plain pipeline, and searches every question with askdocs then with the plain pipeline,
question by question. The model is loaded before any timing. Figures:

* index and query CPU: ``getrusage(RUSAGE_SELF)`` user + system, all threads included
  (far less sensitive than wall time to the other jobs of a shared machine); wall time too;
* memory: the growth of this process's ``VmRSS`` that each side's index keeps (after a
  garbage collection), and the process's ``VmHWM`` at the end;
* quality: hit@5 and MRR@10 over the answerable questions, by (path, heading) as
  ``askdocs eval`` scores them (follow-ups searched as history + question by the plain side).

Medians over the repetitions are printed, with ratios askdocs / plain.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import bm25s
import numpy as np

from askdocs.embeddings.local import LocalEmbedder
from askdocs.search.evalset import Question, parse_questions
from askdocs.search.metrics import Section, dedupe, first_rank
from askdocs.service import AskDocs
from askdocs.settings import load_settings
from askdocs.sites import folder_site
from shared_data import require, shared

DOCS = shared("corpora", "fastapi-docs")
QUESTIONS = shared("eval", "fastapi-docs-dev.jsonl")
SITE = "compare"
RRF_K = 60
SKIPPED = {"SOURCE.md", "README.md"}  # provenance notes, excluded by askdocs too
T = TypeVar("T")
_HEADING = re.compile(r"^(#{1,3})[ \t]+(.*?)[ \t]*$")
_ANCHOR = re.compile(r"\s*\{\s*#[^}]*\}\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


# -- measuring -------------------------------------------------------------------------


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(field)


def measured(call: Callable[[], T]) -> tuple[T, float, float]:
    """(result, CPU seconds, wall seconds) of one call."""
    cpu, wall = cpu_seconds(), time.perf_counter()
    result = call()
    return result, cpu_seconds() - cpu, time.perf_counter() - wall


def retained_mb(build: Callable[[], T]) -> tuple[T, float, float, float]:
    """(result, CPU s, wall s, VmRSS growth in MB that the result keeps)."""
    gc.collect()
    before = status_mb("VmRSS")
    result, cpu, wall = measured(build)
    gc.collect()
    return result, cpu, wall, status_mb("VmRSS") - before


# -- the plain pipeline ----------------------------------------------------------------


@dataclass(frozen=True)
class PlainIndex:
    sections: list[Section]
    vectors: np.ndarray
    bm25: Any


def split_sections(root: Path) -> Iterator[tuple[Section, str]]:
    """Every level 1-3 section of every Markdown file: ((path, heading), heading + text)."""
    for path in sorted(root.rglob("*.md")):
        if path.name in SKIPPED:
            continue
        rel = path.relative_to(root).as_posix()
        heading, lines, fence = path.stem, [], False
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            fence = fence != bool(_FENCE.match(line))
            found = None if fence else _HEADING.match(line)
            if found:
                if any(part.strip() for part in lines):
                    yield (rel, heading), "\n".join([heading, *lines])
                heading, lines = _ANCHOR.sub("", found.group(2)).strip(), []
            else:
                lines.append(line)
        if any(part.strip() for part in lines):
            yield (rel, heading), "\n".join([heading, *lines])


def plain_index(root: Path, embedder: LocalEmbedder) -> PlainIndex:
    pairs = list(split_sections(root))
    texts = [text for _, text in pairs]
    vectors = embedder.embed_documents(texts)
    bm25 = bm25s.BM25()
    bm25.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
    return PlainIndex([section for section, _ in pairs], vectors, bm25)


def plain_search(index: PlainIndex, embedder: LocalEmbedder, text: str) -> list[Section]:
    dense = index.vectors @ embedder.embed_query(text)[0]
    words = bm25s.tokenize([text], stopwords="en", return_ids=False, show_progress=False)[0]
    lexical = index.bm25.get_scores([w for w in words if w in index.bm25.vocab_dict])
    fused: dict[int, float] = {}
    for ranking in (np.argsort(-dense)[:50], np.argsort(-lexical)[:50]):
        for rank, row in enumerate(ranking):
            fused[int(row)] = fused.get(int(row), 0.0) + 1.0 / (RRF_K + rank + 1)
    best = sorted(fused, key=lambda row: -fused[row])[:10]
    return [index.sections[row] for row in best]


# -- one repetition --------------------------------------------------------------------


def askdocs_index(docs: Path, provider: str, cache: Path) -> AskDocs:
    data_dir = Path(tempfile.mkdtemp(prefix="askdocs-compare-"))
    embedding = {"provider": provider, "cache_dir": cache, "query_cache_size": 0}
    service = AskDocs(
        load_settings(data_dir=data_dir, embedding=embedding), [folder_site(docs, SITE)]
    )
    service.index(SITE)
    return service


def searched(text: Question) -> str:
    return " ".join([*text.history, text.question])


def scores(results: Sequence[Sequence[Section]], questions: Sequence[Question]) -> dict[str, float]:
    ranks = [
        first_rank(dedupe(found), q.relevant, 10)
        for found, q in zip(results, questions, strict=True)
        if q.relevant
    ]
    return {
        "hit@5": round(statistics.fmean(1.0 if r and r <= 5 else 0.0 for r in ranks), 4),
        "mrr@10": round(statistics.fmean(1.0 / r if r else 0.0 for r in ranks), 4),
    }


def repetition(
    docs: Path, questions: list[Question], provider: str, cache: Path, plain_model: LocalEmbedder
) -> dict[str, dict[str, float]]:
    service, a_cpu, a_wall, a_mem = retained_mb(lambda: askdocs_index(docs, provider, cache))
    plain, p_cpu, p_wall, p_mem = retained_mb(lambda: plain_index(docs, plain_model))
    a_results, p_results, a_q, p_q = [], [], [], []
    for q in questions:
        result, cpu, wall = measured(
            lambda q=q: service.search(q.question, site=SITE, limit=10, history=q.history)
        )
        a_results.append([(hit.path, hit.heading) for hit in result.hits])
        a_q.append((cpu, wall))
        found, cpu, wall = measured(lambda q=q: plain_search(plain, plain_model, searched(q)))
        p_results.append(found)
        p_q.append((cpu, wall))
    service.close()
    return {
        "askdocs": _side(a_cpu, a_wall, a_mem, a_q, scores(a_results, questions)),
        "plain": _side(p_cpu, p_wall, p_mem, p_q, scores(p_results, questions)),
    }


def _side(
    cpu: float,
    wall: float,
    mem: float,
    queries: list[tuple[float, float]],
    quality: dict[str, float],
) -> dict[str, float]:
    return {
        "index_cpu_s": round(cpu, 2),
        "index_wall_s": round(wall, 2),
        "index_rss_mb": round(mem, 1),
        "query_cpu_ms": round(statistics.median(c for c, _ in queries) * 1000, 2),
        "query_wall_ms": round(statistics.median(w for _, w in queries) * 1000, 2),
        **quality,
    }


def medians(rows: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    return {
        side: {
            key: round(statistics.median(r[side][key] for r in rows), 4) for key in rows[0][side]
        }
        for side in rows[0]
    }


def ratios(summary: dict[str, dict[str, float]]) -> dict[str, float]:
    a, p = summary["askdocs"], summary["plain"]
    return {key: round(a[key] / p[key], 3) for key in a if p[key]}


def main() -> None:
    parser = argparse.ArgumentParser(description="askdocs vs a plain pipeline")
    parser.add_argument("--docs", type=Path, default=DOCS)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--provider", default="local", choices=["local", "local-int8"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    require(args.docs, args.questions)
    questions = parse_questions(args.questions.read_text(encoding="utf-8").splitlines())
    cache = Path(tempfile.mkdtemp(prefix="askdocs-compare-models-"))
    plain_model = LocalEmbedder()
    plain_model.load()
    LocalEmbedder(
        precision="int8" if args.provider == "local-int8" else "fp32", cache_dir=cache
    ).load()
    rows = [
        repetition(args.docs, questions, args.provider, cache, plain_model)
        for _ in range(args.reps)
    ]
    summary = medians(rows)
    out = {
        "reps": rows,
        "median": summary,
        "askdocs/plain": ratios(summary),
        "peak_mb": round(status_mb("VmHWM"), 1),
        "load": Path("/proc/loadavg").read_text().split()[:3],
    }
    if args.json:
        print(json.dumps(out))
        return
    for side, figures in summary.items():
        print(f"{side:8}", "  ".join(f"{k}={v}" for k, v in figures.items()))
    print("ratio   ", "  ".join(f"{k}={v}" for k, v in out["askdocs/plain"].items()))
    print(f"process peak {out['peak_mb']} MB, load average {' '.join(out['load'])}")


if __name__ == "__main__":
    main()
