"""The match decision: would Ask AI answer this question from these hits? Pure.

Hybrid mode decides on meaning: the best cosine similarity between the query and the top
hits must reach a threshold calibrated for the embedding model (seed 001 uses 0.6 for its
Gemini model; MiniLM's cosines sit lower). Keyword-only mode has no cosine, so it decides
on words: enough of the query's terms must appear in the best hit. See docs/search.md for
how both values were calibrated.
"""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.search.lexical import analyze

# model id -> calibrated cosine threshold (docs/search.md, "Match threshold").
CALIBRATED: dict[str, float] = {
    "local:all-MiniLM-L6-v2": 0.35,
    "local:all-MiniLM-L6-v2-int8": 0.35,  # cosines within 0.02 of float32's (docs/search.md)
    # the docs-tuned model (issue #32): provisionally the base model's value, until
    # train.abstain calibrates it on the mined data (docs/encoder-training.md)
    "local:minilm-l6-docs": 0.35,
    "local:minilm-l6-docs-int8": 0.35,
    "gemini:gemini-embedding-001": 0.6,  # seed 001's value for its model
}
FALLBACK_THRESHOLD = 0.5  # a model nobody calibrated: cosines of unrelated text sit lower
KEYWORD_MATCH_RATIO = 0.6  # keyword-only: share of query terms the best hit must contain


def base_model_id(model_id: str) -> str:
    """``gemini:gemini-embedding-001@768`` -> ``gemini:gemini-embedding-001``: a configured
    dimension (Matryoshka truncation) keeps the model's cosine scale."""
    return model_id.split("@", 1)[0]


def dense_threshold(model_id: str, configured: float | None = None) -> float:
    """The configured threshold, else the calibrated one for ``model_id`` (with or without
    its ``@dimension`` suffix), else ``FALLBACK_THRESHOLD``."""
    if configured is not None:
        return configured
    if model_id in CALIBRATED:
        return CALIBRATED[model_id]
    return CALIBRATED.get(base_model_id(model_id), FALLBACK_THRESHOLD)


def dense_match(cosines: Sequence[float | None], threshold: float) -> tuple[bool, float | None]:
    """(match, best cosine) over the cosines of the top hits."""
    known = [c for c in cosines if c is not None]
    best = max(known) if known else None
    return (best is not None and best >= threshold), best


def term_overlap(query: str, hit_text: str, locale: str = "en") -> float:
    """The share of the query's unique terms that occur in ``hit_text``."""
    wanted = set(analyze(query, locale))
    if not wanted:
        return 0.0
    present = set(analyze(hit_text, locale))
    return len(wanted & present) / len(wanted)


def keyword_match(
    query: str, hit_texts: Sequence[str], locale: str = "en", ratio: float = KEYWORD_MATCH_RATIO
) -> bool:
    """Keyword-only rule: some top hit holds at least ``ratio`` of the query's terms."""
    return any(term_overlap(query, text, locale) >= ratio for text in hit_texts)
