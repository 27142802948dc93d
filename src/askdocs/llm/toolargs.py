"""Tool-call arguments arrive as JSON text in pieces; a call's complete text must be an object."""

from __future__ import annotations

import json
from typing import Any

from askdocs.llm.http import Endpoint, error_from_body


def parse_arguments(endpoint: Endpoint, text: str) -> dict[str, Any]:
    """``""`` is no arguments; anything but a JSON object is a ModelError."""
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        raise error_from_body(endpoint, "not valid JSON", "sent tool arguments that are") from None
    if not isinstance(value, dict):
        raise error_from_body(endpoint, "not a JSON object", "sent tool arguments that are")
    return value
