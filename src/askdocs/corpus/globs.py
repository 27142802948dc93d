"""Include/exclude globs relative to a docs root (pure).

``*`` and ``?`` stay inside one path segment, ``**`` spans any number of segments (zero
included), ``[abc]`` / ``[!abc]`` are character classes. Patterns are anchored at the root:
``README.md`` matches only the top-level file, ``**/README.md`` matches it at any depth.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from askdocs.errors import ConfigError


@dataclass(frozen=True)
class GlobSet:
    files: tuple[re.Pattern[str], ...]
    folders: tuple[re.Pattern[str], ...]  # from "X/**": a folder matching X is skipped whole

    def matches(self, path: str) -> bool:
        return any(pattern.fullmatch(path) for pattern in self.files)

    def prunes(self, folder: str) -> bool:
        return any(pattern.fullmatch(folder) for pattern in self.folders)


def compile_globs(patterns: Sequence[str]) -> GlobSet:
    for pattern in patterns:
        check_pattern(pattern)
    folders = [p[: -len("/**")] for p in patterns if p.endswith("/**") and p != "**/**"]
    return GlobSet(
        files=tuple(re.compile(translate(p)) for p in patterns),
        folders=tuple(re.compile(translate(p)) for p in folders if p),
    )


def check_pattern(pattern: str) -> None:
    """Refuse patterns that could reach outside the root: absolute, ``..``, backslashes."""
    if not pattern or pattern.startswith("/") or "\\" in pattern or "\x00" in pattern:
        raise ConfigError(f"glob {pattern!r} must be a relative pattern with '/' separators")
    if any(part in ("..", ".") for part in pattern.split("/")):
        raise ConfigError(f"glob {pattern!r} must not contain '.' or '..' segments")


def translate(pattern: str) -> str:
    segments = pattern.split("/")
    out: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
        else:
            out.append(_segment(segment) + ("" if last else "/"))
    return "".join(out)


def _segment(segment: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        index += 1
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            klass, index = _char_class(segment, index)
            out.append(klass)
        else:
            out.append(re.escape(char))
    return "".join(out)


def _char_class(segment: str, index: int) -> tuple[str, int]:
    end = segment.find("]", index + 1)
    if end == -1:
        return re.escape("["), index
    body = segment[index:end]
    negate = body.startswith("!")
    body = body[1:] if negate else body
    escaped = body.replace("\\", "\\\\").replace("^", "\\^")
    return ("[^/" if negate else "[") + escaped + "]", end + 1
