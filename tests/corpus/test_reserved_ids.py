"""Defect 8 of the hardening battery: a heading never takes an element id of the reader's
own page (``toc``, ``ask-root``, ...), where its anchor would clobber the reader's UI."""

from __future__ import annotations

import re
from pathlib import Path

import askdocs.web
from askdocs.corpus.markdown import RESERVED_IDS, parse_markdown

STATIC = Path(askdocs.web.__file__).parent / "static"
_IDS = re.compile(r"""(?:\bid=["']|\.id = ["'])([A-Za-z0-9_-]+)["']""")


def test_reserved_ids_cover_every_id_of_the_reader_page() -> None:
    found = {
        match
        for path in STATIC.rglob("*")
        if path.suffix in (".html", ".js")
        for match in _IDS.findall(path.read_text(encoding="utf-8"))
    }
    assert found
    assert found <= RESERVED_IDS, sorted(found - RESERVED_IDS)


def test_heading_ids_never_clobber_reader_element_ids() -> None:
    doc = "# TOC\n\n## Ask root {#ask-root}\n\n## Search\n\n## Toc\n"
    ids = [h.section_id for h in parse_markdown(doc).headings]
    assert ids == ["toc-1", "ask-root-1", "search-1", "toc-2"]
    assert not set(ids) & RESERVED_IDS
