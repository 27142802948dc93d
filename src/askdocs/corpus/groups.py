"""A page's group (seed 003's ``group``; the reader's category). Pure.

The group is the page's front matter ``category`` when it is an id (letters, digits, ``-``
and ``_``; lower-cased), else the first folder of its slug (``tutorial/cors`` ->
``tutorial``); pages at the top of their docs folder are in ``general``. Every chunk
carries its page's group, so a search can be limited to one (``GET /api/search?group=``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

GENERAL: Final = "general"
GROUP_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$"
_GROUP_ID = re.compile(GROUP_PATTERN)


def page_group(meta: Mapping[str, object], slug: str) -> str:
    value = meta.get("category")
    if isinstance(value, str) and _GROUP_ID.fullmatch(value.strip()):
        return value.strip().lower()
    head, slash, _ = slug.partition("/")
    return head if slash else GENERAL
