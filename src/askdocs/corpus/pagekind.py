"""Page kinds: guides and changelogs (release notes), and queries about versions. Pure.

A changelog mentions nearly every feature once per release, so its sections share words
with almost any question while answering none of them. They rank below guides unless the
query asks about versions, releases, upgrades or what changed (``search.ranking``).

A page's kind, first rule that applies:

1. the root's ``page_kinds`` setting: a glob of paths -> kind;
2. front matter ``kind:`` or ``type:`` naming one (``changelog``, ``release-notes``, ...);
3. the file name: ``release-notes``, ``changelog``, ``changes``, ``history``, ``whats-new``
   (any case, ``-``/``_``/space alike);
4. the headings: at least ``MIN_VERSION_HEADINGS`` headings and most of them versions
   (``0.115.0``, ``v2.1``, ``[1.2.3] - 2024-01-01``, ``Version 3.0``, ``Release 1.4``).

Otherwise it is a guide.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

from askdocs.types import Heading

PageKind = Literal["guide", "changelog"]
PAGE_KINDS: tuple[PageKind, ...] = ("guide", "changelog")
MIN_VERSION_HEADINGS = 3
VERSION_SHARE = 0.5

_SEPARATORS = re.compile(r"[\s_\-]+")
_CHANGELOG_NAMES = frozenset({"changelog", "changes", "releasenotes", "releases", "whatsnew"})
_CHANGELOG_VALUES = frozenset({"changelog", "releasenotes", "release", "releases", "changes"})
_VERSION = r"v?\d+(?:\.\d+){1,3}(?:[-.+]?[a-z]+\d*)?"
_VERSION_HEADING = re.compile(
    rf"^\W*(?:(?:version|release|v)\s*)?\[?{_VERSION}\]?(?:\W.*)?$", re.IGNORECASE
)
_VERSION_QUERY = re.compile(
    r"\b(?:versions?|releases?|released|release notes|changelogs?|change ?log|upgrad\w*|"
    r"downgrad\w*|what'?s new|what changed|what has changed|changed in|new in|"
    rf"deprecat\w*|breaking changes?)\b|\b{_VERSION}\b",
    re.IGNORECASE,
)


def _squash(text: str) -> str:
    return _SEPARATORS.sub("", text.casefold()).replace("'", "")


def kind_from_name(path: str) -> PageKind | None:
    """``release-notes.md``, ``CHANGELOG.md``, ``docs/whats_new.md``: changelogs."""
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return "changelog" if _squash(stem) in _CHANGELOG_NAMES else None


def kind_from_front_matter(meta: Mapping[str, object]) -> PageKind | None:
    for key in ("kind", "type", "page_kind"):
        value = meta.get(key)
        if isinstance(value, str):
            squashed = _squash(value)
            if squashed in _CHANGELOG_VALUES:
                return "changelog"
            if squashed == "guide":
                return "guide"
    return None


def is_version_heading(text: str) -> bool:
    """``0.115.0``, ``v2.1.3 (2024-05-01)``, ``[1.2.0] - 2024-01-01``, ``Version 3.0``."""
    return bool(_VERSION_HEADING.match(text.strip()))


def kind_from_headings(headings: Sequence[Heading]) -> PageKind | None:
    texts = [h.text for h in headings if h.level > 1]
    versions = sum(is_version_heading(text) for text in texts)
    enough = versions >= MIN_VERSION_HEADINGS and versions >= VERSION_SHARE * len(texts)
    return "changelog" if enough else None


def page_kind(
    path: str,
    meta: Mapping[str, object],
    headings: Sequence[Heading],
    configured: PageKind | None = None,
) -> PageKind:
    """The kind of one page: ``configured`` (the root's ``page_kinds``) first, then front
    matter, file name and headings."""
    return (
        configured
        or kind_from_front_matter(meta)
        or kind_from_name(path)
        or kind_from_headings(headings)
        or "guide"
    )


def asks_about_versions(query: str) -> bool:
    """The query is about versions, releases, upgrades or what changed."""
    return bool(_VERSION_QUERY.search(query))
