"""Validating the identities a reader request carries: slug, asset id and locale.

Everything here runs before any lookup: a value that fails is a 400, never a file-system
question. Slugs are canonical already (the corpus makes them), so no normalisation is done
here: a value must *be* canonical, not *become* canonical (no NFKC, no percent-decoding,
no case folding after validation).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from askdocs.corpus.urls import valid_slug
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput

LOCALES: tuple[str, ...] = ("en", "cs", "sk")
IMAGE_EXTENSIONS: tuple[str, ...] = ("png", "jpg", "gif", "webp")

_ASSET_ID = re.compile(r"[0-9a-f]{64}\.(?:png|jpg|gif|webp)")


def check_slug(slug: str) -> str:
    """Return ``slug`` if it is a well-formed article slug, else raise ``InvalidInput``.

    A slug is 1-16 ``/``-separated segments of letters, digits, ``_``, ``~``, ``+``, ``-``,
    ``.`` and inner spaces, never starting with a dot (so no ``.`` or ``..`` segment); at most
    200 characters; printable; stable under NFKC (fullwidth dots and other compatibility
    forms never pass): ``corpus.urls.valid_slug``. Slugs are only ever dictionary keys,
    never file paths.
    """
    if not valid_slug(slug):
        raise _bad_slug()
    return slug


def check_asset_id(asset_id: str) -> str:
    """An asset id is the lowercase SHA-256 of the bytes, a dot and a known extension."""
    if not _ASSET_ID.fullmatch(asset_id):
        raise InvalidInput("asset id is not valid", code=ErrorCode.READER_INVALID_ASSET_ID)
    return asset_id


def check_locale(locale: str | None, allowed: Sequence[str] = LOCALES) -> str:
    """Catalog and article reads need an explicit locale, one of ``allowed``."""
    if locale is None or locale == "":
        raise InvalidInput(
            f"the locale parameter is required ({'|'.join(allowed)})",
            code=ErrorCode.READER_INVALID_LOCALE,
        )
    if locale not in allowed:
        raise InvalidInput(
            f"unsupported locale; use one of {'|'.join(allowed)}",
            code=ErrorCode.READER_INVALID_LOCALE,
        )
    return locale


def _bad_slug() -> InvalidInput:
    return InvalidInput("article slug is not valid", code=ErrorCode.READER_INVALID_SLUG)
