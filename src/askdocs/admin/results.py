"""The typed results of the admin read tools (camelCase on the wire, never a secret).

Every operation of the table (``admin.table``) returns one of these models: reads their
listing, changes what applying wrote (``Applied`` and its kinds), a proposal ``Proposed``.
``dump`` turns one into the JSON object a tool result carries; the REST routes declare
them, so ``/openapi.json`` describes every admin response with its fields.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, ClassVar, Literal

from pydantic import Field, JsonValue, PlainSerializer

from askdocs.db.admin_models import IndexRunRow, ProviderRow, SiteRow
from askdocs.types import PageError
from askdocs.wire import Wire

JsonDict = dict[str, JsonValue]


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


# A moment as the database gave it, in ISO 8601 (``isoformat``, offset kept as stored).
InUse = Literal["database", "settings"]
Moment = Annotated[datetime | None, PlainSerializer(_iso, return_type=str | None)]


class Result(Wire):
    omit_none: ClassVar[bool] = False  # leave out fields that are None (proposals)

    def dump(self) -> JsonDict:
        dumped: JsonDict = self.model_dump(mode="json", by_alias=True, exclude_none=self.omit_none)
        return dumped


class RootOut(Result):
    path: str
    audience: str


class PageProblem(Result):
    path: str
    reason: str


class SiteOut(Result):
    id: str
    organisation_id: str
    name: str
    roots: list[RootOut]
    hostnames: list[str]
    public: bool
    ask_enabled: bool
    ask_daily_limit: int | None
    default_locale: str
    state: str = "unknown"  # ready | building | empty | error | docs_root_missing
    problems: list[PageProblem] = Field(default_factory=list)  # pages not served, and why

    @classmethod
    def of(cls, row: SiteRow) -> SiteOut:
        return cls.copy_of(row)

    def with_report(self, report: tuple[str, tuple[PageError, ...]]) -> SiteOut:
        state, bad = report
        problems = [PageProblem(path=error.path, reason=error.reason) for error in bad]
        return self.model_copy(update={"state": state, "problems": problems})


class RunOut(Result):
    id: str
    site_id: str
    user_id: str | None  # None: a background run
    initiator: str  # assistant, api or background
    status: str  # running, succeeded or failed
    started_at: Moment
    finished_at: Moment
    chunks: int | None
    pages: int | None
    embedded: int | None
    reused: int | None
    failed_files: int | None  # documentation files the run could not use
    error: str | None

    @classmethod
    def of(cls, run: IndexRunRow) -> RunOut:
        return cls.copy_of(run)


class ProviderOut(Result):
    """What any reader sees: never the key, never the ciphertext."""

    id: str
    name: str
    capability: str
    kind: str
    base_url: str | None
    model: str
    has_api_key: bool
    api_key_last_four: str | None
    last_test_at: Moment
    last_test_ok: bool | None
    last_test_error: str | None
    active: bool  # in use for its capability

    @classmethod
    def of(cls, row: ProviderRow) -> ProviderOut:
        return cls(
            id=row.id,
            name=row.name,
            capability=row.capability,
            kind=row.kind,
            base_url=row.base_url,
            model=row.model,
            has_api_key=row.api_key_encrypted is not None,
            api_key_last_four=row.api_key_last_four or None,
            last_test_at=row.last_test_at,
            last_test_ok=row.last_test_ok,
            last_test_error=row.last_test_error,
            active=bool(row.active),
        )


class SitesOut(Result):
    sites: list[SiteOut]


class SiteDetailOut(Result):
    site: SiteOut
    last_run: RunOut | None


class PageEntry(Result):
    path: str
    bytes: int
    audience: str


class LinkOut(Result):
    """An authored link the reader cannot follow (``reader.linkcheck``)."""

    path: str
    href: str
    reason: str


class PagesOut(Result):
    site_id: str
    pages: list[PageEntry]
    errors: list[PageProblem]  # files left out: unsafe, unreadable, invalid front matter...
    links: list[LinkOut] = Field(default_factory=list)


class PageOut(Result):
    site_id: str
    path: str
    sha256: str
    draft: bool
    content: str
    truncated: bool


class RunsOut(Result):
    runs: list[RunOut]


class MemberGrants(Result):
    user_id: str
    email: str
    role: str
    tools: list[str]


class GrantsOut(Result):
    organisation_id: str | None
    members: list[MemberGrants]


class ProvidersOut(Result):
    providers: list[ProviderOut]
    in_use: dict[str, InUse]  # per capability: a stored (active) provider, or the settings'
    configured: dict[str, str]  # per capability: the settings' provider


# -- what the operations that change something answer ----------------------------------------


class Proposal(Result):
    operation: str
    summary: str
    diff: str | None = None
    organisation_id: str | None = None


class Proposed(Result):
    """A proposal: what a person reads before agreeing, and the token apply needs."""

    omit_none = True
    proposal: Proposal
    confirmation_token: str
    next: str


class Applied(Result):
    applied: str = ""  # the operation's name


class Named(Result):
    id: str
    name: str


class SiteCreated(Applied):
    created: SiteOut


class SiteUpdated(Applied):
    updated: SiteOut


class SiteDeleted(Applied):
    deleted: Named


class PageWritten(Result):
    site_id: str
    path: str
    bytes: int
    sha256: str


class PageWriteDone(Applied):
    written: PageWritten


class PageGone(Result):
    site_id: str
    path: str


class PageDeleted(Applied):
    deleted: PageGone


class Granted(Result):
    user_id: str
    tools: list[str]


class GrantsAssigned(Applied):
    granted: Granted


class ProviderCreated(Applied):
    created: ProviderOut


class ProviderUpdated(Applied):
    updated: ProviderOut


class ProviderDeleted(Applied):
    deleted: Named


# -- single-step actions ------------------------------------------------------------------


class ProviderTested(Result):
    provider_id: str
    ok: bool
    error: str | None
    tested_at: str


class RunStarted(Result):
    id: str
    site_id: str
    status: str


class ReindexStarted(Result):
    run: RunStarted
    note: str


class OwnGrants(Result):
    tools: list[str]
