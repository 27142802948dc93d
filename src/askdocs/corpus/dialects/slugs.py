"""Heading ids the way each dialect's own build makes them (pure).

A ``SlugStyle`` names the algorithm and its options; ``slug`` turns a heading's visible
text into an id and ``dedupe`` numbers a repeated one as that build does:

* ``github`` (GFM, Docusaurus; MyST's ``myst_heading_anchors``): github-slugger,
  lowercase, every character that is not a letter, digit, mark, ``_``, ``-`` or space
  removed, each space a dash (no collapsing); repeats get ``-1``, ``-2``;
* ``python-markdown`` (MkDocs' ``toc`` default): NFKD folded to ASCII (unless
  ``unicode``), ``[^\\w\\s-]`` removed, lowercase, runs of spaces and separators one
  separator; repeats get ``_1``, ``_2``;
* ``pymdownx`` (``toc.slugify: pymdownx.slugs.slugify``): NFC, tags removed, cased as
  configured, ``[^\\w\\- ]`` removed, each space the separator; repeats as Python-Markdown;
* ``vitepress`` (``@mdit-vue/shared`` slugify): NFKD without combining marks, runs of
  punctuation and spaces one dash, trimmed, a leading digit prefixed with ``_``,
  lowercase; repeats get ``-1``, ``-2``.

An empty id becomes ``section`` (every heading keeps an anchor).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

SlugKind = Literal["github", "python-markdown", "pymdownx", "vitepress"]
Case = Literal["lower", "none", "lower-ascii", "fold"]
EMPTY = "section"

_PM_INVALID = re.compile(r"[^\w\s-]")
_PYMDOWNX_INVALID = re.compile(r"[^\w\- ]")
_TAGS = re.compile(r"</?[^>]*>")
_VP_CONTROL = re.compile(r"[\u0000-\u001f]")
_VP_SPECIAL = re.compile(r"[\s~`!@#$%^&*()\-_+=\[\]{}|\\;:\"'“”‘’<>,.?/]+")
_VP_DASHES = re.compile(r"-{2,}")
_SUFFIX = re.compile(r"^(.*)_([0-9]+)$")


@dataclass(frozen=True)
class SlugStyle:
    kind: SlugKind = "github"
    separator: str = "-"
    case: Case = "lower"
    unicode: bool = False  # python-markdown: keep non-ASCII letters


DIALECT_SLUGS: dict[str, SlugStyle] = {
    "gfm": SlugStyle("github"),
    "docusaurus": SlugStyle("github"),
    "myst": SlugStyle("github"),
    "vitepress": SlugStyle("vitepress"),
    "mkdocs": SlugStyle("python-markdown"),
}


def slug(text: str, style: SlugStyle) -> str:
    """The id ``style`` gives a heading whose visible text is ``text``."""
    made = _SLUGGERS[style.kind](text, style)
    return made or EMPTY


def _github(text: str, style: SlugStyle) -> str:
    kept = (char for char in text.lower() if _github_keeps(char))
    return "".join(kept).replace(" ", "-")


def _github_keeps(char: str) -> bool:
    if char in "-_ ":
        return True
    return unicodedata.category(char)[0] in "LNM"


def _python_markdown(text: str, style: SlugStyle) -> str:
    value = text
    if not style.unicode:
        value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    value = _PM_INVALID.sub("", value).strip().lower()
    return re.sub(rf"[{re.escape(style.separator)}\s]+", style.separator, value)


def _pymdownx(text: str, style: SlugStyle) -> str:
    value = _TAGS.sub("", unicodedata.normalize("NFC", text)).strip()
    if style.case == "lower":
        value = value.lower()
    elif style.case == "lower-ascii":
        value = re.sub(r"[A-Z]", lambda m: m.group(0).lower(), value)
    elif style.case == "fold":
        value = value.casefold()
    return _PYMDOWNX_INVALID.sub("", value).replace(" ", style.separator)


def _vitepress(text: str, style: SlugStyle) -> str:
    value = unicodedata.normalize("NFKD", text)
    value = "".join(char for char in value if not 0x300 <= ord(char) <= 0x36F)
    value = _VP_SPECIAL.sub("-", _VP_CONTROL.sub("", value))
    value = _VP_DASHES.sub("-", value).strip("-")
    value = re.sub(r"^(\d)", r"_\1", value)
    return value.lower()


_SLUGGERS = {
    "github": _github,
    "python-markdown": _python_markdown,
    "pymdownx": _pymdownx,
    "vitepress": _vitepress,
}


def dedupe(value: str, used: set[str], style: SlugStyle) -> str:
    """``value`` made unique among ``used`` (and added to it), numbered as ``style``'s
    build numbers a repeated heading."""
    if style.kind in ("python-markdown", "pymdownx"):
        return _dedupe_underscore(value, used)
    candidate, counter = value, 0
    while candidate in used:
        counter += 1
        candidate = f"{value}-{counter}"
    used.add(candidate)
    return candidate


def _dedupe_underscore(value: str, used: set[str]) -> str:
    """Python-Markdown's ``toc.unique``: ``id_1``, then ``id_2``..."""
    candidate = value
    while candidate in used or not candidate:
        match = _SUFFIX.match(candidate)
        candidate = f"{match.group(1)}_{int(match.group(2)) + 1}" if match else f"{candidate}_1"
    used.add(candidate)
    return candidate
