"""The source rewritten before block parsing, line for line (a core rule; pure).

* MDX/JSX component tags become one-line HTML tags (``jsx.normalise_tags``);
* a line that is only a template statement, ``{% for x in y %}`` / ``{% raw %}`` (Jinja in
  mkdocs-macros, Liquid on GitHub Pages), becomes blank: the statement is the build's,
  never the reader's. Output expressions (``{{ x }}``) stay text.

The number of lines never changes, so token line maps index the original file. The
rewritten source is left in ``env[SOURCE_KEY]`` for a caller that reads lines by those maps
(``dialects.prose``).
"""

from __future__ import annotations

import re

from markdown_it.rules_core import StateCore

from askdocs.corpus.dialects.jsx import normalise_tags

SOURCE_KEY = "askdocs_source"
_STATEMENT = re.compile(r"^[ \t]{0,3}\{%-?\s*[a-z_]\w*\b.*?-?%\}[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def rewrite_source(state: StateCore) -> None:
    """Core rule (before ``block``)."""
    if "<" in state.src:
        state.src = normalise_tags(state.src)
    if "{%" in state.src:
        state.src = blank_template_lines(state.src)
    state.env[SOURCE_KEY] = state.src


def blank_template_lines(text: str) -> str:
    lines = text.split("\n")
    fence = ""
    for index, line in enumerate(lines):
        match = _FENCE.match(line)
        if match and (not fence or match.group(1)[0] == fence[0]):
            fence = "" if fence else match.group(1)
        elif not fence and _STATEMENT.match(line):
            lines[index] = ""
    return "\n".join(lines)
