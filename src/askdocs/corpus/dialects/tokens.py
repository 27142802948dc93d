"""The one token shape every dialect construct becomes: ``dialect_open`` / ``dialect_close``.

``meta`` of an open token (a ``Block``) says what it is, for the corpus (``prose``) and the
reader alike:

* ``kind``: admonition | details | tabset | tab | reference | component | directive
  (``directive``: a construct we parse but do not know, rendered as its text);
* ``name``: the admonition type ("note", "warning"...), tab value or component name;
* ``title``: the visible title or tab label ("" when none);
* ``collapsible``: "" | "open" | "closed";
* ``indented``: the body is indented four spaces under the marker (MkDocs style);
* ``closer``: 0-based source line of a closing marker line, or -1;
* ``drop``: further 0-based source lines that are syntax only (directive options);
* ``anchor``: an id the block offers links (a MyST directive's ``:name:`` option).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it.token import Token

KINDS = ("admonition", "details", "tabset", "tab", "reference", "component", "directive")
# Admonition types the reader styles and titles; anything else is still an admonition, with
# the generic icon.
ADMONITION_TYPES = frozenset(
    {
        *("note", "abstract", "summary", "tldr", "info", "todo", "tip", "hint", "important"),
        *("success", "check", "done", "question", "help", "faq", "warning", "caution"),
        *("attention", "failure", "fail", "missing", "danger", "error", "bug", "example"),
        *("quote", "cite", "seealso", "admonition", "secondary", "primary", "details"),
    }
)


@dataclass
class Block:
    kind: str
    name: str = ""
    title: str = ""
    collapsible: str = ""
    indented: bool = False
    closer: int = -1
    drop: list[int] = field(default_factory=list)
    anchor: str = ""  # an id the block offers links (a MyST directive's ``:name:``)


def open_token(block: Block, line_map: list[int] | None, level: int = 0) -> Token:
    token = Token("dialect_open", "div", 1)
    token.block = True
    token.map = line_map
    token.level = level
    token.meta = {"block": block}
    return token


def close_token(level: int = 0) -> Token:
    token = Token("dialect_close", "div", -1)
    token.block = True
    token.level = level
    return token


def block_of(token: Token) -> Block:
    block = token.meta.get("block")
    if not isinstance(block, Block):
        raise TypeError("not a dialect_open token")
    return block


def readable_name(name: str) -> str:
    """ "warning" -> "Warning", "see-also" -> "See also"."""
    words = name.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]
