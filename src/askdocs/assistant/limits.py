"""Reply bounds (seed 002 "Reply length"): the token ceiling sent, and the visible markers.

Pure functions. The model's ceiling: on providers that charge reasoning to the same budget
(Anthropic, Gemini) the answer allowance plus ``reasoning_headroom_tokens``; elsewhere only
an explicitly configured ``max_output_tokens``, else none at all.
"""

from __future__ import annotations

from askdocs.settings import AssistantSettings

REASONING_PROVIDERS = frozenset({"anthropic", "gemini"})
USER_MESSAGE_EMPTY = "Message must not be empty"


def output_ceiling(settings: AssistantSettings, provider: str) -> int | None:
    if provider in REASONING_PROVIDERS:
        allowance = settings.max_output_tokens or settings.default_answer_tokens
        return allowance + settings.reasoning_headroom_tokens
    return settings.max_output_tokens


def model_truncation_marker(ceiling: int | None) -> str:
    if ceiling is None:
        return "\n\n[Reply cut short: the model reached its output limit.]"
    return f"\n\n[Reply cut short: the model reached its output limit of {ceiling} tokens.]"


def char_truncation_marker(max_chars: int) -> str:
    return f"\n\n[Reply truncated at {max_chars} characters.]"


def cap_reply(text: str, max_chars: int) -> tuple[str, bool]:
    """``text`` cut to ``max_chars`` (marker included) and whether it was cut."""
    if len(text) <= max_chars:
        return text, False
    marker = char_truncation_marker(max_chars)
    return text[: max(0, max_chars - len(marker))] + marker, True


def message_problem(message: str, max_chars: int) -> str | None:
    """Why a user message is refused (400), or None when it is acceptable."""
    if not message.strip():
        return USER_MESSAGE_EMPTY
    if len(message) > max_chars:
        return f"Message must not be longer than {max_chars} characters"
    return None


class ReplyBuffer:
    """The visible reply as it streams, cut so that text plus marker fits ``max_chars``.

    ``add`` returns the part of a delta that may be shown; ``close`` returns the marker to
    append (the character marker wins when both bounds bite).
    """

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars
        self._budget = max(0, max_chars - len(char_truncation_marker(max_chars)))
        self._parts: list[str] = []
        self._size = 0
        self.cut = False

    @property
    def text(self) -> str:
        return "".join(self._parts)

    def add(self, delta: str) -> str:
        if self.cut or not delta:
            return ""
        room = self._budget - self._size
        piece = delta if len(delta) <= room else delta[:room]
        self.cut = len(piece) < len(delta)
        self._parts.append(piece)
        self._size += len(piece)
        return piece

    def close(self, reason: str, ceiling: int | None) -> str:
        if self.cut:
            marker = char_truncation_marker(self.max_chars)
        elif reason == "length":
            marker = model_truncation_marker(ceiling)
        else:
            return ""
        self._parts.append(marker)
        return marker
