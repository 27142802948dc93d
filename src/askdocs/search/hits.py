"""From scored chunks to hits: locale fallback, variant and part dedupe, limits. Pure.

A search in locale L reads L and the site's default locale (English unless configured).
Equivalent sections (same page slug and section id) found in several locales, or in
several parts, collapse into one hit at the best rank among them. The hit shows the
requested-locale variant when that variant was found, else the fallback, labelled
``translated=False``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from askdocs.types import Chunk, Hit


@dataclass(frozen=True)
class Candidate:
    """A scored chunk as the store returned it (best first)."""

    chunk: Chunk
    score: float
    dense: float | None


def by_score(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Best fused score first; equal scores (rank fusion gives many) ordered by cosine, so the
    order does not depend on the order the engine returned ties in. Otherwise stable."""

    def key(candidate: Candidate) -> tuple[float, float]:
        cosine = candidate.dense if candidate.dense is not None else -2.0
        return (-candidate.score, -cosine)

    return sorted(candidates, key=key)


def search_locales(locale: str | None, fallback: str) -> tuple[str, ...]:
    """The locales a search reads: the requested one, then the fallback."""
    if locale is None or locale == fallback:
        return (fallback,)
    return (locale, fallback)


def section_key(chunk: Chunk) -> tuple[str, str, str]:
    """What makes two chunks the same section for display: site, page slug, section id."""
    return (chunk.site, chunk.slug, chunk.section_id)


def collapse(
    candidates: Sequence[Candidate], locale: str | None, limit: int
) -> list[tuple[Candidate, float | None]]:
    """Best-first distinct sections, each as its display variant plus the best cosine
    among its chunks; at most ``limit``."""
    order: list[tuple[str, str, str]] = []
    shown: dict[tuple[str, str, str], Candidate] = {}
    best_dense: dict[tuple[str, str, str], float | None] = {}
    for candidate in candidates:
        key = section_key(candidate.chunk)
        if key not in shown:
            order.append(key)
            shown[key] = candidate
            best_dense[key] = candidate.dense
            continue
        best_dense[key] = _max(best_dense[key], candidate.dense)
        if _prefer(candidate.chunk, shown[key].chunk, locale):
            shown[key] = Candidate(candidate.chunk, shown[key].score, shown[key].dense)
    return [(shown[key], best_dense[key]) for key in order[:limit]]


def _prefer(new: Chunk, old: Chunk, locale: str | None) -> bool:
    """True when ``new`` is the requested-locale variant and ``old`` is not."""
    return locale is not None and new.locale == locale and old.locale != locale


def _max(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    return a if b is None else max(a, b)


def to_hit(candidate: Candidate, locale: str | None, cosine: float | None = None) -> Hit:
    """The hit for a candidate; ``cosine`` is the best one among its section's chunks."""
    chunk = candidate.chunk
    translated = locale is None or chunk.locale == locale
    return Hit(
        site=chunk.site,
        path=chunk.path,
        slug=chunk.slug,
        title=chunk.title,
        heading=chunk.heading,
        heading_trail=chunk.heading_trail,
        section_id=chunk.section_id,
        anchor=chunk.anchor,
        url=chunk.url,
        audience=chunk.audience,
        locale=chunk.locale,
        text=chunk.text,
        score=candidate.score,
        translated=translated,
        chunk_id=chunk.id,
        cosine=cosine,
        kind=chunk.kind,
    )
