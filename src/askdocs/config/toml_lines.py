"""Where each key of a TOML file is written: key path -> line number (pure).

``tomllib`` gives values without positions, and an error that names only a key leaves the
reader searching the file. This scanner follows table headers (``[server]``), arrays of
tables (``[[sites]]``, ``[[sites.roots]]``, counted) and key lines (``port = 8001``,
dotted ``auth.public_url = ...``, and the keys of one-line inline tables, alone or in an
array). Lines inside a
multi-line string or array belong to the key that opened it. A path it cannot place is
answered with its closest placed parent (``line_of``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

Path = tuple[str | int, ...]

_KEY = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_DOTTED = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(rf"^\s*({_DOTTED})\s*=\s*(.*)$")
_INLINE_KEY = re.compile(rf"[{{,]\s*({_DOTTED})\s*=")


def key_lines(text: str) -> dict[Path, int]:
    """Each table and key of ``text`` by its path, with its 1-based line number."""
    scanner = _Scanner()
    for number, line in enumerate(text.splitlines(), start=1):
        scanner.feed(line, number)
    return scanner.lines


def line_of(lines: dict[Path, int], path: Sequence[str | int]) -> int | None:
    """The line of ``path``, or of its closest parent that has one."""
    for end in range(len(path), 0, -1):
        found = lines.get(tuple(path[:end]))
        if found is not None:
            return found
    return None


class _Scanner:
    def __init__(self) -> None:
        self.lines: dict[Path, int] = {}
        self.table: Path = ()
        self.counts: dict[Path, int] = {}
        self.open_until: str | None = None  # the text that closes a multi-line value

    def feed(self, line: str, number: int) -> None:
        if self.open_until is not None:
            if self.open_until in line:
                self.open_until = None
            return
        header = _HEADER.match(line)
        if header:
            self._header(header.group(1) == "[[", _split(header.group(2)), number)
            return
        assign = _ASSIGN.match(line)
        if assign:
            self._assign(_split(assign.group(1)), assign.group(2), number)

    def _header(self, is_array: bool, keys: list[str], number: int) -> None:
        path = (*self._resolve(keys[:-1]), keys[-1])
        if is_array:
            index = self.counts.get(path, -1) + 1
            self.counts[path] = index
            self.lines.setdefault(path, number)
            path = (*path, index)
        self.table = path
        self.lines[path] = number

    def _resolve(self, keys: list[str]) -> Path:
        """A header's parent keys, with the current index of each array of tables."""
        path: Path = ()
        for key in keys:
            path = (*path, key)
            if path in self.counts:
                path = (*path, self.counts[path])
        return path

    def _assign(self, keys: list[str], rest: str, number: int) -> None:
        path = self.table + tuple(keys)
        self.lines[path] = number
        value = rest.strip()
        if value.startswith("{"):
            self._inline(path, value, number)
        elif value.startswith("["):  # an array of inline tables: each one by its index
            for index, table in enumerate(re.findall(r"\{[^{}]*\}", value)):
                self._inline((*path, index), table, number)
        self.open_until = _opens(value)

    def _inline(self, path: Path, table: str, number: int) -> None:
        for inner in _INLINE_KEY.finditer(table):
            self.lines[path + tuple(_split(inner.group(1)))] = number


def _opens(value: str) -> str | None:
    """The closing text when ``value`` starts a multi-line string or array, else None."""
    for quote in ('"""', "'''"):
        if value.startswith(quote) and value.count(quote) == 1:
            return quote
    if value.startswith("[") and _depth(value) > 0:
        return "]"
    return None


def _depth(value: str) -> int:
    text = re.sub(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|#.*$', "", value)
    return text.count("[") - text.count("]")


def _split(dotted: str) -> list[str]:
    parts = re.findall(_KEY, dotted)
    return [part[1:-1] if part[:1] in "\"'" else part for part in parts]
