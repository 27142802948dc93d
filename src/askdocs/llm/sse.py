"""Server-sent events, decoded line by line (pure: no I/O).

Follows the WHATWG rules the vendors' streams use: ``event:`` names the event, ``data:``
lines accumulate (joined with newlines), a blank line dispatches, ``:`` lines are comments.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SSEEvent:
    event: str
    data: str


class SSEDecoder:
    """Feed it lines without their line ending; it returns an event when one is complete."""

    def __init__(self) -> None:
        self._event = ""
        self._data: list[str] = []

    def feed(self, line: str) -> SSEEvent | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        return None

    def flush(self) -> SSEEvent | None:
        """The last event when the stream ended without a blank line."""
        return self._dispatch()

    def _dispatch(self) -> SSEEvent | None:
        if not self._data:
            self._event = ""
            return None
        event = SSEEvent(self._event or "message", "\n".join(self._data))
        self._event, self._data = "", []
        return event
