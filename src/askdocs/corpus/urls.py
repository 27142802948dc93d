"""Page URL templates: the placeholders they may use, checking and filling them; and the
slugs the reader can serve (``valid_slug``). Pure."""

from __future__ import annotations

import re
import string
import unicodedata

URL_FIELDS = frozenset({"slug", "path", "anchor", "locale"})


def format_url(template: str, *, slug: str, path: str, anchor: str, locale: str) -> str:
    """Fill a URL template; with no anchor a dangling ``#`` is dropped."""
    url = template.format(slug=slug, path=path, anchor=anchor, locale=locale)
    return url[:-1] if not anchor and url.endswith("#") else url


def template_fields(template: str) -> set[str]:
    """The placeholder names a URL template uses (to validate it before use)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


MAX_SLUG_CHARS = 200
MAX_SLUG_SEGMENTS = 16
_SEGMENT = re.compile(r"[\w~+-](?:[\w.~+ -]{0,98}[\w.~+-])?")


def valid_slug(slug: str) -> bool:
    """A slug the reader serves: 1-16 ``/``-separated segments of letters, digits, ``_``,
    ``~``, ``+``, ``-``, ``.`` and inner spaces, never starting with a dot; at most 200
    characters; printable; stable under NFKC. A page with any other slug is never indexed
    (the corpus lists it as a bad file), so no surface cites a page the reader refuses."""
    if not 0 < len(slug) <= MAX_SLUG_CHARS or not slug.isprintable():
        return False
    if unicodedata.normalize("NFKC", slug) != slug:
        return False
    segments = slug.split("/")
    return len(segments) <= MAX_SLUG_SEGMENTS and all(_SEGMENT.fullmatch(s) for s in segments)
