"""Server mode: every tool calls the askdocs HTTP API with the caller's bearer token unchanged.

The API re-checks the token and applies its own scoping; this side only forwards. Every
URL is built by ``routes.api_path`` from a route template and checked, quoted ids. Every
request is bounded (connect, read, write, pool timeouts) and every failure becomes an
``AskDocsError`` whose text says what to do. An apply the person accepted carries the
approval proof ``approve`` mints (``askdocs.auth.approval``): the API demands it of the
MCP token this server forwards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import httpx
from pydantic import ValidationError

from askdocs.auth.approval import HEADER as APPROVAL_HEADER
from askdocs.error_codes import ErrorCode
from askdocs.errors import (
    AskDocsError,
    AuthError,
    Forbidden,
    InvalidInput,
    NotFound,
    RateLimited,
    ServiceUnavailable,
)
from askdocs.mcp import routes
from askdocs.mcp.backend import ArticleArgs, Call, SearchArgs
from askdocs.mcp.errors import mcp_code
from askdocs.mcp.models import ArticleOutput, AskOutput, CatalogOutput, SearchOutput
from askdocs.mcp.refs import split_ref
from askdocs.mcp.routes import api_path
from askdocs.mcp.wire import article_from_api, ask_from_api, catalog_from_api, search_from_api
from askdocs.types import DEFAULT_LOCALE

T = TypeVar("T")
CONNECT_SECONDS = 3.0
USER_AGENT = "askdocs-mcp"
Approver = Callable[[str, str], str]  # (user id, confirmation token) -> approval proof


class RemoteBackend:
    """Tools over the askdocs HTTP API at ``base_url``; links for people (``applyUrl``) on
    ``public_url`` (``server.public_url``) when set, else on ``base_url``."""

    def __init__(
        self,
        base_url: str,
        *,
        timeout_seconds: float,
        transport: httpx.AsyncBaseTransport | None = None,
        approve: Approver | None = None,
        public_url: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.public_url = (public_url or base_url).rstrip("/")
        self.approve = approve
        timeout = httpx.Timeout(timeout_seconds, connect=min(CONNECT_SECONDS, timeout_seconds))
        self._client = httpx.AsyncClient(
            base_url=self.base_url,
            timeout=timeout,
            transport=transport,
            follow_redirects=False,
            headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
        )

    def begin(self) -> None:
        return None

    async def start(self) -> None:
        return None

    async def aclose(self) -> None:
        await self._client.aclose()

    async def site_ids(self, call: Call) -> list[str]:
        """The API serves one default site at its address; other sites stay reachable by id."""
        return [(await self.catalog(call, None, None)).site]

    def generation(self) -> int:
        return 0  # the API's index changes are not observed from here

    async def search(self, call: Call, args: SearchArgs) -> SearchOutput:
        params = _params(q=args.query, site=args.site, locale=args.locale, limit=args.limit)
        data = await self._request(call, "GET", api_path(routes.SEARCH), params=params)
        return _parsed(lambda: search_from_api(args.query, data))

    async def article(self, call: Call, args: ArticleArgs) -> ArticleOutput:
        key, anchor = split_ref(args.ref)
        slug = key.removesuffix(".md").removesuffix(".mdx") or "index"
        try:
            path = api_path(routes.ARTICLE, slug=slug)
        except InvalidInput:  # not a slug: no such page (local mode answers alike)
            raise _not_found("article-not-found", f"no page {args.ref!r}") from None
        params = _params(site=args.site, locale=args.locale or DEFAULT_LOCALE)
        data = await self._request(call, "GET", path, params=params)
        return _parsed(lambda: article_from_api(args.section or anchor, data))

    async def catalog(self, call: Call, site: str | None, locale: str | None) -> CatalogOutput:
        params = _params(site=site, locale=locale or DEFAULT_LOCALE)  # the reader wants one
        data = await self._request(call, "GET", api_path(routes.CATALOG), params=params)
        return _parsed(lambda: catalog_from_api(data))

    async def ask(self, call: Call, question: str, site: str | None) -> AskOutput:
        """``POST /api/ask``: the API picks the site from its own host, so ``site`` can't."""
        if site is not None:
            raise InvalidInput(
                "in server mode ask answers for the site the API serves at its address; "
                "omit `site`, or use search_docs with `site`",
                code=ErrorCode.ASK_SITE_UNSUPPORTED,
            )
        body = {"messages": [{"role": "user", "content": question}]}
        response = await self._send(call, "POST", api_path(routes.ASK), json=body)
        return ask_from_api(response.text, response.headers.get("X-Ask-Sources", ""))

    async def call_api(
        self,
        call: Call,
        method: str,
        route: str,
        *,
        ids: Mapping[str, str] | None = None,
        body: Mapping[str, Any] | None = None,
        params: Mapping[str, object] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        """One request to ``route`` (a ``routes`` template, its ``ids`` checked and
        quoted) as the caller, answering a JSON object; the API checks gates and grants."""
        path = api_path(route, **(ids or {}))
        data = await self._request(
            call, method, path, json=body, params=_params(**(params or {})), headers=headers
        )
        if not isinstance(data, dict):
            raise ServiceUnavailable(
                "the askdocs API sent an unexpected answer", code=ErrorCode.API_BAD_RESPONSE
            )
        return data

    async def apply_approved(
        self, call: Call, operation: str, body: Mapping[str, Any], token: str
    ) -> dict[str, Any]:
        """Apply a change the person accepted: the confirmation token plus the proof."""
        user = call.auth.sub if call.auth else ""
        proof = {APPROVAL_HEADER: self.approve(user, token)} if self.approve else None
        sent = {**body, "confirmationToken": token}
        return await self.call_api(
            call, "POST", routes.APPLY, ids={"operation": operation}, body=sent, headers=proof
        )

    async def store_proposal(
        self, call: Call, slug: str, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Propose and store a change for the caller to apply on the web (``applyUrl`` made
        absolute against the public address)."""
        sent = {"operation": slug, "arguments": dict(body)}
        data = await self._request(call, "POST", api_path(routes.STORE_PROPOSAL), json=sent)
        if not isinstance(data, dict) or not isinstance(data.get("applyUrl"), str):
            raise ServiceUnavailable(
                "the askdocs API sent an unexpected answer", code=ErrorCode.API_BAD_RESPONSE
            )
        return {**data, "applyUrl": self.public_url + data["applyUrl"]}

    async def _request(self, call: Call, method: str, path: str, **kwargs: Any) -> object:
        response = await self._send(call, method, path, **kwargs)
        try:
            return response.json()
        except ValueError as exc:
            raise ServiceUnavailable(
                f"the askdocs API at {self.base_url} sent a response that is not JSON",
                code=ErrorCode.API_BAD_RESPONSE,
            ) from exc

    async def _send(
        self,
        call: Call,
        method: str,
        path: str,
        headers: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> httpx.Response:
        headers = {**(headers or {})}
        if call.auth:
            headers["Authorization"] = f"Bearer {call.auth.token}"
        try:
            response = await self._client.request(method, path, headers=headers, **kwargs)
        except httpx.TimeoutException as exc:
            raise ServiceUnavailable(
                f"the askdocs API at {self.base_url} did not answer in time; retry later",
                code=ErrorCode.API_TIMEOUT,
            ) from exc
        except httpx.TransportError as exc:
            raise ServiceUnavailable(
                f"the askdocs API at {self.base_url} is not reachable ({type(exc).__name__}); "
                "check that it is running and that ASKDOCS_API_URL is right",
                code=ErrorCode.API_UNREACHABLE,
            ) from exc
        if response.status_code >= 400:
            raise _api_error(response)
        return response


def _params(**values: object) -> dict[str, str]:
    return {key: str(value) for key, value in values.items() if value is not None}


def _parsed(parse: Callable[[], T]) -> T:
    try:
        return parse()
    except AskDocsError:
        raise
    except (ValidationError, KeyError, TypeError, ValueError) as exc:
        raise ServiceUnavailable(
            "the askdocs API sent a response this MCP server does not understand "
            "(are both the same askdocs version?)",
            code=ErrorCode.API_BAD_RESPONSE,
        ) from exc


def _api_error(response: httpx.Response) -> AskDocsError:
    """Map an API error response (``{"error": {"code", "message"}}``) onto the tree, with
    the API's code translated into the MCP set (``errors.API_CODES``)."""
    api_code, message = _error_fields(response)
    status = response.status_code
    if status == 401:
        code = mcp_code(api_code, ErrorCode.UNAUTHORIZED)
        return AuthError(f"the API refused the token: {message}", code=code)
    if status == 403:
        return Forbidden(
            f"the API refused the call: {message}", code=mcp_code(api_code, ErrorCode.FORBIDDEN)
        )
    if status == 404:
        return _not_found(api_code, message)
    if status == 429:
        retry = _retry_after(response.headers.get("Retry-After"))
        code = mcp_code(api_code, ErrorCode.RATE_LIMITED)
        return RateLimited(f"{message}; retry after {retry} s", retry_after=retry, code=code)
    if status < 500:
        return InvalidInput(message, code=mcp_code(api_code, ErrorCode.INVALID_ARGUMENT))
    return ServiceUnavailable(
        f"the askdocs API failed: {message}", code=mcp_code(api_code, ErrorCode.API_ERROR)
    )


def _not_found(api_code: str | None, message: str) -> AskDocsError:
    if api_code is None:  # no askdocs error body: the URL does not lead to an askdocs API
        return ServiceUnavailable(
            f"the API answered 404 without an askdocs error ({message}); "
            "check that ASKDOCS_API_URL points at an askdocs server",
            code=ErrorCode.API_BAD_RESPONSE,
        )
    code = mcp_code(api_code, ErrorCode.PAGE_NOT_FOUND)
    if code == ErrorCode.PAGE_NOT_FOUND:
        message = f"{message}: call list_catalog for the pages, or search_docs to find one"
    return NotFound(message, code=code)


def _error_fields(response: httpx.Response) -> tuple[str | None, str]:
    try:
        error = response.json().get("error", {})
        code = error.get("code")
        return (str(code) if code else None), str(error.get("message") or response.reason_phrase)
    except (ValueError, AttributeError):
        return None, f"HTTP {response.status_code} {response.reason_phrase}".strip()


def _retry_after(value: str | None) -> int:
    return int(value) if value is not None and value.isdigit() else 60
