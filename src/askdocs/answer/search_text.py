"""Ask AI's questions as the engine's search input (pure). The follow-up rule itself is
``askdocs.search.query.search_text`` (one rule for Ask AI, search history and the CLI):
the last question is searched with the one before it (``search.followup_join``)."""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.llm.types import ChatMessage
from askdocs.search import query


def user_questions(messages: Sequence[ChatMessage]) -> list[str]:
    return [m.content.strip() for m in messages if m.role == "user" and m.content.strip()]


def search_text(
    messages: Sequence[ChatMessage], min_words: int = 5, join: query.FollowupJoin = "always"
) -> str:
    """What the engine searches for these messages (the one follow-up rule applied)."""
    questions = user_questions(messages)
    if not questions:
        return ""
    return query.search_text(questions[-1], questions[:-1], min_words, join).text
