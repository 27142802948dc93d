"""Locale fallback and dedupe of parts and locale variants."""

from __future__ import annotations

from askdocs.search.hits import Candidate, by_score, collapse, search_locales, to_hit
from askdocs.types import Chunk


def chunk(section: str, locale: str = "en", part: int = 0, slug: str = "page") -> Chunk:
    return Chunk(
        site="s",
        path=f"{slug}.md" if locale == "en" else f"{slug}.{locale}.md",
        slug=slug,
        title="T",
        heading=section,
        heading_trail=(section,),
        section_id=section.lower(),
        anchor=section.lower(),
        url=f"/docs/{slug}#{section.lower()}",
        audience="user",
        locale=locale,
        part=part,
        text=f"{section} {locale} {part}",
    )


def test_search_locales_with_fallback() -> None:
    assert search_locales(None, "en") == ("en",)
    assert search_locales("en", "en") == ("en",)
    assert search_locales("cs", "en") == ("cs", "en")


def test_parts_of_one_section_collapse_to_the_best_rank() -> None:
    found = [
        Candidate(chunk("A", part=1), 0.9, 0.4),
        Candidate(chunk("B"), 0.8, 0.7),
        Candidate(chunk("A", part=0), 0.7, 0.6),
    ]
    shown = collapse(found, None, 10)
    assert [c.chunk.heading for c, _ in shown] == ["A", "B"]
    assert shown[0][0].chunk.part == 1
    assert shown[0][1] == 0.6


def test_requested_locale_variant_is_displayed_at_the_best_rank() -> None:
    found = [
        Candidate(chunk("A", "en"), 0.9, 0.5),
        Candidate(chunk("B", "en"), 0.8, 0.4),
        Candidate(chunk("A", "cs"), 0.7, 0.3),
    ]
    shown = collapse(found, "cs", 10)
    assert [(c.chunk.heading, c.chunk.locale, c.score) for c, _ in shown] == [
        ("A", "cs", 0.9),
        ("B", "en", 0.8),
    ]
    hits = [to_hit(c, "cs") for c, _ in shown]
    assert [h.translated for h in hits] == [True, False]


def test_limit_applies_after_dedupe() -> None:
    found = [Candidate(chunk("A", part=p), 1 - p / 10, None) for p in range(5)]
    found.append(Candidate(chunk("B"), 0.1, None))
    assert [c.chunk.heading for c, _ in collapse(found, None, 2)] == ["A", "B"]
    assert len(collapse(found, None, 1)) == 1


def test_equal_fused_scores_are_ordered_by_cosine() -> None:
    a = Candidate(chunk("A"), 0.5, 0.40)
    b = Candidate(chunk("B"), 0.5, 0.66)
    c = Candidate(chunk("C"), 0.9, None)
    d = Candidate(chunk("D"), 0.5, None)
    assert by_score([a, d, b, c]) == [c, b, a, d]
    assert by_score([b, a]) == by_score([a, b])  # the engine's order of ties does not matter
