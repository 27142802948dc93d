"""The render worker process: ``python -m askdocs.reader.worker MAX_OUTPUT_CHARS``.

It answers pickled ``MarkupJob``s (``askdocs.workers.serve``), holding nothing but
markdown-it instances, so the parent can kill it at any moment (a render over its time
budget) and start a fresh one.
"""

from __future__ import annotations

import sys
from functools import lru_cache

from markdown_it import MarkdownIt

from askdocs.corpus.dialects import Dialect
from askdocs.reader.markup import MarkupJob, make_renderer, render_markup
from askdocs.workers import Answer, serve


def answer(job: object, max_output_chars: int) -> Answer:
    if not isinstance(job, MarkupJob):
        return ("error", "not a render job")
    try:
        markup = render_markup(job, _renderer(job.dialect))
    except Exception as exc:  # a parser bug answers, it does not kill the worker
        return ("error", f"{type(exc).__name__}: {exc}")
    if markup.weight > max_output_chars:
        return ("too-large", markup.weight)
    return ("ok", markup)


@lru_cache(maxsize=8)
def _renderer(dialect: Dialect) -> MarkdownIt:
    return make_renderer(dialect)


def main() -> None:
    max_output_chars = int(sys.argv[1])
    _renderer("gfm")
    serve(lambda job: answer(job, max_output_chars))


if __name__ == "__main__":
    main()
