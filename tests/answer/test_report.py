"""The gaps report's pure parts: grouping by word overlap (no embedding model), the
window parser, the draft page of a no-match group, and the most cited pages."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from askdocs.answer.drafts import DraftScope, draft_page
from askdocs.answer.records import AskRecord
from askdocs.answer.report import build_report, parse_since
from askdocs.corpus.frontmatter import split_front_matter
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
    assert gap.draft["path"] == "drafts/pdf-export-docs.md"
    assert gap.draft["content"].startswith('---\ntitle: "PDF export docs"\n---\n')
    assert [g.count for g in report.most_asked] == [3, 1]
    assert report.pages_most_cited[0].url == "/docs/a"


HOSTILE = [
    'title: "owned"\n---\n<script>alert(1)</script> export PDF?',
    "ann.lee@example.com here: how do I export to PDF? [x](javascript:void(0))",
    "PDF export? # comment &anchor *alias !!python/object:os.system",
]


def test_draft_pages_summarise_visitors_questions_and_are_scoped() -> None:
    """Issue #27, defect 10: the draft names the words the questions share, never a
    visitor's wording; with a scope it targets that organisation's site and names it."""
    scope = DraftScope("org-a", frozenset({"a1", "a2"}))
    draft = draft_page(HOSTILE, 3, ["b1", "a1"], scope)
    assert draft is not None
    assert (draft["siteId"], draft["organisationId"]) == ("a1", "org-a")
    content = draft["content"]
    for question in HOSTILE:
        assert question not in content
    for fragment in ("ann.lee", "example.com", "<script>", "javascript", "python", "&anchor"):
        assert fragment not in content
    front = split_front_matter(content, draft["path"], ("en",)).front_matter
    assert front.title == "Export PDF"  # the words the questions share
    assert draft["path"] == "drafts/export-pdf.md"
    assert draft_page(HOSTILE, 3, ["b1"], scope) is None  # no site of that organisation
    records = [replace(record(q, matched=False), site_id="a2") for q in ("PDF export",) * 2]
    (gap,) = build_report(records, utcnow(), None, scope=scope).no_match_groups
    assert gap.draft is not None
    assert (gap.draft["siteId"], gap.draft["organisationId"]) == ("a2", "org-a")


@pytest.mark.parametrize(("text", "hours"), [("24h", 24), ("7d", 168), ("2w", 336)])
def test_since(text: str, hours: int) -> None:
    assert parse_since(text) == timedelta(hours=hours)


@pytest.mark.parametrize("text", ["", "7", "0d", "d", "7y", "-1d", "99999d"])
def test_bad_since(text: str) -> None:
    with pytest.raises(ValueError, match="24h, 7d or 2w"):
        parse_since(text)
