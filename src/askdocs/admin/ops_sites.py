"""Create, update and delete a site (organisation authority).

Create binds the full normalised site and refuses an id that exists, so a replayed token
finds its site already there. Update binds the target's id, current name and whole current
state; delete binds the id and the current name, re-read at apply time, so a renamed site
refuses a token proposed under its old name.
"""

from __future__ import annotations

from pydantic import JsonValue
from sqlalchemy.orm import Session

from askdocs.admin import sites
from askdocs.admin.authority import Actor
from askdocs.admin.env import AdminEnv, Prepared
from askdocs.admin.models import CreateSite, DeleteSite, UpdateSite
from askdocs.admin.results import Named, SiteCreated, SiteDeleted, SiteUpdated
from askdocs.admin.sites import SiteValues
from askdocs.db.admin_models import SiteRow
from askdocs.db.models import utcnow
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput

_LABELS = {
    "name": "name",
    "roots": "roots",
    "hostnames": "hostnames",
    "public": "public",
    "askEnabled": "Ask AI",
    "askDailyLimit": "Ask AI daily limit",
    "defaultLocale": "default locale",
}


def _show(value: JsonValue) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        items = [
            f"{v['path'] or '.'} ({v['audience']})" if isinstance(v, dict) else v for v in value
        ]
        return ", ".join(str(i) for i in items) or "none"
    return "none" if value is None else str(value)


def _conflicts(session: Session, org_id: str, values: SiteValues, ident: str | None) -> None:
    name = values.get("name")
    if name is not None and any(
        r.name == name and r.id != ident for r in sites.org_sites(session, org_id)
    ):
        raise InvalidInput(f"a site named {name!r} already exists", code=ErrorCode.SITE_NAME_TAKEN)
    names = values.get("hostnames")
    if isinstance(names, list) and names:
        taken = sites.hostname_taken(session, [str(n) for n in names], ident)
        if taken is not None:
            raise InvalidInput(
                f"hostname {taken!r} is used by another site", code=ErrorCode.HOSTNAME_TAKEN
            )


def _make_folders(env: AdminEnv, ident: str, values: SiteValues) -> None:
    base = sites.site_folder(env.sites_dir, ident)
    for path in sites.root_paths(values):
        (base / path if path else base).mkdir(parents=True, exist_ok=True)


def prepare_create(
    env: AdminEnv, session: Session, actor: Actor, args: CreateSite
) -> Prepared[SiteCreated]:
    ident = sites.valid_site_id(args.id, "id")
    values = sites.new_values(args)
    org_id = actor.org_id
    if org_id is None:
        raise sites.site_not_found()
    if session.get(SiteRow, ident) is not None or ident in env.reserved_site_ids():
        raise InvalidInput(f"a site with id {ident!r} already exists", code=ErrorCode.SITE_EXISTS)
    _conflicts(session, org_id, values, None)
    lines = [f"Create the site “{values['name']}” (id {ident}) in your organisation."]
    lines += [f"- {_LABELS[k]}: {_show(v)}" for k, v in sorted(values.items()) if k != "name"]

    def write(tx: Session) -> SiteCreated:
        row = SiteRow(id=ident, organisation_id=org_id)
        sites.apply_values(row, values)
        tx.add(row)
        tx.flush()
        _make_folders(env, ident, values)
        return SiteCreated(created=sites.as_out(row))

    site: dict[str, JsonValue] = {"id": ident, **values}
    payload: dict[str, JsonValue] = {"organisationId": org_id, "site": site}
    return Prepared(payload, "\n".join(lines), write)


def prepare_update(
    env: AdminEnv, session: Session, actor: Actor, args: UpdateSite
) -> Prepared[SiteUpdated]:
    org_id = actor.org_id
    row = sites.org_site(session, org_id, sites.valid_site_id(args.site_id))
    before = sites.values_of(row)
    changes = {k: v for k, v in sites.given_values(args).items() if before.get(k) != v}
    if not changes:
        raise InvalidInput(
            "nothing to change: every given field already has that value",
            code=ErrorCode.NO_CHANGES,
        )
    _conflicts(session, row.organisation_id, changes, row.id)
    lines = [f"Update the site “{row.name}” (id {row.id}):"]
    lines += [
        f"- {_LABELS[k]}: {_show(before.get(k))} → {_show(v)}" for k, v in sorted(changes.items())
    ]
    ident = row.id

    def write(tx: Session) -> SiteUpdated:
        target = sites.org_site(tx, org_id, ident)
        sites.apply_values(target, changes)
        target.updated_at = utcnow()
        if "roots" in changes:
            _make_folders(env, ident, changes)
        return SiteUpdated(updated=sites.as_out(target))

    payload: dict[str, JsonValue] = {"siteId": row.id, "currentName": row.name}
    payload |= {"before": before, "changes": changes}
    return Prepared(payload, "\n".join(lines), write)


def prepare_delete(
    env: AdminEnv, session: Session, actor: Actor, args: DeleteSite
) -> Prepared[SiteDeleted]:
    org_id = actor.org_id
    row = sites.org_site(session, org_id, sites.valid_site_id(args.site_id))
    ident, name = row.id, row.name
    summary = (
        f"Delete the site “{name}” (id {ident}) and its indexing history. Its page files stay "
        "on disk and are no longer served or searched."
    )

    def write(tx: Session) -> SiteDeleted:
        tx.delete(sites.org_site(tx, org_id, ident))
        return SiteDeleted(deleted=Named(id=ident, name=name))

    payload: dict[str, JsonValue] = {"siteId": ident, "name": name, "organisationId": org_id}
    return Prepared(payload, summary, write)
