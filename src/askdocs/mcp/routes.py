"""The API routes server mode calls, and ``api_path``: the one place their URLs are built.

A route is a template with named placeholders (``/api/v1/admin/sites/{siteId}/reindex``).
``api_path`` checks each value against the kind its placeholder's name gives it, then
percent-quotes it whole, so ``/``, ``?``, ``#`` and ``%`` in a tool argument never become
URL structure; a value that is not an id of its kind (``..``, ``../../proposals/X/discard?``)
is ``InvalidInput`` (``invalid_argument``) and no request is made. Issue #27, defect 4:
``reindex_site`` with that site id made the server discard a person's proposal, and
``get_article`` with ``../../v1/...`` made GETs to any route as the person.

Every request server mode makes goes through here (``RemoteBackend``); tools, including
admin tools generated from an operation table, pass a template and values, never a path.
Pure: no I/O.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from urllib.parse import quote

from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.reader.ids import check_slug

SEARCH = "/api/search"
CATALOG = "/api/docs/catalog"
ARTICLE = "/api/docs/articles/{slug}"
ASK = "/api/ask"
GRANTS_MINE = "/api/v1/admin/grants/mine"
PROPOSE = "/api/v1/admin/proposals/{operation}"
APPLY = "/api/v1/admin/apply/{operation}"
REINDEX = "/api/v1/admin/sites/{siteId}/reindex"
RUNS = "/api/v1/admin/runs"
READ = "/api/v1/admin/reads/{operation}"
ACTION = "/api/v1/admin/actions/{operation}"
STORE_PROPOSAL = "/api/v1/proposals"
SCHEMAS = "/api/v1/admin/schemas"
SCHEMA = "/api/v1/admin/schemas/{schemaId}"  # an operation's name or slug

SITE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
OPERATION = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")  # uuids, tokens: one segment, no dots


def _matching(pattern: re.Pattern[str], what: str) -> Callable[[str, str], str]:
    def check(name: str, value: str) -> str:
        if not pattern.fullmatch(value):
            raise _not_an_id(name, what)
        return quote(value, safe="")

    return check


def _slug(name: str, value: str) -> str:
    """An article slug: ``/``-separated segments (``guide/install``), each quoted alone."""
    try:
        check_slug(value)
    except InvalidInput:
        raise _not_an_id(name, "a page slug") from None
    return "/".join(quote(segment, safe="") for segment in value.split("/"))


KINDS: dict[str, Callable[[str, str], str]] = {
    "siteId": _matching(SITE_ID, "a site id"),
    "operation": _matching(OPERATION, "an operation name"),
    "slug": _slug,
}
_ANY_ID = _matching(ID, "an id")  # any other ``...Id`` placeholder


def api_path(template: str, **values: str) -> str:
    """``template`` with each placeholder replaced by its checked, quoted value.

    Raises ``InvalidInput`` for a value that is not an id of its kind; ``ValueError`` for a
    template whose placeholders are not all given, or of no known kind (a programming
    error, not a caller's)."""
    names = [field for _, field, _, _ in string.Formatter().parse(template) if field]
    if sorted(names) != sorted(values):
        raise ValueError(f"{template}: needs {sorted(names)}, got {sorted(values)}")
    return template.format(**{name: _kind(name)(name, values[name]) for name in names})


def _kind(name: str) -> Callable[[str, str], str]:
    if name in KINDS:
        return KINDS[name]
    if name.endswith("Id"):
        return _ANY_ID
    raise ValueError(f"placeholder {{{name}}} has no known kind")


def _not_an_id(name: str, what: str) -> InvalidInput:
    return InvalidInput(f"`{name}` is not {what}", code=ErrorCode.INVALID_ARGUMENT)
