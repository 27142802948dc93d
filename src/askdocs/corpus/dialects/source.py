"""The source rewritten before block parsing, line for line (a core rule; pure).

* MDX/JSX component tags become one-line HTML tags (``jsx.normalise_tags``);
* a line that is only a template statement, ``{% for x in y %}`` / ``{% raw %}`` (Jinja in
  mkdocs-macros, Liquid on GitHub Pages), becomes blank: the statement is the build's,
  never the reader's. Output expressions (``{{ x }}``) stay text;
* MyST attributes (``attrs_block``, ``attrs_inline``): a line ``{#id .class}`` becomes the
  target ``(id)=`` (or a blank line without an id), a span ``[text]{#id}`` its text after
  an anchor ``<span id="id"></span>``, attributes after a link, code span, image or
  autolink an anchor (myst only);
* MyST roles: ``{ref}`Title <target>``` reads ``Title`` (``{ref}``, ``{doc}``, ``{term}``,
  ``{numref}``, ``{any}``, ``{download}``: their text, else their target), any other role
  its content as code (``{py:func}`len``` reads ```len```) (myst only).

The number of lines never changes, so token line maps index the original file. The
rewritten source is left in ``env[SOURCE_KEY]`` for a caller that reads lines by those maps
(``dialects.prose``).
"""

from __future__ import annotations

import re

from markdown_it.rules_core import StateCore

from askdocs.corpus.dialects.jsx import normalise_tags

SOURCE_KEY = "askdocs_source"
DIALECT_KEY = "askdocs_dialect"  # parser option: the dialect the parser was made for
_STATEMENT = re.compile(r"^[ \t]{0,3}\{%-?\s*[a-z_]\w*\b.*?-?%\}[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def rewrite_source(state: StateCore) -> None:
    """Core rule (before ``block``)."""
    if "<" in state.src:
        state.src = normalise_tags(state.src)
    if "{%" in state.src:
        state.src = blank_template_lines(state.src)
    if state.md.options.get(DIALECT_KEY) == "myst" and "{" in state.src:
        state.src = myst_attributes(state.src)
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


_ATTR_LINE = re.compile(r"^[ \t]{0,3}\{([#.][^{}]*)\}[ \t]*$")
_ATTR_SPAN = re.compile(r"\[([^\[\]]+)\]\{([#.][^{}]*)\}")
_ATTR_AFTER = re.compile(r"(?<=[)`>])\{([#.][^{}]*)\}")
_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")  # a code span, as CommonMark's
_ROLE_NAME = re.compile(r"\{([\w:+-]+)\}$")
TEXT_ROLES = frozenset({"ref", "doc", "term", "numref", "any", "download", "eq", "abbr"})
_ATTR_ID = re.compile(r"#([\w:.-]+)")


def myst_attributes(text: str) -> str:
    lines = text.split("\n")
    fence = ""
    for index, line in enumerate(lines):
        match = _FENCE.match(line)
        if match and (not fence or match.group(1)[0] == fence[0]):
            fence = "" if fence else match.group(1)
        elif not fence:
            lines[index] = _attributes_line(line)
    return "\n".join(lines)


def _attributes_line(line: str) -> str:
    block = _ATTR_LINE.match(line)
    if block is not None:
        ident = _ATTR_ID.search(block.group(1))
        return f"({ident.group(1)})=" if ident else ""
    if "}`" in line:
        line = _roles(line)
    if "{" not in line:
        return line
    line = _ATTR_SPAN.sub(_span, line)
    return _ATTR_AFTER.sub(_after, line)


def _after(match: re.Match[str]) -> str:
    ident = _ATTR_ID.search(match.group(1))
    return f'<span id="{ident.group(1)}"></span>' if ident else ""


def _roles(line: str) -> str:
    """Each ``{role}`content``` of ``line``; any other code span stays as written."""
    out: list[str] = []
    position = 0
    for code in _CODE.finditer(line):
        before = line[position : code.start()]
        role = _ROLE_NAME.search(before)
        if role is None:
            out.append(line[position : code.end()])
        else:
            out.append(before[: role.start()] + _role(role.group(1), code.group(1), code.group(2)))
        position = code.end()
    out.append(line[position:])
    return "".join(out)


def _role(name: str, ticks: str, content: str) -> str:
    if name.rsplit(":", 1)[-1] not in TEXT_ROLES:
        return f"{ticks}{content}{ticks}"
    text = re.sub(r"\s*<[^<>]*>\s*$", "", content).strip()
    return (text or content).lstrip("~!")


def _span(match: re.Match[str]) -> str:
    ident = _ATTR_ID.search(match.group(2))
    anchor = f'<span id="{ident.group(1)}"></span>' if ident else ""
    return f"{anchor}{match.group(1)}"
