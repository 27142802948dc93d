"""A worker pool can start its worker before the first job (``start_soon``; the server
does so at start): the first long page then waits for no process start, a job that comes
while the worker starts waits for that one and starts no second, and closing the pool
while one starts leaves no process behind."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from askdocs.corpus.documents import ParseOptions, parse_document
from askdocs.corpus.parse_pool import IN_PROCESS_MAX_CHARS, ParsePool

OPTIONS = ParseOptions(("en",), "en", 3)
LONG = "# Long\n\n" + "".join(f"## Part {i}\n\nText about part {i}.\n\n" for i in range(400))


@pytest.fixture
def parser() -> Iterator[ParsePool]:
    pool = ParsePool(30.0)
    yield pool
    pool.close()


def _children() -> set[int]:
    pids: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        pids.update(int(pid) for pid in (task / "children").read_text().split())
    return pids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _wait_for_idle_worker(parser: ParsePool) -> int:
    deadline = time.monotonic() + 60  # a wait for the start, not a timing assert
    while not parser.idle_worker_pids():
        assert time.monotonic() < deadline, "the worker did not start"
        time.sleep(0.05)
    [pid] = parser.idle_worker_pids()
    return pid


def test_the_first_long_page_goes_to_the_worker_started_before(parser: ParsePool) -> None:
    assert len(LONG) > IN_PROCESS_MAX_CHARS
    parser.start_soon()
    pid = _wait_for_idle_worker(parser)
    assert parser.parse(LONG, "long.md", OPTIONS) == parse_document(LONG, "long.md", OPTIONS)
    assert parser.idle_worker_pids() == [pid]  # the same process: none started for the job
    assert parser.workers_started == 1


def test_a_page_that_comes_while_the_worker_starts_waits_for_it(parser: ParsePool) -> None:
    parser.start_soon()
    parser.start_soon()  # already starting: nothing more
    assert parser.workers_started == 1
    assert parser.parse(LONG, "long.md", OPTIONS) == parse_document(LONG, "long.md", OPTIONS)
    assert parser.workers_started == 1  # it took the starting worker, it did not start one
    assert len(parser.idle_worker_pids()) == 1
    parser.start_soon()  # a worker is idle: nothing to start
    assert parser.workers_started == 1


def test_closing_while_the_worker_starts_leaves_no_process() -> None:
    before = _children()
    parser = ParsePool(30.0)
    parser.start_soon()
    [starting] = _children() - before
    parser.close()
    assert not _alive(starting)
    parser.start_soon()  # a closed pool starts nothing
    assert parser.workers_started == 1
    assert _children() - before == set()


def test_the_parse_worker_does_not_import_the_settings_or_the_corpus_reader() -> None:
    """The worker's start is its imports: markdown-it and the parser, not pydantic (the
    settings) and the corpus reader, which made each worker start cost ~1 s of CPU."""
    probe = (
        "import sys, askdocs.corpus.parse_worker, askdocs.reader.worker; "
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic' "
        "or m in ('askdocs.settings', 'askdocs.corpus.site', 'askdocs.corpus.cache'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == []
