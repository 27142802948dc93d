"""Page URL templates: the placeholders they may use, checking and filling them. Pure."""

from __future__ import annotations

import string

URL_FIELDS = frozenset({"slug", "path", "anchor", "locale"})


def format_url(template: str, *, slug: str, path: str, anchor: str, locale: str) -> str:
    """Fill a URL template; with no anchor a dangling ``#`` is dropped."""
    url = template.format(slug=slug, path=path, anchor=anchor, locale=locale)
    return url[:-1] if not anchor and url.endswith("#") else url


def template_fields(template: str) -> set[str]:
    """The placeholder names a URL template uses (to validate it before use)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
