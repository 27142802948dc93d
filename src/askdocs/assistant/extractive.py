"""The assistant without a chat model: it quotes the documentation and says it cannot act.

Pure: builds the reply from the sections retrieval found, quoted exactly as Ask AI's
extractive answer quotes them (``askdocs.answer.extractive.quote``).
"""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.answer.extractive import quote
from askdocs.assistant.retrieval import LookupStatus
from askdocs.types import Hit

NO_MODEL = (
    "No chat model is configured for this assistant, so I can only point you to the "
    "documentation; I cannot write a tailored answer or take any actions."
)
UNAVAILABLE: dict[LookupStatus, str] = {
    "still_indexing": "The documentation index is still being built, so I could not search it yet.",
    "timeout": "The documentation search took too long this time.",
    "unavailable": "The documentation search is unavailable right now.",
    "ok": "I found nothing in the documentation that matches your message.",
}


def extractive_reply(hits: Sequence[Hit], status: LookupStatus) -> str:
    if not hits:
        return f"{NO_MODEL}\n\n{UNAVAILABLE[status]}"
    head = f"{NO_MODEL}\n\nThe most relevant sections of the documentation:\n\n"
    return (head + "".join(numbered(n, quote(hit)) for n, hit in enumerate(hits, 1))).rstrip()


def numbered(n: int, quoted: str) -> str:
    """The quote's title line followed by its source number, ``[n]`` (the drawer links it
    to the n-th source of the reply)."""
    title, rest = quoted.split("\n", 1)
    return f"{title} [{n}]\n{rest}"
