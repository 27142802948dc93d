"""A reader process for the multi-process tests: answers one search per "q" line on stdin
with one JSON line, until stdin closes.

    python -m tests.index.reader_worker DATA_DIR MODEL_ID DIMENSION
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from askdocs.index import IndexStore, ModelSpec, QueryFilter
from askdocs.index.edge import EdgeBackend
from askdocs.search.lexical import query_vector


def main(data_dir: Path, model: ModelSpec) -> None:
    store = IndexStore(EdgeBackend(data_dir / "index"))
    for line in sys.stdin:
        if line.strip() != "q":
            continue
        info = store.current(model)
        if info is None:
            print(json.dumps({"collection": None}), flush=True)
            continue
        result = store.query(
            info, dense=None, sparse=query_vector("install pip"), filter=QueryFilter(), limit=100
        )
        answer = {
            "collection": result.collection,
            "points": info.points,
            "counted": store.backend.count(result.collection),
            "hits": len(result.hits),
        }
        print(json.dumps(answer), flush=True)
    store.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), ModelSpec(sys.argv[2], int(sys.argv[3])))
