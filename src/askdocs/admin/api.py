"""``AdminApi``: the one entry point the assistant tools and the REST routes both call.

One instance per database (``admin_api_for``), so both surfaces share the confirmation key,
the reindex locks and the background runs. Methods that touch the database are synchronous
(run them in a worker thread); ``test_provider`` and ``reindex`` are async.
"""

from __future__ import annotations

import threading
import weakref
from pathlib import Path
from typing import Any

import anyio

from askdocs.admin import operations, provider_test, reads, sites
from askdocs.admin.args import JsonObject, org_hint
from askdocs.admin.crypto import SecretBox, secrets_key_file
from askdocs.admin.env import AdminEnv
from askdocs.admin.operations import access
from askdocs.admin.reindex import IndexFn, ReindexGuard, RunTracker
from askdocs.confirm.service import shared_tokens
from askdocs.db import Database
from askdocs.service import AskDocs
from askdocs.settings import Settings, SiteConfig


def sites_dir_of(settings: Settings) -> Path:
    return settings.admin.sites_dir or settings.data_dir / "sites"


class AdminApi:
    def __init__(
        self, settings: Settings, service: AskDocs, db: Database, index: IndexFn | None = None
    ) -> None:
        self.service = service
        self._db_site_ids: set[str] = set()
        self._sync_lock = threading.Lock()
        self.env = AdminEnv(
            db=db,
            settings=settings,
            tokens=shared_tokens(settings),
            secrets=SecretBox(secrets_key_file(settings)),
            sites_dir=sites_dir_of(settings),
            reserved_site_ids=self._static_site_ids,
            sites_changed=self.sync_sites,
        )
        self.guard = ReindexGuard(db, settings.admin.max_executions_per_hour)
        self.runs = RunTracker(db, index or self._engine_index)

    # -- synchronous: call from a worker thread -------------------------------------------

    def read(self, tool: str, user_id: str, args: JsonObject) -> JsonObject:
        return reads.read(self.env, tool, user_id, args)

    def propose(self, operation: str, user_id: str, args: JsonObject) -> JsonObject:
        return operations.propose(self.env, operation, user_id, args)

    def apply(self, operation: str, user_id: str, args: JsonObject) -> JsonObject:
        return operations.apply(self.env, operation, user_id, args)

    # -- asynchronous -------------------------------------------------------------------

    async def test_provider(self, user_id: str, args: JsonObject) -> JsonObject:
        await anyio.to_thread.run_sync(access, self.env, "test_inference_provider", user_id, None)
        ident = args.get("providerId")
        target = await anyio.to_thread.run_sync(provider_test.load_target, self.env, ident)
        return await provider_test.run_test(self.env, target)

    async def reindex(self, user_id: str, args: JsonObject, initiator: str) -> JsonObject:
        actor = await anyio.to_thread.run_sync(
            access, self.env, "reindex_site", user_id, org_hint(args)
        )
        config = await anyio.to_thread.run_sync(self._site_config, actor.org_id, args)
        run_id = await anyio.to_thread.run_sync(self.guard.start, user_id, config.id, initiator)
        self.runs.launch(run_id, config)
        return {
            "run": {"id": run_id, "siteId": config.id, "status": "running"},
            "note": "Indexing runs in the background; list_index_runs shows how it ends.",
        }

    # -- the engine's view of organisation sites ----------------------------------------

    def _site_config(self, org_id: str | None, args: JsonObject) -> SiteConfig:
        with self.env.db.session() as session:
            row = sites.org_site(session, org_id, sites.site_id(args))
            return sites.site_config(row, self.env.sites_dir)

    def _static_site_ids(self) -> set[str]:
        return {site.id for site in self.service.sites if site.id not in self._db_site_ids}

    def sync_sites(self) -> None:
        """Make the engine's site list hold every organisation site as stored now."""
        with self.env.db.session() as session:
            rows = reads.all_site_rows(session)
            configs = [sites.site_config(row, self.env.sites_dir) for row in rows]
        with self._sync_lock:
            static = [s for s in self.service.sites if s.id not in self._db_site_ids]
            taken = {s.id for s in static}
            added = [c for c in configs if c.id not in taken]
            self._db_site_ids = {c.id for c in added}
            self.service.sites[:] = static + added
            _ORG_SITES[self.service] = frozenset(self._db_site_ids)

    def _engine_index(self, config: SiteConfig) -> Any:
        self.sync_sites()
        return self.service.index(config.id)


_APIS: weakref.WeakKeyDictionary[Database, AdminApi] = weakref.WeakKeyDictionary()
_ORG_SITES: weakref.WeakKeyDictionary[AskDocs, frozenset[str]] = weakref.WeakKeyDictionary()


def org_site_ids(service: AskDocs) -> frozenset[str]:
    """The ids in ``service.sites`` that are organisation sites (not configured ones)."""
    return _ORG_SITES.get(service, frozenset())


_APIS_LOCK = threading.Lock()


def admin_api_for(settings: Settings, service: AskDocs, db: Database) -> AdminApi:
    """The shared instance for ``db`` (the assistant runtime's database)."""
    with _APIS_LOCK:
        api = _APIS.get(db)
        if api is None:
            api = _APIS[db] = AdminApi(settings, service, db)
            api.sync_sites()
        return api
