"""Email addresses, parsed (pure): the one rule for what an address is, used when an
account is made or found and when single sign-on's domain list is matched."""

from __future__ import annotations

import re

from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.wire import BLANK_CHARS

MAX_EMAIL_CHARS = 320
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
# What ``/openapi.json`` promises of an address (a regex Python, ECMA and Rust share): the
# whitespace ``str.strip`` removes around it, an ASCII local part, a domain of host-name
# labels in either case (the address is lower-cased). Every address it allows, the rule
# below accepts, but for a domain over 253 characters (a look-ahead would say so, and makes
# generating addresses from the pattern crawl); the rule also accepts non-ASCII local parts
# (printable ones), which a JSON Schema regex cannot tell from unprintable ones.
_SPACE = f"[{BLANK_CHARS}]*"
_PATTERN_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_PATTERN_DOMAIN = rf"{_PATTERN_LABEL}(?:\.{_PATTERN_LABEL})*"
EMAIL_PATTERN = rf"^{_SPACE}[!-?A-~]+@{_PATTERN_DOMAIN}{_SPACE}$"


def normalise_email(email: str) -> str:
    """Trimmed and lower-cased ``local@domain``, parsed: exactly one ``@``, a local part
    without spaces or control characters, a domain of host-name labels (ASCII; IDNs in
    their ``xn--`` form). ``x@evil.example@corp.test`` is not an address."""
    value = email.strip().lower()
    local, at, domain = value.partition("@")
    labels = domain.split(".")
    if not at or not local or len(value) > MAX_EMAIL_CHARS or len(domain) > 253:
        raise _not_an_address(email)
    if any(c.isspace() or not c.isprintable() or c == "@" for c in local):
        raise _not_an_address(email)
    if not all(_LABEL.fullmatch(label) for label in labels):
        raise _not_an_address(email)
    return value


def _not_an_address(email: str) -> InvalidInput:
    return InvalidInput(f"not an email address: {email[:320]!r}", code=ErrorCode.INVALID_EMAIL)
