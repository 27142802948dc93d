"""The per-section floor: which hits may reach a model."""

from __future__ import annotations

from dataclasses import replace

from askdocs.search.floor import above_floor, clears
from askdocs.search.hits import Candidate, to_hit
from askdocs.types import Hit
from tests.search.test_hits import chunk


def hit(heading: str, cosine: float | None, text: str = "") -> Hit:
    base = to_hit(Candidate(chunk(heading), 1.0, cosine), None, cosine)
    return replace(base, text=text or f"About {heading}.")


def test_hybrid_hits_need_the_cosine_floor() -> None:
    hits = [hit("Upload files", 0.62), hit("Unrelated", 0.088), hit("Forms", 0.41)]
    kept = above_floor(hits, 0.35, "how do I accept an uploaded file in an endpoint")
    assert [h.heading for h in kept] == ["Upload files", "Forms"]


def test_keyword_query_keeps_a_low_cosine_section_holding_every_term() -> None:
    exact = hit("Middleware", 0.12, "Set GZipMiddleware minimum_size to 1000.")
    other = hit("Other", 0.2, "Nothing about compression.")
    assert clears(exact, 0.35, "GZipMiddleware minimum_size")
    assert not clears(other, 0.35, "GZipMiddleware minimum_size")


def test_keyword_only_mode_uses_the_term_share() -> None:
    words = hit("Timeouts", None, "Configure the connect timeout and the read timeout.")
    assert clears(words, None, "read timeout configuration")
    assert not clears(words, None, "prometheus metrics exporter")
