"""The typed results of the admin read tools (camelCase on the wire, never a secret).

Each read returns one of these models; ``dump`` turns it into the JSON object a tool result
or a REST response carries, and the REST routes declare them, so ``/openapi.json``
describes every admin read's response with its fields.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from askdocs.db.admin_models import IndexRunRow, ProviderRow, SiteRow

JsonObject = dict[str, object]


class Result(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    def dump(self) -> JsonObject:
        return self.model_dump(mode="json", by_alias=True)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


class SiteOut(Result):
    id: str
    organisation_id: str
    name: str
    roots: list[dict[str, str]]
    hostnames: list[str]
    public: bool
    ask_enabled: bool
    ask_daily_limit: int | None
    default_locale: str

    @classmethod
    def of(cls, row: SiteRow) -> SiteOut:
        return cls(
            id=row.id,
            organisation_id=row.organisation_id,
            name=row.name,
            roots=list(row.roots),
            hostnames=list(row.hostnames),
            public=row.public,
            ask_enabled=row.ask_enabled,
            ask_daily_limit=row.ask_daily_limit,
            default_locale=row.default_locale,
        )


class RunOut(Result):
    id: str
    site_id: str
    user_id: str
    initiator: str
    status: str
    started_at: str | None
    finished_at: str | None
    chunks: int | None
    error: str | None

    @classmethod
    def of(cls, run: IndexRunRow) -> RunOut:
        return cls(
            id=run.id,
            site_id=run.site_id,
            user_id=run.user_id,
            initiator=run.initiator,
            status=run.status,
            started_at=_iso(run.started_at),
            finished_at=_iso(run.finished_at),
            chunks=run.chunks,
            error=run.error,
        )


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
    last_test_at: str | None
    last_test_ok: bool | None
    last_test_error: str | None

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
            last_test_at=_iso(row.last_test_at),
            last_test_ok=row.last_test_ok,
            last_test_error=row.last_test_error,
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


class PageProblem(Result):
    path: str
    reason: str


class PagesOut(Result):
    site_id: str
    pages: list[PageEntry]
    errors: list[PageProblem]


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
