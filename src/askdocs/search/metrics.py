"""Retrieval metrics for ``askdocs eval``: section-level hit@k, MRR, nDCG, abstention. Pure.

A result is a (path, heading) pair; labels are the same pairs. Results are deduplicated by
(path, heading) before scoring (several chunks of one section count once, at the rank of
the first). A question with several labels is a hit when any label is in the top k; MRR
takes the first relevant rank; nDCG uses binary gains over the labels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Section = tuple[str, str]  # (path, heading)


@dataclass(frozen=True)
class Judged:
    """One evaluated question: its labels, its ranked results and its match decision."""

    id: str
    kind: str
    labels: tuple[Section, ...]  # empty: the question is unanswerable
    results: tuple[Section, ...]
    match: bool

    @property
    def answerable(self) -> bool:
        return bool(self.labels)


@dataclass(frozen=True)
class Report:
    questions: int
    answerable: int
    unanswerable: int
    hit_at_1: float
    hit_at_5: float
    mrr_at_10: float
    ndcg_at_10: float
    page_hit_at_5: float
    abstained_unanswerable: float  # share of unanswerable questions with match=false
    matched_answerable: float  # share of answerable questions with match=true


def dedupe(results: Iterable[Section]) -> tuple[Section, ...]:
    return tuple(dict.fromkeys(results))


def first_rank(results: Sequence[Section], labels: Sequence[Section], k: int) -> int | None:
    """1-based rank of the first relevant result within the top ``k``, if any."""
    wanted = set(labels)
    for rank, result in enumerate(results[:k], start=1):
        if result in wanted:
            return rank
    return None


def hit_at(results: Sequence[Section], labels: Sequence[Section], k: int) -> float:
    return 1.0 if first_rank(results, labels, k) is not None else 0.0


def reciprocal_rank(results: Sequence[Section], labels: Sequence[Section], k: int) -> float:
    rank = first_rank(results, labels, k)
    return 1.0 / rank if rank is not None else 0.0


def ndcg(results: Sequence[Section], labels: Sequence[Section], k: int) -> float:
    wanted = set(labels)
    dcg = sum(
        1.0 / math.log2(rank + 1)
        for rank, result in enumerate(results[:k], start=1)
        if result in wanted
    )
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(wanted), k) + 1))
    return dcg / ideal if ideal else 0.0


def page_hit_at(results: Sequence[Section], labels: Sequence[Section], k: int) -> float:
    pages = list(dict.fromkeys(path for path, _ in results))
    wanted = {path for path, _ in labels}
    return 1.0 if any(page in wanted for page in pages[:k]) else 0.0


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def report(judged: Sequence[Judged]) -> Report:
    """Aggregate the metrics; ranking figures are over answerable questions only."""
    answerable = [j for j in judged if j.answerable]
    unanswerable = [j for j in judged if not j.answerable]
    ranked = [(dedupe(j.results), j.labels) for j in answerable]
    return Report(
        questions=len(judged),
        answerable=len(answerable),
        unanswerable=len(unanswerable),
        hit_at_1=_mean([hit_at(r, labels, 1) for r, labels in ranked]),
        hit_at_5=_mean([hit_at(r, labels, 5) for r, labels in ranked]),
        mrr_at_10=_mean([reciprocal_rank(r, labels, 10) for r, labels in ranked]),
        ndcg_at_10=_mean([ndcg(r, labels, 10) for r, labels in ranked]),
        page_hit_at_5=_mean([page_hit_at(r, labels, 5) for r, labels in ranked]),
        abstained_unanswerable=_mean([0.0 if j.match else 1.0 for j in unanswerable]),
        matched_answerable=_mean([1.0 if j.match else 0.0 for j in answerable]),
    )
