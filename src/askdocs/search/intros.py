"""Introducing sections pull up their first sub-section. Pure.

A short section that only introduces its sub-sections ("## Override the default handlers"
with one sentence before its first "###") often outranks the sub-section that holds the
answer: it shares the question's general words and little else. The chunker gives the
first sub-section of such a section the introduction as its ``context``
(``chunking.with_intros``), so the sub-section holds everything the introduction says and
the answer besides. Here, when an introducing section is among the first ``top`` hits and
its first sub-section was found further down, that sub-section moves up to directly before
it. Nothing else changes order.

Measured on the three development sets (docs/search.md, "What each change did"): placing
the sub-section before its introduction instead of after it, with ``top`` 5 instead of 3,
took macro hit@5 from 0.889 to 0.898 and MRR@10 from 0.712 to 0.716 (fastapi 0.853 -> 0.882
hit@5).
"""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.chunking import INTRO_MAX_CHARS
from askdocs.search.hits import Candidate
from askdocs.types import Chunk

Shown = tuple[Candidate, float | None]


def follow_intros(shown: Sequence[Shown], top: int) -> list[Shown]:
    """``shown`` (best first, one entry per section) with the first sub-section of each
    introducing section among the first ``top`` entries placed right before it."""
    out: list[Shown] = []
    placed: set[int] = set()
    for index, entry in enumerate(shown):
        if index in placed:
            continue
        placed.add(index)
        if index < top and is_intro(entry[0].chunk):
            child = _first_child(shown, entry[0].chunk, placed)
            if child is not None:
                out.append(shown[child])
                placed.add(child)
        out.append(entry)
    return out


def is_intro(chunk: Chunk) -> bool:
    """A whole short section (one part) that may introduce sub-sections."""
    text = chunk.text.strip()
    return chunk.part == 0 and bool(text) and len(text) <= INTRO_MAX_CHARS


def is_first_child(child: Chunk, parent: Chunk) -> bool:
    """``child`` is the direct sub-section that opens with ``parent``'s introduction."""
    same_page = (child.site, child.slug, child.locale) == (parent.site, parent.slug, parent.locale)
    trail, own = child.heading_trail, parent.heading_trail
    nested = len(trail) == len(own) + 1 and trail[:-1] == own
    return same_page and nested and child.part == 0 and child.context == parent.text.strip()


def _first_child(shown: Sequence[Shown], parent: Chunk, placed: set[int]) -> int | None:
    return next(
        (
            i
            for i, (candidate, _) in enumerate(shown)
            if i not in placed and is_first_child(candidate.chunk, parent)
        ),
        None,
    )
