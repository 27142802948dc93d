"""Sites of an organisation: validation (pure), rows as data, and the engine's ``SiteConfig``.

A site's pages live in its own folder, ``<sites_dir>/<site id>/``; its roots are relative
folders inside it (``""`` is the folder itself), so no tool can point a site at an arbitrary
path on the host. Hostnames must be unique among organisation sites.

Site values travel as ``SiteValues``: the wire names of ``SiteOut`` (``askEnabled``...) to
their normalised JSON values, the shape a confirmation token binds.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import JsonValue
from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.admin.models import CreateSite, Root, SiteFields, bad, text
from askdocs.admin.results import SiteOut
from askdocs.db.admin_models import SiteRow
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.settings import RootConfig, SiteConfig

SITE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
HOSTNAME = re.compile(r"^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9-]{1,63})*$")
ROOT_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
LOCALE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
SiteValues = dict[str, JsonValue]
# wire name -> SiteRow column
COLUMNS = {
    "name": "name",
    "roots": "roots",
    "hostnames": "hostnames",
    "public": "public",
    "askEnabled": "ask_enabled",
    "askDailyLimit": "ask_daily_limit",
    "defaultLocale": "default_locale",
}
DEFAULTS: SiteValues = {
    "roots": [{"path": "", "audience": "user"}],
    "hostnames": [],
    "public": True,
    "askEnabled": True,
    "askDailyLimit": None,
    "defaultLocale": "en",
}


def site_not_found() -> NotFound:
    return NotFound("site not found", code=ErrorCode.SITE_NOT_FOUND)


def root_path(value: str) -> str:
    parts = [p for p in value.strip().rstrip("/").split("/") if p]
    if value.startswith("/") or any(not ROOT_PART.match(part) for part in parts):
        raise bad("roots.path", f"{value!r} is not a plain relative folder")
    return "/".join(parts)


def roots(value: list[Root]) -> list[JsonValue]:
    if not value:
        raise bad("roots", "must be a list of 1 to 8 roots")
    paths = [root_path(root.path) for root in value]
    if len(set(paths)) != len(paths):
        raise bad("roots", "each root path may appear once")
    return [{"path": p, "audience": root.audience} for p, root in zip(paths, value, strict=True)]


def hostnames(value: list[str]) -> list[JsonValue]:
    names = sorted({name.strip().lower().rstrip(".") for name in value})
    for name in names:
        if not HOSTNAME.match(name):
            raise bad("hostnames", f"{name!r} is not a hostname")
    return list(names)


def locale(value: str) -> str:
    if not LOCALE.match(value):
        raise bad("defaultLocale", "must be a locale such as en or pt-BR")
    return value


def given_values(args: SiteFields) -> SiteValues:
    """The site fields ``args`` sets, normalised; absent and null ones are left out."""
    found: SiteValues = {}
    if args.name is not None:
        found["name"] = text("name", args.name)
    if args.roots is not None:
        found["roots"] = roots(args.roots)
    if args.hostnames is not None:
        found["hostnames"] = hostnames(args.hostnames)
    for wire, value in (("public", args.public), ("askEnabled", args.ask_enabled)):
        if value is not None:
            found[wire] = value
    if args.ask_daily_limit is not None:
        found["askDailyLimit"] = args.ask_daily_limit
    if args.default_locale is not None:
        found["defaultLocale"] = locale(args.default_locale)
    return found


def new_values(args: CreateSite) -> SiteValues:
    """A new site's values: the given ones, the defaults for the rest."""
    return {**DEFAULTS, **given_values(args)}


def valid_site_id(value: str, field: str = "siteId") -> str:
    if not SITE_ID.match(value):
        raise bad(field, "must be a site id (lowercase letters, digits, - and _)")
    return value


def as_out(row: SiteRow) -> SiteOut:
    return SiteOut.of(row)


def values_of(row: SiteRow) -> SiteValues:
    """The row's current values, by wire name (what an update compares against)."""
    dumped = as_out(row).dump()
    return {wire: dumped[wire] for wire in COLUMNS}


def apply_values(row: SiteRow, values: SiteValues) -> None:
    for wire, value in values.items():
        setattr(row, COLUMNS[wire], value)


def root_paths(values: SiteValues) -> list[str]:
    found = values.get("roots")
    listed = found if isinstance(found, list) else []
    return [str(root.get("path", "")) for root in listed if isinstance(root, dict)]


def org_site(session: Session, org_id: str | None, ident: str) -> SiteRow:
    """The site when it belongs to ``org_id``; another organisation's site is "not found"."""
    row = session.get(SiteRow, ident)
    if row is None or org_id is None or row.organisation_id != org_id:
        raise site_not_found()
    return row


def org_sites(session: Session, org_id: str | None) -> list[SiteRow]:
    query = select(SiteRow).where(SiteRow.organisation_id == org_id).order_by(SiteRow.id)
    return list(session.scalars(query))


def hostname_taken(session: Session, names: list[str], except_id: str | None) -> str | None:
    for row in session.scalars(select(SiteRow)):
        if row.id != except_id and set(names) & set(row.hostnames):
            return sorted(set(names) & set(row.hostnames))[0]
    return None


def site_folder(sites_dir: Path, ident: str) -> Path:
    return sites_dir / ident


def site_config(row: SiteRow, sites_dir: Path) -> SiteConfig:
    base = site_folder(sites_dir, row.id)
    return SiteConfig(
        id=row.id,
        name=row.name,
        roots=[
            RootConfig(path=base / r["path"] if r["path"] else base, audience=r["audience"])
            for r in row.roots
        ],
        hostnames=list(row.hostnames),
        public=row.public,
        ask_enabled=row.ask_enabled,
        default_locale=row.default_locale,
    )
