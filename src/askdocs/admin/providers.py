"""Inference providers: platform-managed rows (``organisation_id IS NULL``) only.

Reads return the redaction vocabulary ``hasApiKey`` / ``apiKeyLastFour`` and never the
ciphertext or the key. A workspace's own row is as unreachable here as a missing one.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import JsonValue
from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.admin.models import CreateInferenceProvider, ProviderFields, bad, clean, text
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
ProviderValues = dict[str, JsonValue]  # wire name (``baseUrl``...) -> value
# wire name -> ProviderRow column
COLUMNS = {
    "name": "name",
    "capability": "capability",
    "kind": "kind",
    "baseUrl": "base_url",
    "model": "model",
    "active": "active",
}


def provider_not_found() -> NotFound:
    return NotFound("inference provider not found", code=ErrorCode.PROVIDER_NOT_FOUND)


def platform_provider(session: Session, ident: str) -> ProviderRow:
    row = session.get(ProviderRow, ident)
    if row is None or row.organisation_id is not None:
        raise provider_not_found()
    return row


def platform_providers(session: Session) -> list[ProviderRow]:
    query = select(ProviderRow).where(ProviderRow.organisation_id.is_(None))
    return list(session.scalars(query.order_by(ProviderRow.name, ProviderRow.id)))


def name_taken(session: Session, name: str, except_id: str | None) -> bool:
    return any(r.name == name and r.id != except_id for r in platform_providers(session))


def as_out(row: ProviderRow) -> ProviderOut:
    """What any reader sees: never the key, never the ciphertext."""
    return ProviderOut.of(row)


def values_of(row: ProviderRow) -> ProviderValues:
    dumped = as_out(row).dump()
    return {wire: dumped[wire] for wire in COLUMNS}


def state_fingerprint(row: ProviderRow) -> str:
    """Binds an update to the row it was proposed against (the stored key included)."""
    parts = [row.name, row.capability, row.kind, row.base_url or "", row.model, str(row.active)]
    parts.append(sha256_hex(row.api_key_encrypted or ""))
    return sha256_hex("\n".join(parts))


def base_url(value: str) -> str | None:
    if value == "":
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username:
        raise bad("baseUrl", "must be an http(s) URL without credentials")
    return value.rstrip("/")


def given_values(args: ProviderFields) -> ProviderValues:
    """The provider fields ``args`` sets, normalised; absent and null ones are left out."""
    found: ProviderValues = {}
    for wire, value in (("name", args.name), ("model", args.model)):
        if value is not None:
            found[wire] = text(wire, value)
    for wire, choice in (("capability", args.capability), ("kind", args.kind)):
        if choice is not None:
            found[wire] = choice
    if args.base_url is not None:
        found["baseUrl"] = base_url(args.base_url)
    if args.active is not None:
        found["active"] = args.active
    return found


def new_values(args: CreateInferenceProvider) -> ProviderValues:
    return {"baseUrl": None, "active": False, **given_values(args)}


def apply_values(row: ProviderRow, values: ProviderValues) -> None:
    for wire, value in values.items():
        setattr(row, COLUMNS[wire], value)


def deactivate_others(session: Session, capability: str, keep: str) -> None:
    """One active platform provider per capability: the others stop being used."""
    for row in platform_providers(session):
        if row.capability == capability and row.id != keep and row.active:
            row.active = False


def check_kind(capability: JsonValue, kind: JsonValue) -> None:
    allowed = KINDS.get(str(capability), ())
    if kind not in allowed:
        raise bad("kind", f"{capability} providers are one of {', '.join(allowed)}")


def submitted_key(args: ProviderFields) -> str | None:
    """``None`` leaves the stored key unchanged, ``""`` clears it, text replaces it."""
    key = args.api_key
    if key is not None and len(key) > MAX_KEY_CHARS:
        raise bad("apiKey", f"must be a string of at most {MAX_KEY_CHARS} characters")
    return None if key is None else clean("apiKey", key)
