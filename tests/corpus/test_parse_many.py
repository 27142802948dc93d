"""A batch of pages parses on two cores (``ParsePool.parse_many``): the worker takes the
longest pages first, the calling thread the shortest; long pages never parse in process,
results come back in order and equal one parse per page, bad files included."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from askdocs.corpus.cache import CorpusCache
from askdocs.corpus.documents import ParseOptions, SourceDoc, parse_document
from askdocs.corpus.parse_pool import IN_PROCESS_MAX_CHARS, ParseJob, ParsePool
from askdocs.errors import CorpusError

OPTIONS = ParseOptions(("en",), "en", 3)
BAD_FRONT = "---\ntitle: [unclosed\n---\n"


def page(name: str, parts: int) -> str:
    sections = "".join(
        f"## {name} {i}\n\nText about {name} {i}, *emphasis*.\n\n" for i in range(parts)
    )
    return f"# {name}\n\n{sections}"


def jobs_of(texts: dict[str, str]) -> list[ParseJob]:
    return [ParseJob(text, rel, OPTIONS, None) for rel, text in texts.items()]


def expected(job: ParseJob) -> SourceDoc | str:
    try:
        return parse_document(job.text, job.rel, job.options, job.included)
    except CorpusError as exc:
        return exc.reason


def outcome(result: SourceDoc | CorpusError) -> SourceDoc | str:
    return result.reason if isinstance(result, CorpusError) else result


@pytest.fixture
def parser() -> Iterator[ParsePool]:
    pool = ParsePool(30.0)
    yield pool
    pool.close()


TEXTS = {
    "short-a.md": page("Alpha", 3),
    "long-b.md": page("Beta", 300),
    "short-bad.md": BAD_FRONT + page("Gamma", 2),
    "longest.md": page("Delta", 600),
    "long-bad.md": BAD_FRONT + page("Epsilon", 300),
    "short-c.md": page("Zeta", 10),
}


def test_results_are_in_order_and_equal_one_parse_per_page(parser: ParsePool) -> None:
    jobs = jobs_of(TEXTS)
    assert sum(len(job.text) > IN_PROCESS_MAX_CHARS for job in jobs) == 3
    results = parser.parse_many(jobs)
    assert [outcome(result) for result in results] == [expected(job) for job in jobs]
    assert isinstance(results[2], CorpusError)
    assert isinstance(results[4], CorpusError)
    assert parser.workers_started == 1


def test_long_pages_go_to_the_worker_longest_first_and_never_parse_here(
    parser: ParsePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    here: list[tuple[str, str]] = []
    sent: list[str] = []
    real_call = parser._pool.call

    def parse_here(text: str, rel: str, *args: object) -> SourceDoc:
        here.append((rel, threading.current_thread().name))
        return parse_document(text, rel, *args)  # type: ignore[arg-type]

    def call(job: object) -> tuple[str, object]:
        assert isinstance(job, ParseJob)
        sent.append(job.rel)
        return real_call(job)

    monkeypatch.setattr("askdocs.corpus.parse_pool.parse_document", parse_here)
    monkeypatch.setattr(parser._pool, "call", call)
    parser.parse_many(jobs_of(TEXTS))
    assert sent[0] == "longest.md"
    assert {"long-b.md", "long-bad.md"} <= set(sent)
    assert sorted([rel for rel, _ in here] + sent) == sorted(TEXTS)  # each page parsed once
    assert not [rel for rel, _ in here if rel.startswith("long")]
    assert {thread for _, thread in here} <= {threading.current_thread().name}


def test_a_batch_of_short_pages_starts_no_worker(parser: ParsePool) -> None:
    jobs = jobs_of({"a.md": page("A", 3), "b.md": page("B", 5)})
    assert [outcome(r) for r in parser.parse_many(jobs)] == [expected(j) for j in jobs]
    assert parser.workers_started == 0
    assert parser.parse_many([]) == []


def test_an_unexpected_error_in_the_helper_thread_reaches_the_caller(
    parser: ParsePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(job: ParseJob) -> SourceDoc:
        raise RuntimeError(f"bug parsing {job.rel}")

    monkeypatch.setattr(parser, "_in_worker", broken)
    with pytest.raises(RuntimeError, match=r"bug parsing longest\.md"):
        parser.parse_many(jobs_of(TEXTS))


def test_a_busy_caller_leaves_every_page_to_the_worker(
    parser: ParsePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``here=False`` (``askdocs mcp`` importing the SDK meanwhile): a batch that needs the
    worker anyway is parsed there entirely; one of short pages still parses here."""
    here: list[str] = []

    def parse_here(text: str, rel: str, *args: object) -> SourceDoc:
        here.append(rel)
        return parse_document(text, rel, *args)  # type: ignore[arg-type]

    monkeypatch.setattr("askdocs.corpus.parse_pool.parse_document", parse_here)
    jobs = jobs_of(TEXTS)
    assert [outcome(r) for r in parser.parse_many(jobs, here=False)] == [
        expected(job) for job in jobs
    ]
    assert here == []
    short = jobs_of({"a.md": page("A", 3)})
    assert [outcome(r) for r in parser.parse_many(short, here=False)] == [expected(short[0])]
    assert here == ["a.md"]


def test_a_caller_busy_at_first_joins_in_once_free(
    parser: ParsePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``here`` as a callable is asked again while the worker parses: once it answers true
    this thread takes the short pages (``askdocs mcp``: once the server serves)."""
    here: list[str] = []

    def parse_here(text: str, rel: str, *args: object) -> SourceDoc:
        here.append(rel)
        return parse_document(text, rel, *args)  # type: ignore[arg-type]

    monkeypatch.setattr("askdocs.corpus.parse_pool.parse_document", parse_here)
    texts = {f"long-{n}.md": page(f"Long {n}", 600) for n in range(8)}
    texts |= {f"short-{n}.md": page(f"Short {n}", 2) for n in range(40)}
    jobs = jobs_of(texts)
    answers: list[bool] = []

    def free() -> bool:
        answers.append(bool(answers))  # busy the first time asked, free after
        return answers[-1]

    assert [outcome(r) for r in parser.parse_many(jobs, here=free)] == [
        expected(job) for job in jobs
    ]
    assert answers[0] is False
    assert True in answers
    assert here
    assert all(rel.startswith("short-") for rel in here)


def test_offloaded_says_once_when_the_files_are_read(parser: ParsePool) -> None:
    """``read()`` runs when the first batch's parsing starts, once; at the block's end when
    nothing was parsed."""
    cache = CorpusCache(parser)
    calls: list[int] = []
    with cache.offloaded(read=lambda: calls.append(len(calls))):
        cache.parse_many(jobs_of({"a.md": page("A", 2)}))
        assert calls == [0]
        cache.parse_many(jobs_of({"b.md": page("B", 2)}))
    assert calls == [0]
    with cache.offloaded(read=lambda: calls.append(len(calls))):
        assert calls == [0]
    assert calls == [0, 1]
    assert not cache.busy()  # the block's end frees the caller again
