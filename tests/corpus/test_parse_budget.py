"""Defect 4 of the hardening battery: corpus parsing runs under a time budget in a worker
process, like rendering. A page whose Markdown structure takes markdown-it tens of seconds
(75,000 headings in 1 MB) is cut at the budget and becomes a bad file; every other page is
read, and the cut page is not parsed again until it changes."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from askdocs.corpus import CorpusCache, read_pages
from askdocs.corpus.documents import ParseOptions, parse_document
from askdocs.corpus.parse_pool import IN_PROCESS_MAX_CHARS, ParsePool
from askdocs.errors import CorpusError
from askdocs.settings import CorpusSettings
from askdocs.sites import folder_site
from tests.support.timing import bounded

BUDGET = 0.5
OPTIONS = ParseOptions(("en",), "en", 3)


def slow_page() -> str:
    """About 1 MB that markdown-it needs 10-30 s to parse (far past any budget here)."""
    return "# Slow\n\n" + "".join(f"## H{i}\n\nx\n\n" for i in range(75_000))


def long_good_page() -> str:
    sections = "".join(
        f"## Part {i}\n\nText about part {i}, with *emphasis*.\n\n" for i in range(400)
    )
    return "---\ntitle: Long\n---\n# Long\n\n" + sections


@pytest.fixture
def parser() -> Iterator[ParsePool]:
    pool = ParsePool(BUDGET)
    yield pool
    pool.close()


def _docs(tmp_path: Path, **pages: str) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nWelcome.\n")
    for name, text in pages.items():
        (docs / f"{name}.md").write_text(text)
    return docs


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_pathological_page_is_cut_at_the_parse_budget(tmp_path: Path, parser: ParsePool) -> None:
    docs = _docs(tmp_path, slow=slow_page(), long=long_good_page())
    cache = CorpusCache(parser)
    started = time.monotonic()
    pages = read_pages(folder_site(docs), CorpusSettings(), cache)
    assert time.monotonic() - started < bounded(BUDGET)  # unbounded: 10-30 s
    assert [(e.path, e.reason) for e in pages.errors] == [
        ("slow.md", f"parsing took longer than {BUDGET:g} s")
    ]
    assert sorted(p.page.path for p in pages.pages) == ["index.md", "long.md"]


def test_the_cut_worker_is_killed_and_the_page_not_parsed_again(
    tmp_path: Path, parser: ParsePool
) -> None:
    docs = _docs(tmp_path, long=long_good_page())
    cache = CorpusCache(parser)
    read_pages(folder_site(docs), CorpusSettings(), cache)
    [worker] = parser.idle_worker_pids()  # the long page went through the worker
    (docs / "slow.md").write_text(slow_page())
    first = read_pages(folder_site(docs), CorpusSettings(), cache)
    assert [e.path for e in first.errors] == ["slow.md"]
    assert not _running(worker)  # cut at the budget, not left parsing for 30 s
    again = read_pages(folder_site(docs), CorpusSettings(), cache)
    assert again is first  # the bad file stays bad until it changes: no second 0.5 s wait
    assert parser.idle_worker_pids() == []  # and no worker was started for it


def test_short_pages_never_start_a_worker(tmp_path: Path, parser: ParsePool) -> None:
    docs = _docs(tmp_path, a="# A\n\nShort.\n", b="# B\n\n" + "word " * 1000)
    pages = read_pages(folder_site(docs), CorpusSettings(), CorpusCache(parser))
    assert len(pages.pages) == 3
    assert parser.idle_worker_pids() == []


def test_a_long_page_parses_the_same_in_the_worker(parser: ParsePool) -> None:
    text = long_good_page()
    assert len(text) > IN_PROCESS_MAX_CHARS
    assert parser.parse(text, "long.md", OPTIONS) == parse_document(text, "long.md", OPTIONS)
    assert len(parser.idle_worker_pids()) == 1


def test_invalid_front_matter_in_a_long_page_is_the_same_bad_file(parser: ParsePool) -> None:
    text = "---\ntitle: [unclosed\n---\n" + long_good_page()
    with pytest.raises(CorpusError) as in_process:
        parse_document(text, "bad.md", OPTIONS)
    with pytest.raises(CorpusError) as in_worker:
        parser.parse(text, "bad.md", OPTIONS)
    assert in_worker.value.reason == in_process.value.reason
