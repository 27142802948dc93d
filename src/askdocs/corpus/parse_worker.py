"""The parse worker process: ``python -m askdocs.corpus.parse_worker``.

It answers pickled ``ParseJob``s with ``("ok", SourceDoc)``, or ``("invalid", reason)``
for a file that cannot be used (invalid front matter, a parser error), and ``MapJob``s
with ``("ok", [value, ...])``, through ``askdocs.workers.serve``; the parent kills
it when a job outlives its budget.
"""

from __future__ import annotations

from askdocs.corpus.documents import ParseOptions, parse_document
from askdocs.corpus.parse_pool import MapJob, ParseJob
from askdocs.errors import CorpusError
from askdocs.workers import Answer, serve


def answer(job: object) -> Answer:
    if isinstance(job, MapJob):
        return _map(job)
    if not isinstance(job, ParseJob):
        return ("invalid", "not a parse job")
    try:
        return ("ok", parse_document(job.text, job.rel, job.options, job.included))
    except CorpusError as exc:
        return ("invalid", exc.reason)
    except Exception as exc:  # a parser bug makes one bad file, not a dead worker
        return ("invalid", f"parsing failed ({type(exc).__name__})")


def _map(job: MapJob) -> Answer:
    try:
        return ("ok", [job.function(item) for item in job.items])
    except Exception as exc:  # the caller computes the batch itself
        return ("invalid", f"{type(exc).__name__}")


def main() -> None:
    parse_document("# warm\n", "warm.md", ParseOptions(("en",), "en", 3))
    serve(answer)


if __name__ == "__main__":
    main()
