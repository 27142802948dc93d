"""Reading the UI message stream back in tests."""

from __future__ import annotations

import json
from typing import Any


def parse_frames(body: str) -> list[Any]:
    """Every ``data:`` frame, JSON-decoded; ``[DONE]`` stays the literal string."""
    frames: list[Any] = []
    for block in body.split("\n\n"):
        if not block.strip():
            continue
        assert block.startswith("data: "), block
        payload = block[len("data: ") :]
        frames.append(payload if payload == "[DONE]" else json.loads(payload))
    return frames


def types(frames: list[Any]) -> list[str]:
    return [f if isinstance(f, str) else str(f["type"]) for f in frames]


def text_of(frames: list[Any]) -> str:
    return "".join(f["delta"] for f in frames if isinstance(f, dict) and f["type"] == "text-delta")


def captions(frames: list[Any]) -> list[str]:
    return [
        str(f["data"]["caption"])
        for f in frames
        if isinstance(f, dict) and f["type"] == "data-toolStatus"
    ]
