"""What ``askdocs corpus`` reports about dialects (pure, over a snapshot).

Per root: the dialect and why. Over the corpus: how many of each construct were understood,
each one that was not (file:line, construct), how many dialect marker lines are left in
chunk text outside code (``!!!``, ``???``, ``===``, ``:::``, ``///`` at a line start; 0 when
every construct was understood), and the pages titled by a bare file name.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass

from askdocs.corpus.dialects.prose import RAW_MARKER
from askdocs.corpus.markdown import block_tokens
from askdocs.ingest.snapshot import CorpusSnapshot
from askdocs.types import Chunk


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    construct: str


@dataclass(frozen=True)
class DialectReport:
    dialects: tuple[tuple[str, str, str], ...]  # (root, dialect, why)
    constructs: dict[str, int]
    not_understood: tuple[Problem, ...]
    raw_markers: int
    bare_titles: tuple[str, ...]  # paths of pages titled by their bare file name


def dialect_report(snapshot: CorpusSnapshot) -> DialectReport:
    counts: Counter[str] = Counter()
    problems: list[Problem] = []
    for path, diagnostics in snapshot.diagnostics:
        counts.update(dict(diagnostics.counts))
        problems.extend(Problem(path, line, what) for line, what in diagnostics.unknown)
    return DialectReport(
        dialects=snapshot.dialects,
        constructs=dict(sorted(counts.items())),
        not_understood=tuple(problems),
        raw_markers=sum(raw_marker_lines(chunk) for chunk in snapshot.chunks),
        bare_titles=tuple(
            page.path
            for page in snapshot.pages
            if page.title == posixpath.splitext(posixpath.basename(page.path))[0]
        ),
    )


def raw_marker_lines(chunk: Chunk) -> int:
    """Lines of the chunk's text, outside fenced or indented code, that start with a
    dialect marker."""
    lines = chunk.text.split("\n")
    code: set[int] = set()
    for token in block_tokens(chunk.text):
        if token.type in ("fence", "code_block") and token.map is not None:
            code.update(range(token.map[0], token.map[1]))
    return sum(
        1 for index, line in enumerate(lines) if index not in code and RAW_MARKER.match(line)
    )
