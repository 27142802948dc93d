"""Score a model folder offline: on the mined validation trees, and on the development sets
through the product's own ranking (``bench/rank_sim.py``) with the model's cosines.

    python -m train.evaluate --model DIR [--data DIR] [--dev-data TEMPLATE]

* ``--data``: ``train.mine``'s output; every chunk of each ``valid`` tree is embedded (256
  tokens, as indexed) and each of its pairs searched by cosine alone: hit@1, hit@5 and
  MRR@10 by section, per kind.
* ``--dev-data``: the data dirs ``bench/quality.py`` indexed the development sets into
  (with ``{set}``). ``rank_sim``'s dump of each (the chunks, their BM25 scores, the
  questions) is read, the cosines are recomputed with the model (float32, PyTorch) and the
  product's fusion and ranking rules applied: hit@5 and MRR@10 per set and macro, as
  ``bench/quality.py`` would give them up to the engine's approximate search and the query
  session's int8 weights. The abstention figures need ``bench/quality.py`` itself.

A quick check to compare checkpoints; the gate is ``bench/quality.py`` on the built package.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import torch

from train.data import read_jsonl
from train.encoder import Encoder

BENCH = Path(__file__).resolve().parent.parent / "bench"


def rank_of(scores: np.ndarray, sections: list[str], wanted: str, limit: int = 10) -> int | None:
    """1-based rank of the first chunk of ``wanted`` among distinct sections, or None."""
    seen: list[str] = []
    for i in np.argsort(-scores, kind="stable"):
        if sections[i] not in seen:
            seen.append(sections[i])
            if sections[i] == wanted:
                return len(seen)
            if len(seen) == limit:
                return None
    return None


def figures(ranks: list[int | None]) -> dict[str, float]:
    n = max(1, len(ranks))
    return {
        "n": len(ranks),
        "hit@1": sum(r == 1 for r in ranks) / n,
        "hit@5": sum(r is not None and r <= 5 for r in ranks) / n,
        "MRR@10": sum(1.0 / r for r in ranks if r is not None) / n,
    }


def valid_scores(encoder: Encoder, data: Path) -> dict[str, dict[str, float]]:
    pairs = [r for r in read_jsonl(data / "pairs.jsonl") if r["split"] == "valid"]
    by_tree: dict[str, list[dict[str, object]]] = defaultdict(list)
    for row in pairs:
        by_tree[str(row["tree"])].append(row)
    ranks: dict[str, list[int | None]] = defaultdict(list)
    for tree, rows in sorted(by_tree.items()):
        chunks = list(read_jsonl(data / "chunks" / f"{tree}.jsonl"))
        sections = [str(c["section"]) for c in chunks]
        section_of = {str(c["id"]): str(c["section"]) for c in chunks}
        docs = encoder.embed([str(c["text"]) for c in chunks]).numpy()
        queries = encoder.embed([str(r["query"]) for r in rows], 64).numpy()
        for row, q in zip(rows, queries, strict=True):
            rank = rank_of(docs @ q, sections, section_of[str(row["positive"])])
            for key in ("all", str(row["kind"]), f"tree:{tree}"):
                ranks[key].append(rank)
    return {key: figures(value) for key, value in sorted(ranks.items())}


def dev_scores(encoder: Encoder, template: str) -> dict[str, tuple[float, float]]:
    sys.path.insert(0, str(BENCH))
    import quality
    import rank_sim
    from askdocs.settings import SearchSettings

    dumps = {}
    for ev in quality.shared_sets():
        d = rank_sim.dump(ev, Path(template.format(set=ev.name)))
        docs = encoder.embed([c.embed_text for c in d.chunks]).numpy()
        for asked in d.asked:
            q = encoder.embed([asked.text], 256).numpy()[0]
            asked.cosines = (docs @ q).astype(np.float32)
        dumps[ev.name] = d
    return rank_sim.score(dumps, SearchSettings())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path)
    parser.add_argument("--dev-data", help="bench/quality.py's data dirs, with {set}")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    encoder = Encoder(args.model)
    out: dict[str, object] = {"model": str(args.model)}
    if args.data:
        out["valid"] = valid_scores(encoder, args.data)
    if args.dev_data:
        out["dev"] = dev_scores(encoder, args.dev_data)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
