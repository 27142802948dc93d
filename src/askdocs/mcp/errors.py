"""The one set of error codes MCP tools return, in local and server mode alike.

A failed call's text is the message, the code in brackets and what to do. Server mode maps
the HTTP API's codes onto this set (``API_CODES``), so a host sees the same code for the
same failure whichever mode runs. docs/user-guide/mcp.md lists every code.
"""

from __future__ import annotations

from askdocs.errors import AskDocsError

HINTS = {
    "index_building": "The index is still being built; retry in a little while.",
    "unauthorized": "The token was refused: mint a new one with `askdocs token create`.",
    "token_expired": "The token expired: mint a new one with `askdocs token create`.",
    "rate_limited": "A rate limit was reached; wait before retrying.",
    "site_not_found": "Call list_catalog without `site`, or check the site id.",
}

# HTTP API codes (reader API and others) -> the MCP code for the same failure
API_CODES = {
    "article-not-found": "page_not_found",
    "invalid-slug": "page_not_found",
    "invalid-locale": "invalid_argument",
    "invalid_input": "invalid_argument",
    "validation_error": "invalid_argument",
}


def mcp_code(api_code: str | None, fallback: str) -> str:
    """The MCP code for an API error code (``fallback`` when the API sent none)."""
    if not api_code:
        return fallback
    return API_CODES.get(api_code, api_code)


def describe(exc: AskDocsError) -> str:
    """The text a model reads for a failed call: what went wrong, the code, what to do."""
    hint = HINTS.get(exc.code)
    text = f"{exc.message} [{exc.code}]"
    return f"{text} {hint}" if hint and hint not in exc.message else text
