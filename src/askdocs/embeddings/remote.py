"""One bounded JSON POST for the hosted embedding providers, with errors that name the cause.

Every failure becomes an :class:`~askdocs.errors.EmbeddingError` with a stable code:

* ``embedding_timeout`` — no connection, or no complete answer, within the timeout;
* ``embedding_unreachable`` — connection refused, DNS failure, broken connection;
* ``embedding_auth_failed`` — HTTP 401/403; ``embedding_rate_limited`` — HTTP 429;
* ``embedding_http_error`` — any other HTTP status >= 400;
* ``embedding_bad_response`` — a body that is not the JSON the protocol promises.

Rate limits, timeouts, connection failures and 5xx answers are retried first, with a
jittered back-off and a cap on concurrent requests (``remote_retry.RetryPolicy``).

Messages carry the HTTP status and the provider's own message, never the API key: the key
is scrubbed from every message, and URLs are shown without credentials or query strings.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from urllib.parse import urlsplit, urlunsplit

import httpx

from askdocs.embeddings.remote_retry import RetryPolicy, Transient, parse_retry_after
from askdocs.error_codes import ErrorCode
from askdocs.errors import EmbeddingError

log = logging.getLogger(__name__)
CONNECT_SECONDS = 10.0
MAX_RESPONSE_BYTES = 256 * 1024 * 1024
MESSAGE_CHARS = 300
USER_AGENT = "askdocs-embeddings"
_STATUS_CODES = {
    401: ErrorCode.EMBEDDING_AUTH_FAILED,
    403: ErrorCode.EMBEDDING_AUTH_FAILED,
    429: ErrorCode.EMBEDDING_RATE_LIMITED,
}


class JsonClient:
    """POSTs JSON to one provider; thread-safe (one pooled httpx client), with retries and
    a cap on concurrent requests (``RetryPolicy``)."""

    def __init__(
        self, provider: str, secret: str | None = None, retry: RetryPolicy | None = None
    ) -> None:
        self.provider = provider
        self._secret = secret
        self._client = httpx.Client(headers={"user-agent": USER_AGENT}, follow_redirects=False)
        self.retry = retry or RetryPolicy(max_retries=0)  # from_settings passes the configured one
        self._slots = self.retry.slots()
        self.sleep: Callable[[float], None] = time.sleep

    def close(self) -> None:
        self._client.close()

    def post(
        self,
        url: str,
        body: object,
        *,
        headers: Mapping[str, str],
        timeout: float,
        retries: int | None = None,
    ) -> object:
        """The parsed JSON answer, or an EmbeddingError. Each attempt waits at most about
        ``timeout``; transient failures are retried ``retries`` times (default: the
        policy's) after a jittered back-off."""
        allowed = self.retry.max_retries if retries is None else retries
        for attempt in range(allowed + 1):
            try:
                with self._slots:
                    return self._post_once(url, body, headers, timeout)
            except Transient as failure:
                if attempt >= allowed:
                    raise failure.error from None
                wait = self.retry.delay(attempt, failure.retry_after)
                log.info("%s: %s; retry %d in %.1f s", self.provider, failure, attempt + 1, wait)
                self.sleep(wait)
        raise AssertionError("unreachable")  # the loop returns or raises

    def _post_once(
        self, url: str, body: object, headers: Mapping[str, str], timeout: float
    ) -> object:
        deadline = time.monotonic() + timeout
        limits = httpx.Timeout(timeout, connect=min(timeout, CONNECT_SECONDS))
        try:
            with self._client.stream(
                "POST", url, json=body, headers=dict(headers), timeout=limits
            ) as response:
                raw = self._read(response, deadline, timeout)
        except httpx.TimeoutException as exc:
            raise Transient(self._timeout(url, timeout)) from exc
        except httpx.HTTPError as exc:
            reason = f"could not reach {safe_url(url)}: {type(exc).__name__}: {exc}"
            raise Transient(self.error(reason, ErrorCode.EMBEDDING_UNREACHABLE)) from exc
        if response.status_code >= 400:
            error = self._status_error(url, response, raw)
            if response.status_code == 429 or response.status_code >= 500:
                raise Transient(error, parse_retry_after(response.headers.get("retry-after")))
            raise error
        return self._parse(raw)

    def error(self, reason: str, code: ErrorCode) -> EmbeddingError:
        """An EmbeddingError naming the provider, with any secret scrubbed out."""
        return EmbeddingError(
            scrub(f"{self.provider} embeddings: {reason}", self._secret), code=code
        )

    def _read(self, response: httpx.Response, deadline: float, timeout: float) -> bytes:
        parts: list[bytes] = []
        size = 0
        for part in response.iter_bytes():
            size += len(part)
            if size > MAX_RESPONSE_BYTES:
                raise self.error("response larger than 256 MiB", ErrorCode.EMBEDDING_BAD_RESPONSE)
            if time.monotonic() > deadline:
                raise Transient(self._timeout(str(response.request.url), timeout))
            parts.append(part)
        return b"".join(parts)

    def _timeout(self, url: str, timeout: float) -> EmbeddingError:
        reason = f"no answer from {safe_url(url)} within {timeout:g} s"
        return self.error(reason, ErrorCode.EMBEDDING_TIMEOUT)

    def _status_error(self, url: str, response: httpx.Response, raw: bytes) -> EmbeddingError:
        status = response.status_code
        reason = f"HTTP {status} from {safe_url(url)}: {provider_message(raw)}"
        retry_after = response.headers.get("retry-after")
        if status == 429 and retry_after:
            reason += f" (retry after {retry_after[:20]} s)"
        return self.error(reason, _STATUS_CODES.get(status, ErrorCode.EMBEDDING_HTTP_ERROR))

    def _parse(self, raw: bytes) -> object:
        try:
            return json.loads(raw)
        except ValueError as exc:
            preview = raw[:80].decode("utf-8", "replace")
            reason = f"response is not JSON: {preview!r}"
            raise self.error(reason, ErrorCode.EMBEDDING_BAD_RESPONSE) from exc


def provider_message(raw: bytes) -> str:
    """The provider's own error text from an error body (OpenAI, Gemini, Ollama, vLLM shapes)."""
    text = raw.decode("utf-8", "replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
        return _clip(text) or "(empty body)"
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return _clip(error["message"])
        for value in (error, data.get("message"), data.get("detail")):
            if isinstance(value, str):
                return _clip(value)
    return _clip(text)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS] + "…"


def scrub(text: str, secret: str | None) -> str:
    """Replace every occurrence of the secret (when it is long enough to matter)."""
    if secret and len(secret) >= 4:
        return text.replace(secret, "[redacted]")
    return text


def safe_url(url: str) -> str:
    """The URL without user info, query or fragment (keys sometimes travel there)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))
