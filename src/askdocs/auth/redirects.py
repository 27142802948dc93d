"""The one rule for where a browser may be sent after signing in (pure).

Every redirect that takes a ``next`` from a request goes through ``safe_next``: the sign-in
page (it receives the checked value in its page config and never judges ``next`` itself),
single sign-on's start and its callback. A value is kept only when, as given and decoded
once, it is a path on this origin: it starts with ``/`` but not ``//``, holds no ``\\`` and
no control character (browsers strip tab, LF and CR from URLs, so ``/<tab>/evil.example``
becomes ``//evil.example``), and resolved against ``origin`` it stays on ``origin``.
Anything else is the fallback.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import unquote, urljoin, urlsplit

MAX_NEXT_CHARS = 500


def safe_next(value: str | None, origin: str, fallback: str = "/") -> str:
    """``value`` when it is a path on ``origin`` (see the module's rule); else ``fallback``."""
    if not value or len(value) > MAX_NEXT_CHARS:
        return fallback
    if not (_plain_path(value) and _plain_path(unquote(value))):
        return fallback
    return value if _same_origin(value, origin) else fallback


def _plain_path(value: str) -> bool:
    starts = value.startswith("/") and not value.startswith("//")
    return starts and "\\" not in value and not any(_control(c) for c in value)


def _control(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def _same_origin(value: str, origin: str) -> bool:
    base = urlsplit(origin.rstrip("/") + "/")
    target = urlsplit(urljoin(base.geturl(), value))
    return (target.scheme, target.netloc) == (base.scheme, base.netloc)
