"""Create, update and delete a platform inference provider (platform authority).

Payloads bind a SHA-256 fingerprint of a submitted API key, never the key: ``apiKey`` in the
payload is ``"unchanged"`` (null submitted), ``"clear"`` (empty string) or
``"sha256:<hex>"``. Update binds the id, the current name and a fingerprint of the whole
current row (stored key included); delete binds the id and the current name.
"""

from __future__ import annotations

from pydantic import JsonValue
from sqlalchemy.orm import Session

from askdocs.admin import providers
from askdocs.admin.authority import Actor
from askdocs.admin.crypto import last_four
from askdocs.admin.env import AdminEnv, Prepared
from askdocs.admin.models import (
    CreateInferenceProvider,
    DeleteInferenceProvider,
    UpdateInferenceProvider,
)
from askdocs.admin.results import Named, ProviderCreated, ProviderDeleted, ProviderUpdated
from askdocs.confirm.canonical import secret_change
from askdocs.db.admin_models import ProviderRow
from askdocs.db.models import utcnow
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput

_USE_WORDS = " Use it from now on instead of the provider in use (no restart needed)."
_KEY_WORDS = {"unchanged": "keep the stored API key", "clear": "remove the stored API key"}


def _key_words(change: str) -> str:
    return _KEY_WORDS.get(change, "store the newly submitted API key (encrypted)")


def _store_key(env: AdminEnv, row: ProviderRow, key: str | None) -> None:
    if key is None:
        return
    row.api_key_encrypted = env.secrets.encrypt(key) if key else None
    row.api_key_last_four = last_four(key) if key else None


def _check_name(session: Session, name: JsonValue, ident: str | None) -> None:
    if isinstance(name, str) and providers.name_taken(session, name, ident):
        raise InvalidInput(
            f"a provider named {name!r} already exists", code=ErrorCode.PROVIDER_EXISTS
        )


def prepare_create(
    env: AdminEnv, session: Session, actor: Actor, args: CreateInferenceProvider
) -> Prepared[ProviderCreated]:
    values = providers.new_values(args)
    providers.check_kind(values["capability"], values["kind"])
    _check_name(session, values["name"], None)
    key = providers.submitted_key(args) or None
    change = secret_change(key) if key else "none"
    summary = (
        f"Create the {values['capability']} provider “{values['name']}”: {values['kind']}, "
        f"model {values['model']}, endpoint {values['baseUrl'] or 'the vendor default'}; "
        + ("store the submitted API key (encrypted)." if key else "no API key.")
        + (_USE_WORDS if values["active"] else "")
    )

    def write(tx: Session) -> ProviderCreated:
        row = ProviderRow(organisation_id=None)
        providers.apply_values(row, values)
        _store_key(env, row, key)
        tx.add(row)
        tx.flush()
        if row.active:
            providers.deactivate_others(tx, row.capability, row.id)
        return ProviderCreated(created=providers.as_out(row))

    return Prepared({"provider": values, "apiKey": change}, summary, write)


def prepare_update(
    env: AdminEnv, session: Session, actor: Actor, args: UpdateInferenceProvider
) -> Prepared[ProviderUpdated]:
    row = providers.platform_provider(session, args.provider_id)
    before = providers.values_of(row)
    changes = {k: v for k, v in providers.given_values(args).items() if before.get(k) != v}
    key = providers.submitted_key(args)
    if not changes and key is None:
        raise InvalidInput("nothing to change", code=ErrorCode.NO_CHANGES)
    providers.check_kind(changes.get("capability", row.capability), changes.get("kind", row.kind))
    _check_name(session, changes.get("name"), row.id)
    change = secret_change(key)
    lines = [f"Update the provider “{row.name}”:"]
    lines += [f"- {k}: {before.get(k)} → {v}" for k, v in sorted(changes.items())]
    lines.append(f"- API key: {_key_words(change)}")
    if changes.get("active"):
        lines.append(_USE_WORDS.strip())
    ident = row.id

    def write(tx: Session) -> ProviderUpdated:
        target = providers.platform_provider(tx, ident)
        providers.apply_values(target, changes)
        _store_key(env, target, key)
        target.updated_at = utcnow()
        if target.active:
            providers.deactivate_others(tx, target.capability, target.id)
        return ProviderUpdated(updated=providers.as_out(target))

    payload: dict[str, JsonValue] = {
        "providerId": row.id,
        "currentName": row.name,
        "before": providers.state_fingerprint(row),
        "changes": changes,
        "apiKey": change,
    }
    return Prepared(payload, "\n".join(lines), write)


def prepare_delete(
    env: AdminEnv, session: Session, actor: Actor, args: DeleteInferenceProvider
) -> Prepared[ProviderDeleted]:
    row = providers.platform_provider(session, args.provider_id)
    ident, name = row.id, row.name
    summary = f"Delete the {row.capability} provider “{name}” and its stored API key."

    def write(tx: Session) -> ProviderDeleted:
        tx.delete(providers.platform_provider(tx, ident))
        return ProviderDeleted(deleted=Named(id=ident, name=name))

    return Prepared({"providerId": ident, "name": name}, summary, write)
