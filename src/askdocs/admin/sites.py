"""Sites of an organisation: validation (pure), rows as data, and the engine's ``SiteConfig``.

A site's pages live in its own folder, ``<sites_dir>/<site id>/``; its roots are relative
folders inside it (``""`` is the folder itself), so no tool can point a site at an arbitrary
path on the host. Hostnames must be unique among organisation sites.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.admin.args import MISSING, JsonObject, bad, count, flag, string_list, text
from askdocs.admin.results import SiteOut
from askdocs.db.admin_models import SiteRow
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.settings import RootConfig, SiteConfig

SITE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
HOSTNAME = re.compile(r"^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9-]{1,63})*$")
ROOT_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
LOCALE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
AUDIENCES = ("user", "developer")


def site_not_found() -> NotFound:
    return NotFound("site not found", code=ErrorCode.SITE_NOT_FOUND)


def root_path(value: Any) -> str:
    if not isinstance(value, str):
        raise bad("roots.path", "must be a relative folder name")
    parts = [p for p in value.strip().rstrip("/").split("/") if p]
    if value.startswith("/") or any(not ROOT_PART.match(part) for part in parts):
        raise bad("roots.path", f"{value!r} is not a plain relative folder")
    return "/".join(parts)


def roots(value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list) or not 0 < len(value) <= 8:
        raise bad("roots", "must be a list of 1 to 8 roots")
    result: list[dict[str, str]] = []
    for item in value:
        if not isinstance(item, dict):
            raise bad("roots", "each root is an object {path, audience}")
        audience = item.get("audience", "user")
        if audience not in AUDIENCES:
            raise bad("roots.audience", "must be user or developer")
        result.append({"path": root_path(item.get("path", "")), "audience": audience})
    if len({r["path"] for r in result}) != len(result):
        raise bad("roots", "each root path may appear once")
    return result


def hostnames(value: list[str]) -> list[str]:
    names = sorted({name.strip().lower().rstrip(".") for name in value})
    for name in names:
        if not HOSTNAME.match(name):
            raise bad("hostnames", f"{name!r} is not a hostname")
    return names


def fields(args: JsonObject, *, defaults: bool) -> JsonObject:
    """The site fields in ``args``; with ``defaults`` absent ones get their default, else
    absent or null ones are left out (unchanged)."""
    default = _DEFAULTS if defaults else dict.fromkeys(_DEFAULTS, MISSING)
    raw: JsonObject = {
        "askEnabled": flag(args, "askEnabled", default["askEnabled"]),
        "public": flag(args, "public", default["public"]),
        "askDailyLimit": count(args, "askDailyLimit", default["askDailyLimit"]),
        "hostnames": string_list(args, "hostnames", default["hostnames"]),
    }
    if args.get("name") is not None or defaults:
        raw["name"] = text(args, "name")
    if args.get("roots") is not None or defaults:
        raw["roots"] = roots(args.get("roots", [{"path": "", "audience": "user"}]))
    if args.get("defaultLocale") is not None or defaults:
        locale = args.get("defaultLocale", "en")
        if not isinstance(locale, str) or not LOCALE.match(locale):
            raise bad("defaultLocale", "must be a locale such as en or pt-BR")
        raw["defaultLocale"] = locale
    if isinstance(raw["hostnames"], list):
        raw["hostnames"] = hostnames(raw["hostnames"])
    if not defaults:
        raw = {k: v for k, v in raw.items() if v is not MISSING and v is not None}
    return raw


_DEFAULTS: JsonObject = {"askEnabled": True, "public": True, "askDailyLimit": None, "hostnames": []}


def site_id(args: JsonObject, field: str = "siteId") -> str:
    return valid_site_id(args.get(field), field)


def valid_site_id(value: object, field: str = "siteId") -> str:
    if not isinstance(value, str) or not SITE_ID.match(value):
        raise bad(field, "must be a site id (lowercase letters, digits, - and _)")
    return value


def as_data(row: SiteRow) -> JsonObject:
    return SiteOut.of(row).dump()


def apply_fields(row: SiteRow, values: JsonObject) -> None:
    columns = {
        "name": "name",
        "roots": "roots",
        "hostnames": "hostnames",
        "public": "public",
        "askEnabled": "ask_enabled",
        "askDailyLimit": "ask_daily_limit",
        "defaultLocale": "default_locale",
    }
    for key, value in values.items():
        setattr(row, columns[key], value)


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
