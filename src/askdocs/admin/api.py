"""``AdminApi``: the one entry point the assistant tools and the REST routes both call.

One instance per application (``askdocs.app.App`` builds it), so both surfaces share the
confirmation key, the reindex locks and the background runs. Methods that touch the
database are synchronous (run them in a worker thread); ``test_provider`` and ``reindex``
are async.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio

from askdocs.admin import operations, provider_test, reads, sites
from askdocs.admin.active import ActiveProviders
from askdocs.admin.args import JsonObject, org_hint
from askdocs.admin.env import AdminEnv
from askdocs.admin.grants import ensure_first_admin_grant, grants_of
from askdocs.admin.models import as_args, parse
from askdocs.admin.operations import access
from askdocs.admin.proposals import NewProposal, ProposalStore, Source, StoredProposal
from askdocs.admin.reindex import IndexFn, ReindexGuard, RunTracker
from askdocs.confirm.service import ConfirmationTokens
from askdocs.db import Database
from askdocs.indexing import Indexer
from askdocs.keys import KeyRing, SecretBox
from askdocs.llm.types import ChatModel
from askdocs.service import AskDocs
from askdocs.settings import Settings, SiteConfig


def sites_dir_of(settings: Settings) -> Path:
    return settings.admin.sites_dir or settings.data_dir / "sites"


class AdminApi:
    def __init__(
        self,
        settings: Settings,
        service: AskDocs,
        db: Database,
        index: IndexFn | None = None,
        *,
        tokens: ConfirmationTokens | None = None,
        indexer: Indexer | None = None,
        chat: ChatModel | None = None,
        embedding_changed: Callable[[], None] | None = None,
        secrets: SecretBox | None = None,
    ) -> None:
        self.service = service
        box = secrets or SecretBox.from_settings(settings)
        self.env = AdminEnv(
            db=db,
            settings=settings,
            tokens=tokens or ConfirmationTokens(KeyRing(settings, lambda: db, box)),
            secrets=box,
            sites_dir=sites_dir_of(settings),
            reserved_site_ids=service.catalog.static_ids,
            sites_changed=self._sites_changed,
            providers_changed=self.sync_providers,
        )
        self.active = ActiveProviders(settings, db, self.env.secrets, chat)
        self.proposals = ProposalStore(db, settings.admin.proposal_ttl_seconds)
        self.guard = ReindexGuard(db, settings.admin.max_executions_per_hour)
        # the App's one background indexer; an AdminApi built alone (tests) makes its own
        self.indexer = indexer or Indexer.from_settings(service, settings.index)
        self.runs = RunTracker(db, index or self._engine_index, self.indexer)
        self.embedding_changed = embedding_changed or self.indexer.trigger

    # -- synchronous: call from a worker thread -------------------------------------------

    def read(self, tool: str, user_id: str, args: JsonObject) -> JsonObject:
        return reads.read(self.env, tool, user_id, args)

    def own_grants(self, user_id: str) -> JsonObject:
        """The admin tools granted to the caller (no gate: it is their own list)."""
        ensure_first_admin_grant(self.env.db)
        with self.env.db.session() as session:
            return {"tools": grants_of(session, user_id)}

    def propose(self, operation: str, user_id: str, args: JsonObject) -> JsonObject:
        return operations.propose(self.env, operation, user_id, args)

    def apply(self, operation: str, user_id: str, args: JsonObject) -> JsonObject:
        return operations.apply(self.env, operation, user_id, args)

    def propose_stored(
        self,
        operation: str,
        user_id: str,
        args: JsonObject,
        *,
        thread_id: str | None = None,
        source: Source = "assistant",
    ) -> StoredProposal:
        """Propose, then keep the proposal (with its token) for its user to apply later."""
        result = self.propose(operation, user_id, args)
        proposal = result["proposal"]
        arguments = {k: v for k, v in args.items() if k != "confirmationToken"}
        if "organisationId" in proposal:
            arguments["organisationId"] = proposal["organisationId"]
        new = NewProposal(
            user_id=user_id,
            thread_id=thread_id,
            source=source,
            operation=operation,
            arguments=arguments,
            summary=str(proposal["summary"]),
            diff=proposal.get("diff"),
            token=str(result["confirmationToken"]),
        )
        return self.proposals.add(new)

    def apply_stored(self, user_id: str, proposal_id: str, presented: object) -> JsonObject:
        """Apply a stored proposal at most once: claim it, then the whole Apply path."""
        found = self.proposals.claim(user_id, proposal_id, presented)
        args = {**found.arguments, "confirmationToken": found.token}
        try:
            result = self.apply(found.operation, user_id, args)
        except BaseException:
            self.proposals.release(found.id)
            raise
        self.proposals.finish(found.id, result)
        return result

    # -- asynchronous -------------------------------------------------------------------

    async def test_provider(self, user_id: str, args: JsonObject) -> JsonObject:
        await anyio.to_thread.run_sync(access, self.env, "test_inference_provider", user_id, None)
        ident = as_args(parse("test_inference_provider", args)).get("providerId")
        target = await anyio.to_thread.run_sync(provider_test.load_target, self.env, ident)
        return await provider_test.run_test(self.env, target)

    async def reindex(self, user_id: str, args: JsonObject, initiator: str) -> JsonObject:
        actor = await anyio.to_thread.run_sync(
            access, self.env, "reindex_site", user_id, org_hint(args)
        )
        args = as_args(parse("reindex_site", args))
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

    def _sites_changed(self) -> None:
        """A site was created, changed or deleted: the catalog now, its index soon (the
        indexer's next check, not its recheck minutes later)."""
        self.sync_sites()
        self.indexer.trigger()

    def sync_sites(self) -> None:
        """Make the site catalog's admin source hold every organisation site as stored now."""
        with self.env.db.session() as session:
            rows = reads.all_site_rows(session)
            found = [
                (sites.site_config(row, self.env.sites_dir), row.organisation_id) for row in rows
            ]
        self.service.catalog.set_admin_sites(found)

    def sync_providers(self) -> None:
        """Hand the active embedding provider to the engine when it changed: searches go on
        over the old collection (keyword-only) while the indexer builds the new one."""
        wanted, _source = self.active.embedding()
        if wanted != self.service.embedding_settings:
            self.service.set_embedding(wanted)
            self.embedding_changed()

    def _engine_index(self, config: SiteConfig) -> Any:
        self.sync_sites()
        return self.service.index(config.id)
