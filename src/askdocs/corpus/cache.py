"""The stat cache: parsed files and built pages reused while a file is unchanged.

Entries are keyed by (site, root, path) and validated by the file's inode, device,
mtime, ctime and size (seed 003) plus the parse settings. Every ``read_pages`` rescans
membership and keeps only the entries it saw, so removed and renamed files retire their
entries. A cache may be shared by threads: ``read_pages`` holds its lock while reading.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from askdocs.corpus.budget import ReadBudget
from askdocs.corpus.dialects.includes import Included, expand_includes
from askdocs.corpus.dialects.snippets import expand_vitepress
from askdocs.corpus.documents import ParseOptions, SourceDoc, parse_document
from askdocs.corpus.flights import ParseFlights
from askdocs.corpus.parse_pool import ParseJob, ParsePool
from askdocs.corpus.safe_read import StatKey, read_markdown
from askdocs.errors import CorpusError, Vanished
from askdocs.types import Page, PageError

if TYPE_CHECKING:
    from pathlib import Path

    from askdocs.corpus.pages import CorpusPages

EntryKey = tuple[str, str]  # (root path, relative path)
# a batch's results, in order; None: still pending when the read's budget was spent
ParseMany = Callable[[Sequence[ParseJob], ReadBudget | None], list[SourceDoc | CorpusError | None]]
CLOSE_JOIN_SECONDS = 10.0


@dataclass
class FileEntry:
    """One file's cached state; ``page`` is reused while its inputs match."""

    key: StatKey
    settings: tuple[ParseOptions, int]
    result: SourceDoc | PageError
    page_inputs: tuple[object, ...] | None = None
    page: Page | None = None

    def page_for(self, inputs: tuple[object, ...], build: Callable[[], Page]) -> Page:
        if self.page is None or self.page_inputs != inputs:
            self.page, self.page_inputs = build(), inputs
        return self.page


@dataclass
class SiteCache:
    entries: dict[EntryKey, FileEntry] = field(default_factory=dict)
    last: CorpusPages | None = None


SiteKey = tuple[str, tuple[str, ...]]  # (site id, resolved root paths)


class CorpusCache:
    """Holds one ``SiteCache`` per site (id and roots). Create one per process, pass it along.
    With a ``parser`` (the server's), long pages are parsed under its time budget."""

    def __init__(self, parser: ParsePool | None = None) -> None:
        self.lock = threading.Lock()
        self.parser = parser
        self.busy: Callable[[], bool] = _never  # ``offloaded()``: the worker takes what it can
        self._on_read: Callable[[], None] | None = None  # ``offloaded(read=...)``, once
        self._sites: dict[SiteKey, SiteCache] = {}
        self.flights = ParseFlights(lambda: self.parser, _parse_here)  # reads with a budget

    def site(self, key: SiteKey) -> SiteCache:
        return self._sites.setdefault(key, SiteCache())

    def clear(self) -> None:
        with self.lock:
            self._sites.clear()

    def parse_many(
        self, jobs: Sequence[ParseJob], budget: ReadBudget | None = None
    ) -> list[SourceDoc | CorpusError | None]:
        """Parse files, in order: with ``parser``, long ones under its time budget in its
        worker while this thread parses the others (``ParsePool.parse_many``). With a read
        ``budget``, on a background run shared with concurrent reads (``corpus.flights``):
        a file still being parsed at the deadline is None (pending)."""
        if budget is not None:
            return self.flights.parse(jobs, budget)
        if self._on_read is not None:
            on_read, self._on_read = self._on_read, None
            on_read()
        if self.parser is not None:
            busy = self.busy
            return list(self.parser.parse_many(jobs, here=lambda: not busy()))
        return [_parse_here(job) for job in jobs]

    @contextmanager
    def offloaded(
        self, busy: Callable[[], bool] | None = None, read: Callable[[], None] | None = None
    ) -> Iterator[None]:
        """Reads meanwhile leave the parsing to the worker where one is needed anyway while
        the process is ``busy()`` with other work (``askdocs mcp`` importing the SDK);
        without ``busy``, for the whole block. ``read()`` is called once, when the first
        batch of files has been read and its parsing starts (or when the block ends)."""
        self.busy, self._on_read = busy or _always, read
        try:
            yield
        finally:
            on_read, self._on_read = self._on_read, None
            self.busy = _never
            if on_read is not None:
                on_read()

    def close(self) -> None:
        """Stop the parse worker, if any (the cache itself stays usable in process)."""
        if self.parser is not None:
            self.parser.close()
            self.parser = None
        self.flights.join(CLOSE_JOIN_SECONDS)


@dataclass(frozen=True)
class Pending:
    """A new or changed file, read (its includes expanded) and waiting for its parse."""

    key: StatKey
    settings: tuple[ParseOptions, int]
    job: ParseJob


def prepare_entry(
    previous: FileEntry | None,
    root: Path,
    rel: str,
    key: StatKey,
    settings: tuple[ParseOptions, int],
) -> FileEntry | Pending | None:
    """The previous entry when the file and settings are unchanged, a bad file's entry
    when it cannot be read, None when it is gone (removed since the scan: left out of
    this read, not a bad file), else the file read and ready to parse (``finish_entry``)."""
    if previous is not None and previous.key == key and previous.settings == settings:
        return previous
    options, max_bytes = settings
    try:
        read = read_markdown(root, rel, max_bytes)
    except Vanished:
        return None
    except CorpusError as exc:
        return FileEntry(key, settings, PageError(rel, exc.reason))
    included = _includes(root, rel, read.text, options, max_bytes)
    return Pending(read.key, settings, ParseJob(included.text, rel, options, included))


def finish_entry(pending: Pending, parsed: SourceDoc | CorpusError) -> FileEntry:
    """The entry of a parsed file (``CorpusCache.parse_many``); a parse error makes it a
    bad file."""
    if isinstance(parsed, CorpusError):
        return FileEntry(pending.key, pending.settings, PageError(pending.job.rel, parsed.reason))
    return FileEntry(pending.key, pending.settings, parsed)


def _includes(root: Path, rel: str, text: str, options: ParseOptions, max_bytes: int) -> Included:
    """MkDocs include directives and VitePress imports resolved through the same safe read
    (inside the root)."""
    if options.dialect not in ("mkdocs", "vitepress"):
        return Included(text)

    def read(target: str) -> str | None:
        try:
            return read_markdown(root, target, max_bytes).text
        except CorpusError:
            return None

    if options.dialect == "vitepress":
        return expand_vitepress(text, rel, read, options.src_prefix)
    return expand_includes(text, rel, read)


def _never() -> bool:
    return False


def _always() -> bool:
    return True


def _parse_here(job: ParseJob) -> SourceDoc | CorpusError:
    try:
        return parse_document(job.text, job.rel, job.options, job.included)
    except CorpusError as exc:
        return exc
