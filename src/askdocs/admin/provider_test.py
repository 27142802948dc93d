"""``TestInferenceProvider``: one small real request through askdocs's own client for the
provider's kind (chat: a one-line streamed reply; embedding: one query vector).

Before any request, the endpoint's host is resolved and the test is refused
(``400 endpoint_not_allowed``, nothing recorded) when any address is private, loopback,
link-local, multicast, reserved or unspecified, unless ``admin.provider_test_allow_private``
is set: the test must not become a way to probe the server's own network. (The client
resolves the name again when it connects; a name whose answer changes in between is not
covered by this check.)

Only the last-test columns change (``last_test_at``, ``last_test_ok``, ``last_test_error``),
written by a single UPDATE of exactly those columns. Error text is scrubbed of the key (and
of anything shaped like a bearer credential) before it is stored or returned.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import anyio
from pydantic import SecretStr
from sqlalchemy import update

from askdocs.admin import providers
from askdocs.admin.env import AdminEnv
from askdocs.admin.results import ProviderTested
from askdocs.db.admin_models import ProviderRow
from askdocs.db.models import utcnow
from askdocs.embeddings.registry import create_embedder
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.llm.registry import create_chat_model
from askdocs.llm.types import ChatMessage, ChatRequest
from askdocs.settings import ChatSettings, EmbeddingSettings

MAX_ERROR_CHARS = 300
REDACTED = "[redacted]"
_CREDENTIALS = re.compile(r"(?i)(bearer\s+|api[_-]?key[\"'=:\s]+|x-api-key[\"'=:\s]+)[^\s\"',}]+")


@dataclass(frozen=True)
class Target:
    id: str
    capability: str
    kind: str
    base_url: str | None
    model: str
    key: str | None


def scrub(message: str, key: str | None) -> str:
    text = message
    if key:
        text = text.replace(key, REDACTED)
    text = _CREDENTIALS.sub(lambda m: m.group(1) + REDACTED, text)
    return text[:MAX_ERROR_CHARS]


def _blocked(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def _addresses(host: str) -> list[str]:
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in found]


def check_endpoint(env: AdminEnv, target: Target) -> None:
    """The SSRF guard (blocking: resolves the host). No base URL: the vendor's own host."""
    if env.settings.admin.provider_test_allow_private or not target.base_url:
        return
    host = urlsplit(target.base_url).hostname or ""
    blocked = [address for address in _addresses(host) if _blocked(address)]
    if blocked:
        raise InvalidInput(
            f"the endpoint {host} resolves to a private, loopback or link-local address "
            f"({blocked[0]}); set admin.provider_test_allow_private to test it",
            code=ErrorCode.ENDPOINT_NOT_ALLOWED,
        )


def load_target(env: AdminEnv, ident: str) -> Target:
    with env.db.session() as session:
        row = providers.platform_provider(session, ident)
        key = env.secrets.decrypt(row.api_key_encrypted) if row.api_key_encrypted else None
        return Target(row.id, row.capability, row.kind, row.base_url, row.model, key)


def _endpoint(target: Target) -> dict[str, object]:
    """The stored row as provider settings (validated: a stored kind is one of them)."""
    secret = SecretStr(target.key) if target.key else None
    return {
        "provider": target.kind,
        "model": target.model,
        "base_url": target.base_url,
        "api_key": secret,
    }


async def probe(target: Target, timeout: float) -> None:
    if target.capability == "embedding":
        settings = EmbeddingSettings.model_validate(
            {**_endpoint(target), "timeout_seconds": timeout, "query_timeout_seconds": timeout}
        )
        embedder = create_embedder(settings)
        if embedder is not None:
            await anyio.to_thread.run_sync(embedder.embed_query, "ping")
        return
    bounds = {"timeout_seconds": timeout, "idle_timeout_seconds": timeout}
    chat = ChatSettings.model_validate(
        {
            **_endpoint(target),
            **bounds,
            "max_output_tokens": 16,
            "connect_timeout_seconds": min(5.0, timeout),
        }
    )
    model = create_chat_model(chat)
    if model is None:
        return
    request = ChatRequest("Reply with OK.", (ChatMessage("user", "ping"),), max_output_tokens=16)
    async with asyncio.timeout(timeout):
        async for _event in model.stream(request):
            pass


def record(env: AdminEnv, ident: str, ok: bool, error: str | None) -> str:
    at = utcnow()
    values = {"last_test_at": at, "last_test_ok": ok, "last_test_error": error}
    with env.db.session(write=True) as session:
        session.execute(update(ProviderRow).where(ProviderRow.id == ident).values(**values))
    return at.isoformat()


async def run_test(env: AdminEnv, target: Target) -> ProviderTested:
    await anyio.to_thread.run_sync(check_endpoint, env, target)
    timeout = env.settings.admin.provider_test_timeout_seconds
    error: str | None = None
    try:
        await probe(target, timeout)
    except TimeoutError:
        error = f"no answer within {timeout:g} seconds"
    except Exception as exc:
        error = scrub(str(exc) or type(exc).__name__, target.key)
    at = await anyio.to_thread.run_sync(record, env, target.id, error is None, error)
    return ProviderTested(provider_id=target.id, ok=error is None, error=error, tested_at=at)
