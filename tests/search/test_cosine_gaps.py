"""Which shown sections need their vectors read (``search.cosines``). Pure."""

from __future__ import annotations

from askdocs.index import ScoredChunk
from askdocs.search.cosines import needing, with_best
from askdocs.search.hits import Candidate, section_key
from tests.search.test_followup import result
from tests.search.test_hits import chunk


def shown(*entries: tuple[str, float | None]) -> list[tuple[Candidate, float | None]]:
    return [(Candidate(chunk(name), 1.0, cosine), cosine) for name, cosine in entries]


def test_one_search_needs_only_sections_without_any_score() -> None:
    once = result(("A", 0.5), ("B", None), ("C", None))
    # a section with a scored chunk is exact: an unscored one ranks below every score
    assert needing(shown(("A", 0.5), ("B", None)), [once]) == {section_key(chunk("B"))}
    assert needing(shown(("A", 0.5)), [once]) == set()


def test_a_follow_up_needs_every_section_with_an_unscored_chunk() -> None:
    joined, alone = result(("A", 0.5), ("B", 0.4)), result(("A", None), ("B", 0.3))
    # A's chunk may score higher against the follow-up alone than the joined score says
    assert needing(shown(("A", 0.5), ("B", 0.4)), [joined, alone]) == {section_key(chunk("A"))}


def test_sections_take_the_best_filled_cosine() -> None:
    filled = [ScoredChunk(chunk("A"), 1.0, 0.2), ScoredChunk(chunk("A"), 1.0, 0.6)]
    keys = {section_key(chunk("A"))}
    out = with_best(shown(("A", 0.5), ("B", 0.4)), filled, keys)
    assert [cosine for _, cosine in out] == [0.6, 0.4]
