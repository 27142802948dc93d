"""What Ask AI searches for (pure): the last question, joined with the one before when short.

"and in Vite?" alone finds nothing; joined with the earlier question it finds the right page.
"""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.llm.types import ChatMessage


def search_text(messages: Sequence[ChatMessage], min_words: int = 5) -> str:
    questions = [m.content.strip() for m in messages if m.role == "user" and m.content.strip()]
    if not questions:
        return ""
    last = questions[-1]
    if len(last.split()) < min_words and len(questions) > 1:
        return f"{questions[-2]} {last}"
    return last
