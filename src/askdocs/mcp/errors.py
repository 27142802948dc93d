"""The one set of error codes MCP tools return, in local and server mode alike.

A failed call's text is the message, the code in brackets and what to do. Server mode maps
the HTTP API's codes onto this set (``API_CODES``), so a host sees the same code for the
same failure whichever mode runs. docs/user-guide/mcp.md lists every code.
"""

from __future__ import annotations

from askdocs.error_codes import BY_CODE, ErrorCode
from askdocs.errors import AskDocsError

HINTS = {
    ErrorCode.INDEX_BUILDING: "The index is still being built; retry in a little while.",
    ErrorCode.UNAUTHORIZED: "The token was refused: mint a new one with `askdocs token create`.",
    ErrorCode.TOKEN_EXPIRED: "The token expired: mint a new one with `askdocs token create`.",
    ErrorCode.RATE_LIMITED: "A rate limit was reached; wait before retrying.",
    ErrorCode.SITE_NOT_FOUND: "Call list_catalog without `site`, or check the site id.",
}

# HTTP API codes (reader API and others) -> the MCP code for the same failure
API_CODES = {
    ErrorCode.READER_ARTICLE_NOT_FOUND: ErrorCode.PAGE_NOT_FOUND,
    ErrorCode.READER_INVALID_SLUG: ErrorCode.PAGE_NOT_FOUND,
    ErrorCode.READER_INVALID_LOCALE: ErrorCode.INVALID_ARGUMENT,
    ErrorCode.INVALID_INPUT: ErrorCode.INVALID_ARGUMENT,
}


def mcp_code(api_code: str | None, fallback: ErrorCode) -> ErrorCode:
    """The MCP code for an API error code (``fallback`` when the API sent none, or one this
    version does not know)."""
    known = BY_CODE.get(api_code or "")
    if known is None:
        return fallback
    return API_CODES.get(known, known)


def describe(exc: AskDocsError) -> str:
    """The text a model reads for a failed call: what went wrong, the code, what to do."""
    hint = HINTS.get(exc.code)
    text = f"{exc.message} [{exc.code}]"
    return f"{text} {hint}" if hint and hint not in exc.message else text
