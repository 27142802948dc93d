"""Mine training pairs and BM25 hard negatives from the extracted manifest trees.

    python -m train.mine --trees DIR --out DIR [--seed 13] [--only NAME ...]

Each tree (``DIR/<name>/<docs>``, as ``train.extract`` writes it) is read and chunked by
askdocs itself (``askdocs.ingest.read_site`` with the default corpus settings, the
manifest's globs left out), so every passage is exactly the text the index embeds. Writes:

* ``OUT/chunks/<name>.jsonl``: every guide chunk, ``{"id", "section", "text"}`` (``text``
  is ``Chunk.embed_text``);
* ``OUT/pairs.jsonl``: ``{"tree", "split", "kind", "query", "positive", "source",
  "negatives", "bm25_rank"}`` (chunk ids; ``bm25_rank``: the positive's rank in BM25's top
  30, or null);
* ``OUT/summary.json``: per tree the detected dialect, pages, chunks and pairs per kind.

Per tree and kind at most ``--cap`` pairs are kept (a seeded sample), so large trees do
not drown small ones.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from askdocs.corpus.dialects.detect import detect_dialect
from askdocs.ingest import read_site
from askdocs.settings import DEFAULT_EXCLUDE, CorpusSettings, RootConfig, SiteConfig
from askdocs.types import Chunk
from train.manifest import Tree, load
from train.mining import KINDS, Pair, TreePages, mine
from train.negatives import CANDIDATES, Bm25, hard_negatives, section_key

CAPS = {"question": 300, "heading": 400, "description": 200, "link": 600}


def read_tree(tree: Tree, trees: Path) -> tuple[TreePages, str]:
    """The tree's pages with their chunks, read in the manifest's dialect (the tool the
    tree is written for), and the dialect askdocs would detect on its own."""
    root = RootConfig(
        path=trees / tree.name / tree.docs,
        exclude=[*DEFAULT_EXCLUDE, *tree.exclude],
        dialect=tree.dialect,  # type: ignore[arg-type]  # checked by train.manifest
    )
    site = SiteConfig(id=tree.name, roots=[root])
    snapshot = read_site(site, CorpusSettings(parse_timeout_seconds=600.0))
    pages = tuple(
        (page, snapshot.chunks_of(page)) for page in snapshot.pages if page.locale == "en"
    )
    detected = detect_dialect(root.path).dialect
    return TreePages(tree.name, pages), detected


def capped(pairs: list[Pair], rng: random.Random, caps: dict[str, int]) -> list[Pair]:
    out = []
    for kind in KINDS:
        of_kind = [p for p in pairs if p.kind == kind]
        rng.shuffle(of_kind)
        out += of_kind[: caps[kind]]
    return out


def tree_rows(
    tree: Tree, pages: TreePages, seed: int, caps: dict[str, int]
) -> tuple[list[Chunk], list[dict[str, object]]]:
    chunks = [c for _, page_chunks in pages.pages for c in page_chunks if c.kind == "guide"]
    by_id = {c.id: n for n, c in enumerate(chunks)}
    pairs = capped(mine(pages), random.Random(f"{seed}:{tree.name}"), caps)
    bm25 = Bm25(chunks)
    rows = []
    for pair in pairs:
        positive = chunks[by_id[pair.positive]]
        source = chunks[by_id[pair.source]] if pair.source in by_id else None
        ranked = bm25.search(pair.query, CANDIDATES)
        rank = next(
            (
                n
                for n, r in enumerate(ranked)
                if section_key(chunks[r.chunk]) == section_key(positive)
            ),
            None,
        )
        negatives = hard_negatives(ranked, chunks, positive, source)
        rows.append(
            {
                "tree": tree.name,
                "split": tree.split,
                "kind": pair.kind,
                "query": pair.query,
                "positive": pair.positive,
                "source": pair.source,
                "negatives": [chunks[n].id for n in negatives],
                "bm25_rank": rank,
            }
        )
    return chunks, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args()
    (args.out / "chunks").mkdir(parents=True, exist_ok=True)
    summary: dict[str, object] = {}
    with (args.out / "pairs.jsonl").open("w", encoding="utf-8") as out:
        for tree in load():
            if args.only and tree.name not in args.only:
                continue
            pages, dialect = read_tree(tree, args.trees)
            chunks, rows = tree_rows(tree, pages, args.seed, CAPS)
            with (args.out / "chunks" / f"{tree.name}.jsonl").open("w", encoding="utf-8") as f:
                for c in chunks:
                    record = {"id": c.id, "section": "#".join(section_key(c)), "text": c.embed_text}
                    f.write(json.dumps(record, ensure_ascii=False) + "\n")
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
            kinds = Counter(str(r["kind"]) for r in rows)
            summary[tree.name] = {
                "dialect": dialect,
                "manifest_dialect": tree.dialect,
                "split": tree.split,
                "pages": len(pages.pages),
                "chunks": len(chunks),
                "pairs": dict(kinds),
            }
            flag = "" if dialect == tree.dialect else f" (manifest says {tree.dialect})"
            print(
                f"{tree.name}: {dialect}{flag}, {len(chunks)} chunks, {dict(kinds)}",
                file=sys.stderr,
            )
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
