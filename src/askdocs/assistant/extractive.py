"""The assistant without a chat model: it quotes the documentation and says it cannot act.

Pure: builds the reply from the sections retrieval found.
"""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.assistant.retrieval import LookupStatus
from askdocs.types import Hit

NO_MODEL = (
    "No chat model is configured for this assistant, so I can only point you to the "
    "documentation; I cannot write a tailored answer or take any actions."
)
EXCERPT_CHARS = 600
UNAVAILABLE: dict[LookupStatus, str] = {
    "still_indexing": "The documentation index is still being built, so I could not search it yet.",
    "timeout": "The documentation search took too long this time.",
    "unavailable": "The documentation search is unavailable right now.",
    "ok": "I found nothing in the documentation that matches your message.",
}


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return flat[: limit - 1].rsplit(" ", 1)[0] + "…"


def extractive_reply(hits: Sequence[Hit], status: LookupStatus) -> str:
    if not hits:
        return f"{NO_MODEL}\n\n{UNAVAILABLE[status]}"
    lines = [NO_MODEL, "", "The most relevant sections of the documentation:"]
    for hit in hits:
        name = f"{hit.title} — {hit.heading}" if hit.heading else hit.title
        lines += ["", f"**[{name}]({hit.url})**", "", f"> {excerpt(hit.text)}"]
    return "\n".join(lines)
