"""A small world for the admin tests: two organisations, their people, a site with a page,
a platform provider, and helpers to snapshot everything the tools could change."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

from askdocs.admin.api import AdminApi
from askdocs.admin.grants import ensure_first_admin_grant
from askdocs.admin.reindex import IndexFn
from askdocs.admin.table import grantable_tools
from askdocs.assistant.toolset import ToolDeps
from askdocs.blocking import BlockingPool
from askdocs.confirm.service import ConfirmationTokens
from askdocs.db import Database
from askdocs.db.admin_models import (
    AdminMarkerRow,
    IndexRunRow,
    ProviderRow,
    SiteRow,
    ToolGrantRow,
)
from askdocs.db.models import Base, MembershipRow, OrganisationRow, UserRow
from askdocs.indexing import Indexer
from askdocs.keys import KeyRing
from askdocs.service import AskDocs
from askdocs.settings import Settings, SiteConfig, load_settings
from askdocs.users.service import UserService
from askdocs.users.types import User

SITE_PAGE = "---\ntitle: Install\n---\n# Install\n\nRun `pip install askdocs`.\n"
PROVIDER_KEY = "sk-test-9f8e7d6c5b4a39281706f5e4d3c2b1a0"


@dataclass
class IndexRecorder:
    """The engine seam for tests that count runs, not indexes: records each call."""

    calls: list[str] = field(default_factory=list)
    fail: bool = False

    def __call__(self, config: SiteConfig) -> Any:
        self.calls.append(config.id)
        if self.fail:
            raise RuntimeError("engine exploded")
        return None


@dataclass
class World:
    settings: Settings
    db: Database
    api: AdminApi
    platform_admin: User
    owner: User
    admin: User
    member: User
    outsider_owner: User
    org_a: str
    org_b: str
    recorder: IndexRecorder

    @property
    def sites_dir(self) -> Path:
        return self.api.env.sites_dir

    def tool_deps(self) -> ToolDeps:
        """What the assistant's tools are built from, over this world's one ``AdminApi``."""
        return ToolDeps(self.settings, self.api.service, self.db, self.api, BlockingPool(2))

    def grant_all(self, user: User) -> None:
        with self.db.session(write=True) as session:
            for tool in grantable_tools():
                if session.get(ToolGrantRow, (user.id, tool)) is None:
                    session.add(ToolGrantRow(user_id=user.id, tool_name=tool))


def make_admin(
    settings: Settings, engine: AskDocs, db: Database, index: IndexFn | None = None
) -> AdminApi:
    """An ``AdminApi`` with the parts the App would hand it: its own token service and a
    background indexer over ``engine`` (never started here)."""
    tokens = ConfirmationTokens(KeyRing(settings, lambda: db))
    indexer = Indexer.from_settings(engine, settings.index)
    return AdminApi(settings, engine, db, tokens=tokens, indexer=indexer, index=index)


def make_settings(tmp: Path, database_url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "data_dir": tmp / "data",
        "database_url": database_url,
        "embedding": {"provider": "none"},
        "sites": [{"id": "static", "roots": [{"path": str(tmp), "required": False}]}],
        # the scripted provider servers listen on 127.0.0.1 (test_ssrf_guard checks the default)
        "admin": {"provider_test_allow_private": True},
    }
    values.update(overrides)
    return load_settings(**values)


def build_world(tmp: Path, database_url: str, **overrides: object) -> World:
    settings = make_settings(tmp, database_url, **overrides)
    db = Database.from_url(database_url)
    recorder = IndexRecorder()
    api = make_admin(settings, AskDocs(settings), db, index=recorder)
    users = UserService(db)
    platform_admin = users.create_user("root@x.io", "Root", platform_admin=True)
    owner = users.create_user("owner@a.io", "Owner A")
    admin = users.create_user("admin@a.io", "Admin A")
    member = users.create_user("member@a.io", "Member A")
    outsider = users.create_user("owner@b.io", "Owner B")
    org_a = users.create_organisation("Org A", owner.id).id
    org_b = users.create_organisation("Org B", outsider.id).id
    users.add_member(org_a, admin.id, "admin")
    users.add_member(org_a, member.id, "member")
    users.add_member(org_a, platform_admin.id, "member")
    ensure_first_admin_grant(db, grantable_tools())
    world = World(
        settings, db, api, platform_admin, owner, admin, member, outsider, org_a, org_b, recorder
    )
    for user in (owner, admin, member, outsider):
        world.grant_all(user)
    _seed(world)
    return world


def _seed(world: World) -> None:
    with world.db.session(write=True) as session:
        for ident, org in (("alpha", world.org_a), ("bravo", world.org_b)):
            session.add(
                SiteRow(
                    id=ident,
                    organisation_id=org,
                    name=ident.title(),
                    roots=[{"path": "", "audience": "user"}],
                    hostnames=[f"{ident}.docs.test"],
                )
            )
        session.add(
            ProviderRow(
                name="Main chat",
                capability="chat",
                kind="openai-compatible",
                base_url="http://127.0.0.1:9",
                model="gpt-test",
                api_key_encrypted=world.api.env.secrets.encrypt(PROVIDER_KEY),
                api_key_last_four=PROVIDER_KEY[-4:],
            )
        )
    for ident in ("alpha", "bravo"):
        folder = world.sites_dir / ident
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "install.md").write_text(SITE_PAGE, encoding="utf-8")
    world.api.sync_sites()


TABLES = (
    UserRow,
    OrganisationRow,
    MembershipRow,
    SiteRow,
    ProviderRow,
    ToolGrantRow,
    AdminMarkerRow,
    IndexRunRow,
)


def _row(row: Base) -> tuple[Any, ...]:
    return tuple(str(getattr(row, c.key)) for c in row.__table__.columns)  # type: ignore[attr-defined]


def db_state(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table a tool could touch, as comparable values."""
    with db.session() as session:
        return {
            t.__tablename__: sorted(_row(r) for r in session.scalars(select(t))) for t in TABLES
        }


def tree_state(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with a hash of its bytes (links by their target)."""
    out: dict[str, str] = {}
    for base, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(base) / name
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                out[rel] = "link:" + os.readlink(path)
            elif path.is_file():
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                out[rel] = "dir"
    return out
