"""Re-ranking distinct sections: changelogs below guides, a cap of sections per page."""

from __future__ import annotations

from dataclasses import replace

from askdocs.search.hits import Candidate
from askdocs.search.ranking import cap_per_page, clear_winner_first, demote_changelogs, rerank
from tests.search.test_hits import chunk

Shown = tuple[Candidate, float | None]


def entry(section: str, slug: str = "page", kind: str = "guide") -> Shown:
    return (Candidate(replace(chunk(section, slug=slug), kind=kind), 1.0, 0.5), 0.5)


def names(shown: list[Shown]) -> list[str]:
    return [f"{c.chunk.slug}#{c.chunk.heading}" for c, _ in shown]


def test_changelog_sections_go_below_guides_in_order() -> None:
    shown = [entry("0.2", "notes", "changelog"), entry("A"), entry("0.1", "notes", "changelog")]
    shown.append(entry("B", "other"))
    assert names(demote_changelogs(shown, "how do I add a header")) == [
        "page#A",
        "other#B",
        "notes#0.2",
        "notes#0.1",
    ]


def test_a_question_about_versions_keeps_changelogs_in_place() -> None:
    shown = [entry("0.2", "notes", "changelog"), entry("A")]
    assert names(demote_changelogs(shown, "what changed in 0.2")) == ["notes#0.2", "page#A"]


def test_cap_moves_further_sections_of_a_page_to_the_end() -> None:
    shown = [entry("A"), entry("B"), entry("C"), entry("X", "other"), entry("D")]
    assert names(cap_per_page(shown, 2)) == [
        "page#A",
        "page#B",
        "other#X",
        "page#C",
        "page#D",
    ]
    assert names(cap_per_page(shown, 0)) == names(shown)


def test_rerank_demotes_then_caps() -> None:
    shown = [entry("1.0", "notes", "changelog"), entry("A"), entry("B"), entry("X", "other")]
    got = rerank(shown, "add a header", demote=True, per_page=1)
    assert names(got) == ["page#A", "other#X", "notes#1.0", "page#B"]
    assert names(rerank(shown, "add a header", demote=False, per_page=0)) == names(shown)


def scored(section: str, cosine: float | None, slug: str = "page") -> Shown:
    return (Candidate(chunk(section, slug=slug), 1.0, cosine), cosine)


def test_a_clear_dense_winner_moves_to_the_top() -> None:
    shown = [scored("A", 0.50), scored("B", 0.62), scored("C", 0.40, "other")]
    assert names(clear_winner_first(shown, 0.08)) == ["page#B", "page#A", "other#C"]


def test_a_close_dense_race_keeps_the_fused_order() -> None:
    shown = [scored("A", 0.50), scored("B", 0.55), scored("C", None)]
    assert clear_winner_first(shown, 0.08) == shown
    assert clear_winner_first(shown, 0.0) == shown  # 0 turns the rule off


def test_the_winner_already_first_or_too_few_cosines_change_nothing() -> None:
    first = [scored("A", 0.70), scored("B", 0.30)]
    assert clear_winner_first(first, 0.08) == first
    lonely = [scored("A", None), scored("B", 0.9)]
    assert clear_winner_first(lonely, 0.08) == lonely


def test_scores_fall_down_the_list_after_a_move() -> None:
    shown = [
        (Candidate(chunk("A"), 0.5, 0.4), 0.4),
        (Candidate(chunk("B"), 0.9, 0.3), 0.3),
        (Candidate(chunk("C", slug="other"), 0.2, 0.7), 0.7),
    ]
    moved = clear_winner_first(shown, 0.08)
    assert names(moved) == ["other#C", "page#A", "page#B"]
    dealt = rerank(moved, "how do I", demote=True, per_page=0)
    assert names(dealt) == names(moved)
    assert [c.score for c, _ in dealt] == [0.9, 0.5, 0.2]
    assert [cosine for _, cosine in dealt] == [0.7, 0.4, 0.3]
