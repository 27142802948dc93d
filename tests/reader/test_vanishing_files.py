"""A file that vanishes while a read scans its folder fails nothing but itself (issue #27,
defect 5): an editor's save loop (write a temporary file, move the original aside, move
the temporary file in, delete the original) beside 1,000 reads of pages that never
change gave 18 x ``503 docs-unavailable``. Every read now answers; a file that is gone
by the time it is looked at is simply not there, never a bad file."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from askdocs.errors import ServiceUnavailable
from askdocs.reader.control import DocsReader
from tests.reader.conftest import Tree
from tests.reader.fixtures import fixture_settings

READS = 1000


class SaveLoop:
    """Saves ``guide/configure.md`` over and over the way editors do (JetBrains' "safe
    write"), with a Markdown-named temporary file too, until stopped."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.saves = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="save-loop", daemon=True)

    def _run(self) -> None:
        page = self.folder / "configure.md"
        text = page.read_text(encoding="utf-8")
        while not self.stop.is_set():
            temporary = self.folder / "configure.md___jb_tmp___"
            old = self.folder / "configure.md___jb_old___"
            draft = self.folder / "configure.tmp.md"
            temporary.write_text(text, encoding="utf-8")
            draft.write_text(text, encoding="utf-8")
            os.replace(page, old)
            os.replace(temporary, page)
            old.unlink()
            draft.unlink()
            self.saves += 1

    def __enter__(self) -> SaveLoop:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(30)


def test_a_file_that_vanishes_mid_read_does_not_fail_its_site(tree: Tree) -> None:
    settings = fixture_settings(tree.base)
    (site,) = settings.sites
    reader = DocsReader(settings)
    unavailable: list[str] = []
    missing = 0
    try:
        reader.catalog(site, "en")  # warm: the pages are parsed once
        with SaveLoop(tree.docs / "guide") as loop:
            for n in range(READS):
                try:
                    if n % 2:
                        reader.article(site, "guide/install", "en")
                    else:
                        slugs = {
                            a.slug
                            for c in reader.catalog(site, "en").categories
                            for a in c.articles
                        }
                        missing += "guide/install" not in slugs
                except ServiceUnavailable as exc:
                    unavailable.append(str(exc))
        bad = {e.path for e in reader._snapshot(site).errors}
    finally:
        reader.close()
    assert loop.saves > 20  # the loop really ran beside the reads
    assert unavailable == []
    assert missing == 0
    assert not {p for p in bad if "configure" in p}  # a vanished file is never a bad file
