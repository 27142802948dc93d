"""The answer without a chat model (pure): the best sections, quoted and cited.

Used when no chat provider is configured, by Ask AI and (through ``quote``) by the
assistant. It never generates text: it says plainly that what follows is quoted
documentation, quotes the top sections (trimmed at a paragraph or sentence boundary) and
links each one.
"""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.types import Hit

INTRO = (
    "No AI model is configured, so here are the most relevant passages of the documentation, "
    "quoted as written:\n\n"
)
MAX_EXCERPTS = 3
MAX_EXCERPT_CHARS = 700


def extractive_pieces(
    hits: Sequence[Hit], max_excerpts: int = MAX_EXCERPTS, max_chars: int = MAX_EXCERPT_CHARS
) -> list[str]:
    """The reply in pieces (one per quoted section), ready to stream."""
    pieces = [INTRO]
    seen: set[str] = set()
    for hit in hits:
        if hit.chunk_id and hit.chunk_id in seen:
            continue
        seen.add(hit.chunk_id)
        pieces.append(quote(hit, max_chars))
        if len(pieces) > max_excerpts:
            break
    return pieces


def quote(hit: Hit, max_chars: int = MAX_EXCERPT_CHARS) -> str:
    """One section quoted as written, with a link to it: the one extractive quote that Ask
    AI and the assistant (without a chat model) both use."""
    label = (
        f"{hit.title} › {hit.heading}" if hit.heading and hit.heading != hit.title else hit.title
    )
    quoted = "\n".join(
        f"> {line}" if line else ">" for line in close_fences(trim(hit.text, max_chars)).split("\n")
    )
    return f"**[{label}]({hit.url})**\n\n{quoted}\n\n"


def trim(text: str, max_chars: int) -> str:
    """``text`` cut to at most ``max_chars`` at a paragraph, else sentence, else word break."""
    text = text.strip()
    if len(text) <= max_chars:
        return text
    head = text[:max_chars]
    for mark in ("\n\n", ". ", "\n", " "):
        cut = head.rfind(mark)
        if cut > max_chars // 2:
            return head[: cut + (1 if mark == ". " else 0)].rstrip() + " …"
    return head.rstrip() + " …"


def close_fences(text: str) -> str:
    """Close a fenced code block left open by trimming."""
    fences = sum(1 for line in text.split("\n") if line.lstrip().startswith("```"))
    return f"{text}\n```" if fences % 2 else text
