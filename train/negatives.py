"""Hard negatives: BM25 over the same tree, as askdocs's lexical side scores it (pure).

Terms are askdocs's own (``askdocs.search.lexical``: field weights, stemming, identifiers
kept whole and split), the term frequencies saturate as its document vectors do, and the
IDF is the vector store's (``ln(1 + (N - n + 0.5) / (n + 0.5))``). A negative is a chunk
BM25 ranks high for the query that is not the answer: not the positive's section (any of
its parts), not the section the query was read from, and not a section with the same
heading and text (a copy on another page).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from askdocs.search.lexical import Bm25Params, document_terms, query_terms
from askdocs.types import Chunk

CANDIDATES = 30  # BM25's top this many are looked at
KEEP = 5  # negatives stored per pair (training draws from them)


def section_key(chunk: Chunk) -> tuple[str, str]:
    return (chunk.slug, chunk.section_id)


@dataclass(frozen=True)
class Ranked:
    chunk: int  # index into the tree's chunks
    score: float


class Bm25:
    """An in-memory BM25 index over one tree's chunks."""

    def __init__(self, chunks: Sequence[Chunk], params: Bm25Params | None = None) -> None:
        p = params or Bm25Params()
        counts = [document_terms(chunk) for chunk in chunks]
        lengths = [sum(c.values()) for c in counts]
        avgdl = max(1.0, sum(lengths) / len(lengths)) if lengths else 1.0
        self._postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for row, (terms, length) in enumerate(zip(counts, lengths, strict=True)):
            norm = p.k1 * (1.0 - p.b + p.b * length / avgdl)
            for term, tf in terms.items():
                self._postings[term].append((row, tf * (p.k1 + 1.0) / (tf + norm)))
        total = len(chunks)
        self._idf = {
            term: math.log(1.0 + (total - len(rows) + 0.5) / (len(rows) + 0.5))
            for term, rows in self._postings.items()
        }

    def search(self, query: str, limit: int = CANDIDATES) -> list[Ranked]:
        scores: dict[int, float] = defaultdict(float)
        for term in query_terms(query):
            idf = self._idf.get(term)
            for row, weight in self._postings.get(term, ()):
                scores[row] += idf * weight if idf else 0.0
        best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
        return [Ranked(row, score) for row, score in best]


def hard_negatives(
    ranked: Sequence[Ranked],
    chunks: Sequence[Chunk],
    positive: Chunk,
    source: Chunk | None,
    keep: int = KEEP,
) -> list[int]:
    """The first ``keep`` ranked chunks that are not an answer (indices, best first)."""
    barred = {section_key(positive)}
    if source is not None:
        barred.add(section_key(source))
    same = (positive.heading.lower(), positive.text.strip())
    out = []
    for item in ranked:
        chunk = chunks[item.chunk]
        if section_key(chunk) in barred or (chunk.heading.lower(), chunk.text.strip()) == same:
            continue
        out.append(item.chunk)
        if len(out) == keep:
            break
    return out


T = TypeVar("T")


def draw(negatives: Sequence[T], rng: random.Random, count: int) -> list[T]:
    """``count`` of a pair's stored negatives, at random (all of them when fewer)."""
    pool = list(negatives)
    return pool if len(pool) <= count else rng.sample(pool, count)
