"""Documentation dialects: MkDocs Material, Docusaurus/MDX, VitePress, MyST, GitHub Markdown.

A docs root is written in one dialect (``detect``). ``parser.make_dialect_parser`` builds the
markdown-it parser for it: mdit-py-plugins where one exists (admonitions, containers, deflists,
footnotes, task lists) and small plugins of our own (``blocks``: content tabs, mkdocstrings
stubs, abbreviations; ``normalise``: GitHub alerts, MyST directives, code tab groups, MDX and
HTML blocks). Every construct ends up as one pair of ``dialect_open``/``dialect_close`` tokens
(see ``tokens``), which the corpus turns into prose (``prose``) and the reader into HTML.

Pure except ``detect`` (which looks at files next to and above a root).
"""

from __future__ import annotations

from typing import Literal

Dialect = Literal["mkdocs", "docusaurus", "vitepress", "myst", "gfm"]
DIALECTS: tuple[Dialect, ...] = ("mkdocs", "docusaurus", "vitepress", "myst", "gfm")
