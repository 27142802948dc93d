"""The render worker process: ``python -m askdocs.reader.worker MAX_OUTPUT_CHARS``.

It reads pickled ``MarkupJob``s from stdin and writes pickled answers to stdout, holding
nothing but a markdown-it instance, so the parent can kill it at any moment (a render over
its time budget) and start a fresh one. It exits when the parent closes its stdin. Stray
output from the renderer goes to stderr, never into the protocol.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from multiprocessing.connection import Connection

from markdown_it import MarkdownIt

from askdocs.corpus.dialects import Dialect
from askdocs.reader.markup import MarkupJob, make_renderer, render_markup

Answer = tuple[str, object]


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
    protocol_out = os.dup(1)
    os.dup2(2, 1)
    reader = Connection(0, writable=False)
    writer = Connection(protocol_out, readable=False)
    _renderer("gfm")
    writer.send(("ready", None))
    while True:
        try:
            job = reader.recv()
        except (EOFError, OSError):
            return
        writer.send(answer(job, max_output_chars))


if __name__ == "__main__":
    main()
