"""The mined pairs as training examples: texts looked up from the per-tree chunk files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Passage:
    text: str
    section: str  # "tree#slug#section_id": parts of one section share it


@dataclass(frozen=True)
class Example:
    tree: str
    kind: str
    query: str
    positive: str
    positive_section: str
    negatives: tuple[Passage, ...]


def read_jsonl(path: Path) -> Iterator[dict[str, object]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def load_examples(data: Path, split: str = "train") -> list[Example]:
    """The pairs of ``split`` (``train`` or ``valid``) with their passages' texts."""
    rows = [r for r in read_jsonl(data / "pairs.jsonl") if r["split"] == split]
    wanted: dict[str, set[str]] = {}
    for row in rows:
        ids = wanted.setdefault(str(row["tree"]), set())
        ids.add(str(row["positive"]))
        ids.update(str(n) for n in row["negatives"])  # type: ignore[attr-defined]
    passages = {
        (tree, str(c["id"])): Passage(str(c["text"]), f"{tree}#{c['section']}")
        for tree, ids in wanted.items()
        for c in read_jsonl(data / "chunks" / f"{tree}.jsonl")
        if c["id"] in ids
    }
    return [_example(row, passages) for row in rows]


def _example(row: dict[str, object], passages: dict[tuple[str, str], Passage]) -> Example:
    tree = str(row["tree"])
    positive = passages[(tree, str(row["positive"]))]
    negatives = tuple(passages[(tree, str(n))] for n in row["negatives"])  # type: ignore[attr-defined]
    return Example(
        tree, str(row["kind"]), str(row["query"]), positive.text, positive.section, negatives
    )
