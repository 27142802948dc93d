"""An introducing section pulls up its first sub-section (search.intros)."""

from __future__ import annotations

from askdocs.chunking import INTRO_MAX_CHARS
from askdocs.search.hits import Candidate
from askdocs.search.intros import Shown, follow_intros, is_first_child, is_intro
from askdocs.types import Chunk


def chunk(
    trail: tuple[str, ...], text: str, slug: str = "page", part: int = 0, context: str = ""
) -> Chunk:
    heading = trail[-1]
    return Chunk(
        site="s",
        path=f"{slug}.md",
        slug=slug,
        title="T",
        heading=heading,
        heading_trail=trail,
        section_id=heading.lower(),
        anchor=heading.lower(),
        url=f"/docs/{slug}#{heading.lower()}",
        audience="user",
        locale="en",
        part=part,
        text=text,
        context=context,
    )


def shown(*chunks: Chunk) -> list[Shown]:
    return [(Candidate(c, 1.0 - i / 10, 0.5), 0.5) for i, c in enumerate(chunks)]


def headings(entries: list[Shown]) -> list[str]:
    return [candidate.chunk.heading for candidate, _ in entries]


INTRO = chunk(("T", "Override"), "You can override the handlers.")
FIRST = chunk(("T", "Override", "Validation"), "Use it.", context="You can override the handlers.")
SECOND = chunk(("T", "Override", "Other"), "Another way.")
OTHER = chunk(("T", "Elsewhere"), "Unrelated.")


def test_first_sub_section_moves_right_before_its_intro() -> None:
    ranked = shown(OTHER, INTRO, SECOND, chunk(("U", "X"), "x", slug="u"), FIRST)
    assert headings(follow_intros(ranked, 3)) == [
        "Elsewhere",
        "Validation",
        "Override",
        "Other",
        "X",
    ]


def test_an_intro_at_the_edge_of_the_window_still_pulls() -> None:
    filler = [chunk(("F", f"F{i}"), "f", slug=f"f{i}") for i in range(4)]
    ranked = shown(*filler, INTRO, OTHER, FIRST)
    moved = headings(follow_intros(ranked, 5))
    assert moved == ["F0", "F1", "F2", "F3", "Validation", "Override", "Elsewhere"]
    assert follow_intros(ranked, 4) == ranked  # the intro is 5th: outside a window of 4


def test_only_intros_among_the_first_hits_pull() -> None:
    ranked = shown(OTHER, SECOND, INTRO, FIRST)
    assert follow_intros(ranked, 2) == ranked
    assert follow_intros(shown(INTRO, OTHER, FIRST), 0) == shown(INTRO, OTHER, FIRST)


def test_a_sub_section_already_above_stays_where_it_is() -> None:
    ranked = shown(FIRST, OTHER, INTRO)
    assert follow_intros(ranked, 3) == ranked


def test_what_counts_as_intro_and_first_child() -> None:
    assert is_intro(INTRO)
    assert not is_intro(chunk(("T", "Long"), "w " * INTRO_MAX_CHARS))
    assert not is_intro(chunk(("T", "Blank"), "  "))
    assert is_first_child(FIRST, INTRO)
    assert not is_first_child(SECOND, INTRO)  # does not open with the intro
    assert not is_first_child(OTHER, INTRO)  # a sibling
    moved = chunk(("T", "Override", "Validation"), FIRST.text, slug="other")
    assert not is_first_child(moved, INTRO)  # another page
    deep = chunk(("T", "Override", "Validation", "Deep"), FIRST.text)
    assert not is_first_child(deep, INTRO)  # not a direct sub-section
