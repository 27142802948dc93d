"""Eval metrics: section-level hit@k, MRR, nDCG with dedupe, page hit, abstention."""

from __future__ import annotations

import math

import pytest

from askdocs.search.metrics import (
    Judged,
    dedupe,
    hit_at,
    ndcg,
    page_hit_at,
    reciprocal_rank,
    report,
)

A, B, C, D = ("a.md", "A"), ("a.md", "B"), ("c.md", "C"), ("d.md", "D")


def test_dedupe_keeps_first_occurrence() -> None:
    assert dedupe([A, A, B, A, C]) == (A, B, C)


def test_hit_any_label_in_top_k() -> None:
    assert hit_at([C, B, A], [A, D], 3) == 1.0
    assert hit_at([C, B, A], [A, D], 2) == 0.0


def test_mrr_uses_first_relevant_rank() -> None:
    assert reciprocal_rank([C, B, A], [B, A], 10) == 0.5
    assert reciprocal_rank([C], [A], 10) == 0.0


def test_ndcg_binary_gains_over_labels() -> None:
    assert ndcg([A, B], [A, B], 10) == pytest.approx(1.0)
    expected = (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    assert ndcg([C, A], [A, B], 10) == pytest.approx(expected)


def test_page_hit_counts_distinct_pages() -> None:
    assert page_hit_at([B, C], [A], 1) == 1.0  # same page as the label
    assert page_hit_at([C, D, B], [A], 2) == 0.0


def test_report_dedupes_and_scores_abstention() -> None:
    judged = [
        Judged("1", "paraphrase", (B,), (A, A, A, B), True),  # B is rank 2 after dedupe
        Judged("2", "keyword", (C,), (C,), False),
        Judged("3", "unanswerable", (), (D,), False),
        Judged("4", "unanswerable", (), (D,), True),
    ]
    r = report(judged)
    assert (r.questions, r.answerable, r.unanswerable) == (4, 2, 2)
    assert r.hit_at_1 == 0.5
    assert r.hit_at_5 == 1.0
    assert r.mrr_at_10 == 0.75
    assert r.abstained_unanswerable == 0.5
    assert r.matched_answerable == 0.5
