"""The match decision: calibrated dense threshold, and the keyword-only rule."""

from __future__ import annotations

from askdocs.search.threshold import (
    CALIBRATED,
    FALLBACK_THRESHOLD,
    dense_match,
    dense_threshold,
    keyword_match,
    term_overlap,
)


def test_configured_threshold_wins_over_calibrated() -> None:
    assert dense_threshold("local:all-MiniLM-L6-v2") == CALIBRATED["local:all-MiniLM-L6-v2"]
    assert dense_threshold("local:all-MiniLM-L6-v2", 0.9) == 0.9
    assert dense_threshold("unknown:model") == FALLBACK_THRESHOLD


def test_dense_match_uses_best_known_cosine() -> None:
    assert dense_match([0.2, None, 0.5], 0.45) == (True, 0.5)
    assert dense_match([0.2, 0.3], 0.45) == (False, 0.3)
    assert dense_match([None], 0.1) == (False, None)


def test_term_overlap_and_keyword_rule() -> None:
    text = "Call receive_json to read a WebSocket message."
    assert term_overlap("receive_json websocket", text) == 1.0
    assert term_overlap("prometheus metrics", text) == 0.0
    assert keyword_match("websocket receive_json message", ["nothing", text])
    assert not keyword_match("prometheus metrics exporter", [text])
    assert term_overlap("the and of", text) == 0.0


def test_a_configured_dimension_keeps_the_models_calibration() -> None:
    base = CALIBRATED["gemini:gemini-embedding-001"]
    assert dense_threshold("gemini:gemini-embedding-001@768") == base
    assert dense_threshold("gemini:gemini-embedding-001@1536") == base
    assert dense_threshold("openai-compatible:unknown@256") == FALLBACK_THRESHOLD
