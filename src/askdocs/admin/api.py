"""``AdminApi``: the one entry point every admin surface calls (REST, the assistant's tools,
the MCP server through REST, the admin UI through REST).

One instance per application (``askdocs.app.App`` builds it and hands it the App's one
background indexer and confirmation-token service), so every surface shares the
confirmation key, the reindex locks and the background runs.

The ``run_*`` methods take an operation of the table (``admin.table``) and its typed
arguments and return its typed result. The JSON methods (``read``, ``propose``, ``apply``,
``act``) are the outermost edge for callers that hold JSON (a model's tool call): they
parse the arguments once with the operation's model and dump the result. Methods that touch
the database are synchronous (run them in a worker thread); actions are async.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import anyio
from pydantic import JsonValue

from askdocs.admin import operations, reads, sites
from askdocs.admin.active import ActiveProviders
from askdocs.admin.env import AdminEnv, SiteReport
from askdocs.admin.grants import ensure_first_admin_grant, grants_of
from askdocs.admin.models import Args, as_args, parse
from askdocs.admin.proposals import NewProposal, ProposalStore, Source, StoredProposal
from askdocs.admin.reindex import IndexFn, ReindexGuard, RunTracker
from askdocs.admin.results import Applied, OwnGrants, Proposed, Result
from askdocs.admin.run_log import BackgroundRuns
from askdocs.admin.table import Action, Change, Read, find, grantable_tools, unknown
from askdocs.confirm.service import ConfirmationTokens
from askdocs.db import Database
from askdocs.errors import AskDocsError
from askdocs.indexing import Indexer
from askdocs.keys import SecretBox
from askdocs.llm.types import ChatModel
from askdocs.service import AskDocs
from askdocs.settings import Settings, SiteConfig
from askdocs.wire import JsonDict

A = TypeVar("A", bound=Args)
R = TypeVar("R", bound=Result)
W = TypeVar("W", bound=Applied)
TOKEN_FIELD = "confirmationToken"  # noqa: S105 (a field name)


def sites_dir_of(settings: Settings) -> Path:
    return settings.admin.sites_dir or settings.data_dir / "sites"


class AdminApi:
    def __init__(
        self,
        settings: Settings,
        service: AskDocs,
        db: Database,
        *,
        tokens: ConfirmationTokens,
        indexer: Indexer,
        index: IndexFn | None = None,
        chat: ChatModel | None = None,
        embedding_changed: Callable[[], None] | None = None,
        secrets: SecretBox | None = None,
    ) -> None:
        self.service = service
        box = secrets or SecretBox.from_settings(settings)
        self.env = AdminEnv(
            db=db,
            settings=settings,
            tokens=tokens,
            secrets=box,
            sites_dir=sites_dir_of(settings),
            grantable=grantable_tools(),
            reserved_site_ids=service.catalog.static_ids,
            sites_changed=self.sites_changed,
            providers_changed=self.sync_providers,
            site_report=self.site_report,
        )
        self.active = ActiveProviders(settings, db, self.env.secrets, chat)
        self.proposals = ProposalStore(db, settings.admin.proposal_ttl_seconds)
        self.guard = ReindexGuard(db, settings.admin.max_executions_per_hour)
        self.indexer = indexer  # the App's one background indexer
        self.runs = RunTracker(db, index or self._engine_index, indexer)
        self.run_log = BackgroundRuns(db)
        indexer.watch(self.run_log.record)  # the background indexer's runs are logged too
        self.embedding_changed = embedding_changed or indexer.trigger

    # -- typed: the operation and its model (synchronous ones in a worker thread) ---------

    def site_report(self, site_id: str) -> SiteReport:
        """The engine's state of a site and its pages not served (an unknown site: none)."""
        try:
            status = self.service.status(site_id)
        except AskDocsError:
            return ("unknown", ())
        return (status.state, status.bad_files)

    def run_read(self, op: Read[A, R], user_id: str, args: A) -> R:
        return operations.read(self.env, op, user_id, args)

    def run_propose(self, op: Change[A, W], user_id: str, args: A) -> Proposed:
        return operations.propose(self.env, op, user_id, args)

    def run_apply(self, op: Change[A, W], user_id: str, args: A, token: str) -> W:
        return operations.apply(self.env, op, user_id, args, token)

    async def run_action(self, op: Action[A, R], user_id: str, args: A, initiator: str) -> R:
        tool = op.name
        actor = await anyio.to_thread.run_sync(
            operations.access, self.env, tool, op.authority, user_id, args
        )
        return await op.act(self, actor, args, initiator)

    def own_grants(self, user_id: str) -> OwnGrants:
        """The admin tools granted to the caller (no gate: it is their own list)."""
        ensure_first_admin_grant(self.env.db, self.env.grantable)
        with self.env.db.session() as session:
            return OwnGrants(tools=grants_of(session, user_id))

    def store_proposal(
        self,
        op: Change[A, W],
        user_id: str,
        args: A,
        *,
        thread_id: str | None = None,
        source: Source = "assistant",
    ) -> StoredProposal:
        """Propose, then keep the proposal (with its token) for its user to apply later."""
        proposed = self.run_propose(op, user_id, args)
        arguments = as_args(args)
        if proposed.proposal.organisation_id is not None:
            arguments["organisationId"] = proposed.proposal.organisation_id
        new = NewProposal(
            user_id=user_id,
            thread_id=thread_id,
            source=source,
            operation=op.name,
            arguments=arguments,
            summary=proposed.proposal.summary,
            diff=proposed.proposal.diff,
            token=proposed.confirmation_token,
        )
        return self.proposals.add(new)

    def apply_stored(self, user_id: str, proposal_id: str, presented: str) -> JsonDict:
        """Apply a stored proposal at most once: claim it, then the whole Apply path."""
        found = self.proposals.claim(user_id, proposal_id, presented)
        try:
            op = _change(found.operation)
            result = self.run_apply(op, user_id, parse(op.args, found.arguments), found.token)
        except BaseException:
            self.proposals.release(found.id)
            raise
        dumped = result.dump()
        self.proposals.finish(found.id, dumped)
        return dumped

    # -- JSON: the outermost edge (a model's tool call), parsed once here ---------------------

    def read(self, tool: str, user_id: str, raw: object) -> JsonDict:
        op = _read(tool)
        return self.run_read(op, user_id, parse(op.args, raw)).dump()

    def propose(self, operation: str, user_id: str, raw: object) -> JsonDict:
        op = _change(operation)
        return self.run_propose(op, user_id, parse(op.args, raw)).dump()

    def apply(self, operation: str, user_id: str, raw: object) -> JsonDict:
        """``raw`` holds the arguments and ``confirmationToken``."""
        op = _change(operation)
        given, token = _without_token(raw)
        return self.run_apply(op, user_id, parse(op.args, given), token).dump()

    def propose_stored(
        self,
        operation: str,
        user_id: str,
        raw: object,
        *,
        thread_id: str | None = None,
        source: Source = "assistant",
    ) -> StoredProposal:
        op = _change(operation)
        args = parse(op.args, _without_token(raw)[0])
        return self.store_proposal(op, user_id, args, thread_id=thread_id, source=source)

    async def act(self, tool: str, user_id: str, raw: object, initiator: str = "api") -> JsonDict:
        op = _action(tool)
        result = await self.run_action(op, user_id, parse(op.args, raw), initiator)
        return result.dump()

    # -- the engine's view of organisation sites ----------------------------------------

    def site_config(self, org_id: str | None, site_id: str) -> SiteConfig:
        with self.env.db.session() as session:
            row = sites.org_site(session, org_id, sites.valid_site_id(site_id))
            return sites.site_config(row, self.env.sites_dir)

    def sites_changed(self) -> None:
        """A site was created, changed or deleted (an applied change): the catalog holds the
        sites as stored now, and the indexer checks them now, not its recheck minutes later
        (a new site is indexed, a deleted one dropped)."""
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

    def _engine_index(self, config: SiteConfig) -> object:
        self.sync_sites()
        return self.service.index(config.id)


def _without_token(raw: object) -> tuple[object, str]:
    """The arguments without ``confirmationToken``, and the token ("" when missing)."""
    if not isinstance(raw, dict):
        return raw, ""
    token: JsonValue = raw.get(TOKEN_FIELD)
    given = {key: value for key, value in raw.items() if key != TOKEN_FIELD}
    return given, token if isinstance(token, str) else ""


def _read(name: str) -> Read[Args, Result]:
    op = find(name)
    if not isinstance(op, Read):
        raise unknown(name)
    return op


def _change(name: str) -> Change[Args, Applied]:
    op = find(name)
    if not isinstance(op, Change):
        raise unknown(name)
    return op


def _action(name: str) -> Action[Args, Result]:
    op = find(name)
    if not isinstance(op, Action):
        raise unknown(name)
    return op
