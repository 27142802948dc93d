"""Dialect markers left in chunk text and bare file-name titles, on the shared real trees.

    .venv/bin/python bench/dialect_markers.py [CORPUS_DIR ...]

Counts, per tree, chunk text lines outside fenced/indented code that start with ``!!!``,
``???``, ``===``, ``:::`` or ``///`` (each marker separately), and pages whose title is
their bare file name. Self-contained (only ``read_site`` and markdown-it), so it measures
any revision of askdocs alike: run it with ``PYTHONPATH`` at an older ``src`` for "before".
"""

from __future__ import annotations

import posixpath
import re
import sys
from collections import Counter
from pathlib import Path

from markdown_it import MarkdownIt

from askdocs.ingest import read_site
from askdocs.settings import CorpusSettings
from askdocs.sites import folder_site
from shared_data import require, shared

TREES = ("traefik-docs", "httpx-docs", "fastapi-docs", "frigate-docs")
CORPORA = shared("corpora")
MARKER = re.compile(r"^\s*(!!!|\?\?\?|===|:::|///)")
_MD = MarkdownIt("js-default").disable("inline")


def markers(text: str) -> Counter[str]:
    code: set[int] = set()
    for token in _MD.parse(text):
        if token.type in ("fence", "code_block") and token.map:
            code.update(range(*token.map))
    found: Counter[str] = Counter()
    for index, line in enumerate(text.split("\n")):
        match = MARKER.match(line) if index not in code else None
        if match:
            found[match.group(1)] += 1
    return found


def measure(folder: Path) -> str:
    snapshot = read_site(folder_site(folder), CorpusSettings())
    total: Counter[str] = Counter()
    for chunk in snapshot.chunks:
        total.update(markers(chunk.text))
    bare = [
        p.path
        for p in snapshot.pages
        if p.title == posixpath.splitext(posixpath.basename(p.path))[0]
    ]
    counts = " ".join(f"{m}={total[m]}" for m in ("!!!", "???", "===", ":::", "///"))
    return (
        f"{folder.name}: pages={len(snapshot.pages)} chunks={len(snapshot.chunks)} "
        f"markers={sum(total.values())} ({counts}) bare_titles={len(bare)} {bare[:6]}"
    )


def main(folders: list[str]) -> None:
    chosen = folders or [str(CORPORA / tree) for tree in TREES]
    require(*(Path(folder) for folder in chosen))
    for folder in chosen:
        print(measure(Path(folder).resolve()))


if __name__ == "__main__":
    main(sys.argv[1:])
