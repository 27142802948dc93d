"""Block plugins of our own, for constructs mdit-py-plugins has no plugin for.

* ``tabs_plugin``: Material content tabs, ``=== "Label"`` with a body indented four spaces
  (``===!`` starts a new tab set, ``===+`` selects the tab);
* ``mkdocstrings_plugin``: ``::: package.module.Name`` stubs and their indented options;
* ``abbreviations_plugin``: ``*[HTML]: Hyper Text Markup Language`` definitions.

Each emits ``dialect_open``/``dialect_close`` pairs (see ``tokens``).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.ruler import RuleOptionsType
from markdown_it.rules_block import StateBlock

from askdocs.corpus.dialects.html import visible_text
from askdocs.corpus.dialects.tokens import Block

_TAB = re.compile(r'^(===[!+]?)[ \t]+"(.*)"[ \t]*$')
_STUB = re.compile(r"^:::[ \t]+([A-Za-z_][\w.]*)[ \t]*$")
_DOTTED = re.compile(r"^:::[ \t]+[A-Za-z_]\w*(?:\.\w+)+[ \t]*$")
_ABBR = re.compile(r"^\*\[([^\]\n]+)\]:[ \t]*(.*)$")
BODY_INDENT = 4
_ALT: RuleOptionsType = {"alt": ["paragraph", "reference", "blockquote", "list"]}


def source_line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _is_code(state: StateBlock, line: int) -> bool:
    return state.sCount[line] - state.blkIndent >= BODY_INDENT


def _indented_end(state: StateBlock, start: int, end: int, indent: int) -> int:
    """The first line after ``start`` that closes an indented body: a non-blank line
    indented less than ``indent``, or the second of two blank lines."""
    line, blank_before = start + 1, False
    while line < end:
        blank = state.isEmpty(line)
        if blank and blank_before:
            return line
        if not blank and state.sCount[line] < indent:
            return line
        blank_before = blank
        line += 1
    return line


def _tab(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    if _is_code(state, start):
        return False
    match = _TAB.match(source_line(state, start))
    if match is None:
        return False
    if silent:
        return True
    indent = state.sCount[start] + BODY_INDENT
    stop = _indented_end(state, start, end, indent)
    marker = match.group(1)
    block = Block("tab", title=visible_text(match.group(2).strip()), indented=True)
    block.name = "new" if marker.endswith("!") else ("selected" if marker.endswith("+") else "")
    push_body(state, block, start, stop, indent)
    return True


def push_body(state: StateBlock, block: Block, start: int, stop: int, indent: int) -> None:
    old_parent, old_max, old_indent = state.parentType, state.lineMax, state.blkIndent
    token = state.push("dialect_open", "div", 1)
    token.block, token.map, token.meta = True, [start, stop], {"block": block}
    state.parentType, state.lineMax, state.blkIndent = "dialect", stop, indent
    state.md.block.tokenize(state, start + 1, stop)
    state.push("dialect_close", "div", -1).block = True
    state.parentType, state.lineMax, state.blkIndent = old_parent, old_max, old_indent
    state.line = stop


def tabs_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before("fence", "content_tab", _tab, _ALT)


def _stub(state: StateBlock, start: int, end: int, silent: bool, dotted_only: bool) -> bool:
    if _is_code(state, start):
        return False
    line = source_line(state, start)
    match = (_DOTTED if dotted_only else _STUB).match(line)
    if match is None:
        return False
    if silent:
        return True
    stop = start + 1
    while stop < end and (state.isEmpty(stop) or state.sCount[stop] > state.sCount[start]):
        stop += 1
    while stop - 1 > start and state.isEmpty(stop - 1):
        stop -= 1
    block = Block("reference", name=match.group(1), drop=list(range(start + 1, stop)))
    token = state.push("dialect_open", "div", 1)
    token.block, token.map, token.meta = True, [start, stop], {"block": block}
    state.push("dialect_close", "div", -1).block = True
    state.line = stop
    return True


def mkdocstrings_plugin(md: MarkdownIt, *, dotted_only: bool) -> None:
    """``dotted_only``: outside MkDocs, ``::: name`` is a container; only a dotted
    ``::: package.Name`` is still read as a stub."""

    def rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        return _stub(state, start, end, silent, dotted_only)

    md.block.ruler.before("fence", "mkdocstrings", rule, _ALT)


def _abbreviation(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    if _is_code(state, start):
        return False
    match = _ABBR.match(source_line(state, start))
    if match is None:
        return False
    if silent:
        return True
    block = Block("abbreviation", name=match.group(1).strip(), title=match.group(2).strip())
    token = state.push("dialect_open", "div", 1)
    token.block, token.map, token.meta = True, [start, start + 1], {"block": block}
    state.push("dialect_close", "div", -1).block = True
    state.line = start + 1
    return True


def abbreviations_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before("reference", "abbreviation", _abbreviation, _ALT)
