"""The stat cache: parsed files and built pages reused while a file is unchanged.

Entries are keyed by (site, root, path) and validated by the file's inode, device,
mtime, ctime and size (seed 003) plus the parse settings. Every ``read_pages`` rescans
membership and keeps only the entries it saw, so removed and renamed files retire their
entries. A cache may be shared by threads: ``read_pages`` holds its lock while reading.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from askdocs.corpus.dialects.includes import Included, expand_includes
from askdocs.corpus.documents import ParseOptions, SourceDoc, parse_document
from askdocs.corpus.parse_pool import ParsePool
from askdocs.corpus.safe_read import StatKey, read_markdown
from askdocs.errors import CorpusError
from askdocs.types import Page, PageError

if TYPE_CHECKING:
    from pathlib import Path

    from askdocs.corpus.pages import CorpusPages

EntryKey = tuple[str, str]  # (root path, relative path)
Parse = Callable[[str, str, ParseOptions, Included], SourceDoc]


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
        self._sites: dict[SiteKey, SiteCache] = {}

    def site(self, key: SiteKey) -> SiteCache:
        return self._sites.setdefault(key, SiteCache())

    def clear(self) -> None:
        with self.lock:
            self._sites.clear()

    def parse(self, text: str, rel: str, options: ParseOptions, included: Included) -> SourceDoc:
        """Parse one file: under the time budget of ``parser`` when there is one."""
        if self.parser is None:
            return parse_document(text, rel, options, included)
        return self.parser.parse(text, rel, options, included)

    def close(self) -> None:
        """Stop the parse worker, if any (the cache itself stays usable in process)."""
        if self.parser is not None:
            self.parser.close()
            self.parser = None


def load_entry(
    previous: FileEntry | None,
    root: Path,
    rel: str,
    key: StatKey,
    settings: tuple[ParseOptions, int],
    parse: Parse = parse_document,
) -> FileEntry:
    """The previous entry when the file and settings are unchanged, else a fresh read,
    parsed by ``parse`` (``CorpusCache.parse``: under a time budget in the server)."""
    if previous is not None and previous.key == key and previous.settings == settings:
        return previous
    options, max_bytes = settings
    try:
        read = read_markdown(root, rel, max_bytes)
    except CorpusError as exc:
        return FileEntry(key, settings, PageError(rel, exc.reason))
    included = _includes(root, rel, read.text, options, max_bytes)
    try:
        result: SourceDoc | PageError = parse(included.text, rel, options, included)
    except CorpusError as exc:
        result = PageError(rel, exc.reason)
    return FileEntry(read.key, settings, result)


def _includes(root: Path, rel: str, text: str, options: ParseOptions, max_bytes: int) -> Included:
    """MkDocs include directives resolved through the same safe read (inside the root)."""
    if options.dialect != "mkdocs":
        return Included(text)

    def read(target: str) -> str | None:
        try:
            return read_markdown(root, target, max_bytes).text
        except CorpusError:
            return None

    return expand_includes(text, rel, read)
