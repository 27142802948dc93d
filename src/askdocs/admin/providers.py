"""Inference providers: platform-managed rows (``organisation_id IS NULL``) only.

Reads return the redaction vocabulary ``hasApiKey`` / ``apiKeyLastFour`` and never the
ciphertext or the key. A workspace's own row is as unreachable here as a missing one.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.admin.args import MISSING, JsonObject, bad, optional_text, text
from askdocs.admin.results import ProviderOut
from askdocs.confirm.canonical import sha256_hex
from askdocs.db.admin_models import ProviderRow
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound

CAPABILITIES = ("chat", "embedding")
KINDS = {
    "chat": ("openai-compatible", "anthropic", "gemini"),
    "embedding": ("openai-compatible", "gemini"),
}
MAX_KEY_CHARS = 500


def provider_not_found() -> NotFound:
    return NotFound("inference provider not found", code=ErrorCode.PROVIDER_NOT_FOUND)


def platform_provider(session: Session, ident: object) -> ProviderRow:
    row = session.get(ProviderRow, ident) if isinstance(ident, str) else None
    if row is None or row.organisation_id is not None:
        raise provider_not_found()
    return row


def platform_providers(session: Session) -> list[ProviderRow]:
    query = select(ProviderRow).where(ProviderRow.organisation_id.is_(None))
    return list(session.scalars(query.order_by(ProviderRow.name, ProviderRow.id)))


def name_taken(session: Session, name: str, except_id: str | None) -> bool:
    return any(r.name == name and r.id != except_id for r in platform_providers(session))


def as_data(row: ProviderRow) -> JsonObject:
    """What any reader sees: never the key, never the ciphertext."""
    return ProviderOut.of(row).dump()


def state_fingerprint(row: ProviderRow) -> str:
    """Binds an update to the row it was proposed against (the stored key included)."""
    parts = [row.name, row.capability, row.kind, row.base_url or "", row.model, str(row.active)]
    parts.append(sha256_hex(row.api_key_encrypted or ""))
    return sha256_hex("\n".join(parts))


def base_url(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 500:
        raise bad("baseUrl", "must be an http(s) URL")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username:
        raise bad("baseUrl", "must be an http(s) URL without credentials")
    return value.rstrip("/")


def fields(args: JsonObject, *, create: bool) -> JsonObject:
    """Provider fields; on update, absent or null ones are left out (unchanged)."""
    out: JsonObject = {}
    for field in ("name", "model"):
        if create or args.get(field) is not None:
            out[field] = text(args, field)
    capability = args.get("capability", MISSING if not create else None)
    if create or (capability is not MISSING and capability is not None):
        if capability not in CAPABILITIES:
            raise bad("capability", "must be chat or embedding")
        out["capability"] = capability
    if create or args.get("kind") is not None:
        out["kind"] = args.get("kind")
    if create or args.get("baseUrl") is not None:
        out["baseUrl"] = base_url(args.get("baseUrl"))
    active = args.get("active")
    if create or active is not None:
        if active is not None and not isinstance(active, bool):
            raise bad("active", "must be true or false")
        out["active"] = bool(active)
    return out


def deactivate_others(session: Session, capability: str, keep: str) -> None:
    """One active platform provider per capability: the others stop being used."""
    for row in platform_providers(session):
        if row.capability == capability and row.id != keep and row.active:
            row.active = False


def check_kind(capability: str, kind: object) -> None:
    if kind not in KINDS[capability]:
        raise bad("kind", f"{capability} providers are one of {', '.join(KINDS[capability])}")


def submitted_key(args: JsonObject) -> str | None:
    """``None`` leaves the stored key unchanged, ``""`` clears it, text replaces it."""
    return optional_text(args, "apiKey", max_chars=MAX_KEY_CHARS)
