"""Include directives, resolved inside the docs root only (pure, over a read function).

* ``{% include-markdown "path" %}`` (mkdocs-include-markdown-plugin, ``start``/``end``
  markers honoured) and ``{% include "path" %}``;
* ``--8<-- "path"`` (pymdownx snippets);
* ``{* path ... *}`` (FastAPI's code includes).

A target is looked up relative to the including file, then to the docs root, then with
leading folders dropped (snippets name paths from the MkDocs project, ``content/...``). It
is read through ``read`` (the corpus's safe read: no links, no escapes, size-capped). A
target outside the root, missing or unreadable is dropped, and reported. Includes nest up
to ``MAX_DEPTH`` deep; a cycle is reported and cut.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

_INCLUDE = re.compile(
    r"^(?P<indent>[ \t]*)(?:"
    r"""\{%-?\s*include(?:-markdown)?\s+(?P<q1>["'])(?P<p1>[^"']+)(?P=q1)(?P<opts>[^%]*)-?%\}"""
    r"""|-{2,}8<-{2,}\s+(?P<q2>["'])(?P<p2>[^"']+)(?P=q2)"""
    r"|\{\*\s*(?P<p3>\S+)[^*]*\*\})\s*$"
)
_OPTION = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
MAX_DEPTH = 4
Read = Callable[[str], str | None]  # root-relative path -> text, or None when refused


@dataclass
class Included:
    text: str
    counts: Counter[str] = field(default_factory=Counter)
    problems: list[tuple[int, str]] = field(default_factory=list)  # (0-based line, what)


def has_includes(text: str) -> bool:
    return "include" in text or "--8<--" in text or "{*" in text


def expand_includes(text: str, rel: str, read: Read) -> Included:
    """``text`` of the file ``rel`` with every include directive replaced by its target."""
    result = Included(text)
    if has_includes(text):
        result.text = _expand(text, rel, read, result, (rel,), None)
    return result


def _expand(
    text: str, rel: str, read: Read, result: Included, chain: tuple[str, ...], at: int | None
) -> str:
    """``at``: the line of the top-level include this text came from (None: the file)."""
    out: list[str] = []
    fence: str | None = None
    for number, line in enumerate(text.split("\n")):
        fence = _fence_state(line, fence)
        match = _INCLUDE.match(line) if fence is None else None
        if match is None:
            out.append(line)
            continue
        target = match.group("p1") or match.group("p2") or match.group("p3") or ""
        origin = number if at is None else at
        body = _include(target, match, rel, read, result, chain, origin)
        if body is None:
            result.problems.append((origin, f"include {target!r} not resolved"))
            out.append("")
            continue
        result.counts["include"] += 1
        indent = match.group("indent")
        out.append("\n".join(indent + piece if piece else piece for piece in body.split("\n")))
    return "\n".join(out)


def _fence_state(line: str, fence: str | None) -> str | None:
    stripped = line.strip()
    marker = stripped[:3]
    if marker in ("```", "~~~"):
        if fence is None:
            return marker
        return None if stripped.startswith(fence) and not stripped.strip(fence[0]) else fence
    return fence


def _include(
    target: str,
    match: re.Match[str],
    rel: str,
    read: Read,
    result: Included,
    chain: tuple[str, ...],
    line: int,
) -> str | None:
    if len(chain) > MAX_DEPTH:
        return None
    for candidate in candidates(target, rel):
        if candidate in chain:
            return None
        text = read(candidate)
        if text is None:
            continue
        text = _between(text, match.group("opts") or "")
        return _expand(text, candidate, read, result, (*chain, candidate), line)
    return None


def candidates(target: str, rel: str) -> list[str]:
    """Root-relative paths ``target`` may mean, nearest first; none that leave the root."""
    if "://" in target:
        return []
    found: list[str] = []
    bare = target.lstrip("/")
    for joined in (posixpath.join(posixpath.dirname(rel), target), bare):
        found.append(posixpath.normpath(joined))
    parts = bare.split("/")
    found.extend(posixpath.normpath("/".join(parts[i:])) for i in range(1, len(parts)))
    safe = [path for path in found if path != "." and not path.startswith("../") and path != ".."]
    return list(dict.fromkeys(safe))


def _between(text: str, options: str) -> str:
    values = {
        m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
        for m in _OPTION.finditer(options)
    }
    start, end = values.get("start"), values.get("end")
    if start and start in text:
        text = text.split(start, 1)[1]
    if end and end in text:
        text = text.split(end, 1)[0]
    return text
