"""How search results and eval reports are written out (CLI JSON and text). Pure."""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.search.metrics import Report
from askdocs.types import Hit, SearchResult

JsonObject = dict[str, object]


def hit_json(hit: Hit) -> JsonObject:
    """One result of ``search --json`` / ``--batch``: path relative to the indexed root."""
    return {
        "path": hit.path,
        "heading": hit.heading,
        "slug": hit.slug,
        "section_id": hit.section_id,
        "kind": hit.kind,
        "anchor": hit.anchor,
        "url": hit.url,
        "title": hit.title,
        "score": round(hit.score, 6),
        "text": hit.text,
    }


def batch_line(question_id: str, result: SearchResult) -> JsonObject:
    """One output line of ``search --batch``."""
    return {
        "id": question_id,
        "match": result.match,
        "results": [hit_json(hit) for hit in result.hits],
    }


def result_json(query: str, site: str, result: SearchResult) -> JsonObject:
    """``search --json`` for one query: the batch fields plus how the search ran."""
    return {
        "query": query,
        "site": site,
        "match": result.match,
        "mode": result.mode,
        "reason": result.reason,
        "coverage": round(result.coverage, 4),
        "best_dense": None if result.best_dense is None else round(result.best_dense, 4),
        "collection": result.collection,
        "results": [
            {**hit_json(hit), "locale": hit.locale, "translated": hit.translated}
            for hit in result.hits
        ],
    }


def result_lines(result: SearchResult) -> list[str]:
    """The human form of one search: a status line, then one line per hit."""
    status = "match" if result.match else "no match"
    lines = [f"{status} · {result.mode}" + (f" · {result.reason}" if result.reason else "")]
    for rank, hit in enumerate(result.hits, start=1):
        where = f"{hit.path}#{hit.anchor}" if hit.anchor else hit.path
        lines.append(f"{rank:2}. {hit.title} — {hit.heading}  ({where})  {hit.score:.4f}")
    return lines


def report_json(report: Report) -> JsonObject:
    return {
        "questions": report.questions,
        "answerable": report.answerable,
        "unanswerable": report.unanswerable,
        "hit@1": round(report.hit_at_1, 4),
        "hit@5": round(report.hit_at_5, 4),
        "mrr@10": round(report.mrr_at_10, 4),
        "ndcg@10": round(report.ndcg_at_10, 4),
        "page_hit@5": round(report.page_hit_at_5, 4),
        "abstention": {
            "unanswerable_no_match": round(report.abstained_unanswerable, 4),
            "answerable_match": round(report.matched_answerable, 4),
        },
    }


def report_lines(report: Report) -> list[str]:
    """The text ``askdocs eval`` prints."""
    rows: Sequence[tuple[str, float]] = (
        ("hit@1", report.hit_at_1),
        ("hit@5", report.hit_at_5),
        ("MRR@10", report.mrr_at_10),
        ("nDCG@10", report.ndcg_at_10),
        ("page hit@5", report.page_hit_at_5),
    )
    lines = [
        f"questions: {report.questions} ({report.answerable} answerable, "
        f"{report.unanswerable} unanswerable)",
        "section level (path + heading), answerable questions:",
    ]
    lines += [f"  {name:<11} {value:.3f}" for name, value in rows]
    lines += [
        "abstention:",
        f"  unanswerable with match=false  {report.abstained_unanswerable:.3f}",
        f"  answerable with match=true     {report.matched_answerable:.3f}",
    ]
    return lines
