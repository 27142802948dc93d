"""The gaps report's pure parts: grouping by word overlap (no embedding model), the
window parser, the draft page of a no-match group, and the most cited pages."""

from __future__ import annotations

from datetime import timedelta

import pytest

from askdocs.answer.records import AskRecord
from askdocs.answer.report import build_report, parse_since
from askdocs.db.models import utcnow


def record(question: str, *, matched: bool = True, url: str = "/docs/a#x") -> AskRecord:
    sources = [{"title": "A", "url": url, "heading": "X"}] if matched else []
    kind = "model" if matched else "no_match"
    return AskRecord("id", "docs", question, kind, matched, sources, False, None, None, utcnow())


def test_groups_without_an_embedding_model_use_word_overlap() -> None:
    records = [
        record("Can I export the docs to PDF?", matched=False),
        record("PDF export", matched=False),
        record("PDF export", matched=False),
        record("How do I install it?"),
    ]
    report = build_report(records, utcnow(), None)
    (gap,) = report.no_match_groups
    assert (gap.label, gap.count) == ("PDF export", 3)  # the most frequent wording
    assert gap.draft is not None
    assert gap.draft["path"] == "drafts/pdf-export.md"
    assert gap.draft["content"].startswith("---\ntitle: PDF export\n---\n")
    assert [g.count for g in report.most_asked] == [3, 1]
    assert report.pages_most_cited[0].url == "/docs/a"


@pytest.mark.parametrize(("text", "hours"), [("24h", 24), ("7d", 168), ("2w", 336)])
def test_since(text: str, hours: int) -> None:
    assert parse_since(text) == timedelta(hours=hours)


@pytest.mark.parametrize("text", ["", "7", "0d", "d", "7y", "-1d", "99999d"])
def test_bad_since(text: str) -> None:
    with pytest.raises(ValueError, match="24h, 7d or 2w"):
        parse_since(text)
