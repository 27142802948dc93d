"""Server mode's translation of API answers and API errors (pure functions)."""

from __future__ import annotations

import json
from urllib.parse import quote

import httpx
import pytest

from askdocs.errors import (
    AskDocsError,
    AuthError,
    InvalidInput,
    NotFound,
    RateLimited,
    ServiceUnavailable,
)
from askdocs.mcp.remote import _api_error
from askdocs.mcp.wire import ask_from_api, search_from_api

SEARCH = {
    "query": "cors",
    "site": "docs",
    "mode": "hybrid",
    "match": True,
    "degraded_reason": None,
    "hits": [
        {
            "title": "Cross-origin requests",
            "heading": "Credentials",
            "url": "/docs/guides/cors#credentials",
            "text": "Set allow_credentials=True.",
            "locale": "en",
            "translated": True,
            "audience": "user",
            "path": "guides/cors.md",
            "score": 0.0327,
        }
    ],
}


def test_search_response_becomes_cited_hits() -> None:
    found = search_from_api("cors", SEARCH)
    citation = found.hits[0].citation
    assert (citation.path, citation.anchor, citation.url) == (
        "guides/cors.md",
        "credentials",
        "/docs/guides/cors#credentials",
    )
    assert citation.file is None
    assert (found.site, found.match, found.mode) == ("docs", True, "hybrid")


def test_ask_reads_the_streamed_text_and_the_sources_header() -> None:
    header = quote(json.dumps([{"title": "CORS", "url": "/docs/cors#c", "heading": "C"}]))
    answer = ask_from_api("Use allow_credentials [1].", header)
    assert answer.answer == "Use allow_credentials [1]."
    assert [s.url for s in answer.sources] == ["/docs/cors#c"]
    assert ask_from_api("Nothing found.", "").kind == "no_match"


def _response(
    status: int, code: str = "x", headers: dict[str, str] | None = None
) -> httpx.Response:
    body = {"error": {"code": code, "message": f"message {code}"}}
    return httpx.Response(status, json=body, headers=headers)


@pytest.mark.parametrize(
    ("status", "kind", "code"),
    [
        (401, AuthError, "token_expired"),
        (404, NotFound, "site_not_found"),
        (400, InvalidInput, "invalid_query"),
        (503, ServiceUnavailable, "index_building"),
    ],
)
def test_api_errors_keep_their_code(status: int, kind: type[AskDocsError], code: str) -> None:
    error = _api_error(_response(status, code))
    assert isinstance(error, kind)
    assert error.code == code
    assert f"message {code}" in error.message


def test_rate_limit_carries_retry_after() -> None:
    error = _api_error(_response(429, "burst_limit", {"Retry-After": "12"}))
    assert isinstance(error, RateLimited)
    assert error.retry_after == 12
    assert "retry after 12 s" in error.message


def test_an_error_without_a_json_body_still_reads_well() -> None:
    error = _api_error(httpx.Response(502, text="<html>bad gateway</html>"))
    assert isinstance(error, ServiceUnavailable)
    assert "HTTP 502" in error.message


@pytest.mark.parametrize(
    ("status", "api_code", "code"),
    [
        (404, "article-not-found", "page_not_found"),
        (400, "invalid-slug", "page_not_found"),
        (400, "invalid-locale", "invalid_argument"),
        (422, "invalid_input", "invalid_argument"),
    ],
)
def test_api_codes_become_the_mcp_code_set(status: int, api_code: str, code: str) -> None:
    assert _api_error(_response(status, api_code)).code == code


def test_a_404_without_an_askdocs_body_says_the_url_is_wrong() -> None:
    error = _api_error(httpx.Response(404, text="Not Found"))
    assert error.code == "api_bad_response"
    assert "ASKDOCS_API_URL" in error.message
