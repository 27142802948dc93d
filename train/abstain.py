"""Calibrate the match threshold of a local model from the mined data, against the bundled one.

    python -m train.abstain --data DIR --model DIR [--base DIR] [--per-tree 200]

The match decision answers when the best cosine of the top hits reaches the model's
threshold (``askdocs.search.threshold``). On the mined validation trees, askdocs's own
embedder (float32 documents, int8 queries, as searches run) gives each query its best
cosine over the tree's chunks, for:

* answerable questions: the tree's own mined queries;
* unanswerable questions: the other validation trees' queries asked of this tree (another
  product's questions; a few may have an answer here too, which only makes the figures
  conservative).

The bundled model at its calibrated threshold keeps some share of the answerable
questions; the tuned model's threshold is the one that keeps the same share (pure:
``threshold_at``), and the shares of unanswerable questions each refuses are compared: the
tuned threshold replaces the hand-set one only if it refuses more at that answerable rate
(and, on the development sets, ``bench/quality.py`` confirms it).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from askdocs.embeddings.local import LocalEmbedder
from askdocs.search.threshold import CALIBRATED
from train.data import read_jsonl

BASE_THRESHOLD = CALIBRATED["local:all-MiniLM-L6-v2"]


@dataclass(frozen=True)
class Cosines:
    answerable: tuple[float, ...]
    unanswerable: tuple[float, ...]


def threshold_at(answerable: Sequence[float], keep: float) -> float:
    """The highest threshold that keeps at least ``keep`` of ``answerable`` (>= matches)."""
    ranked = sorted(answerable, reverse=True)
    count = max(1, min(len(ranked), int(np.ceil(keep * len(ranked) - 1e-9))))
    return ranked[count - 1]


def rates(cosines: Cosines, threshold: float) -> tuple[float, float]:
    """(answerable kept, unanswerable refused) at ``threshold``."""
    kept = sum(c >= threshold for c in cosines.answerable) / max(1, len(cosines.answerable))
    refused = sum(c < threshold for c in cosines.unanswerable) / max(1, len(cosines.unanswerable))
    return kept, refused


def best_cosines(model_dir: Path, data: Path, per_tree: int, seed: int) -> Cosines:
    """Each valid tree's own and foreign queries' best cosine over its chunks."""
    rows = [r for r in read_jsonl(data / "pairs.jsonl") if r["split"] == "valid"]
    by_tree: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        by_tree[str(row["tree"])].append(str(row["query"]))
    rng = random.Random(seed)
    asked = {tree: rng.sample(qs, min(per_tree, len(qs))) for tree, qs in sorted(by_tree.items())}
    embedder = LocalEmbedder(model_dir=model_dir, query_precision="int8")
    answerable: list[float] = []
    unanswerable: list[float] = []
    for tree, own in asked.items():
        chunks = [str(c["text"]) for c in read_jsonl(data / "chunks" / f"{tree}.jsonl")]
        docs = embedder.embed_documents(chunks)
        foreign = [q for other, qs in asked.items() if other != tree for q in qs]
        foreign = rng.sample(foreign, min(per_tree, len(foreign)))
        for queries, out in ((own, answerable), (foreign, unanswerable)):
            out += [float(np.max(docs @ embedder.embed_query(q)[0])) for q in queries]
    return Cosines(tuple(answerable), tuple(unanswerable))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--model", type=Path, required=True, help="the tuned model folder")
    parser.add_argument("--base", type=Path, help="the bundled model folder (default: installed)")
    parser.add_argument("--per-tree", type=int, default=200)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    base_dir = args.base or LocalEmbedder().model_dir
    base = best_cosines(base_dir, args.data, args.per_tree, args.seed)
    tuned = best_cosines(args.model, args.data, args.per_tree, args.seed)
    keep, refused = rates(base, BASE_THRESHOLD)
    threshold = threshold_at(tuned.answerable, keep)
    tuned_keep, tuned_refused = rates(tuned, threshold)
    out = {
        "questions": {"answerable": len(base.answerable), "unanswerable": len(base.unanswerable)},
        "base": {"threshold": BASE_THRESHOLD, "kept": keep, "refused": refused},
        "tuned": {"threshold": round(threshold, 4), "kept": tuned_keep, "refused": tuned_refused},
        "sweep": {
            f"{t:.2f}": {"base": rates(base, t), "tuned": rates(tuned, t)}
            for t in np.arange(0.25, 0.71, 0.05)
        },
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
