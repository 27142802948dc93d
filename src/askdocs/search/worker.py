"""The search worker process: ``python -m askdocs.search.worker``.

It answers pickled ``SearchJob``s (``askdocs.workers.serve``) with the retrieval step of a
search (``Retriever.search``: the query embedding, the engine query, the match decision).
Each worker opens the index read-only and its own query session, once per settings it is
sent, so several of them search side by side, each under its own interpreter lock; the
server process keeps everything else (sites, freshness, the indexer). See
``askdocs.search.processes``.
"""

from __future__ import annotations

from askdocs.search.job import answer
from askdocs.workers import serve


def main() -> None:
    serve(answer)


if __name__ == "__main__":
    main()
