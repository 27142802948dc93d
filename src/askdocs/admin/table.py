"""The admin operation table: every admin operation, once, with the typed function that
prepares or runs it. The REST routes (``server.routes.admin``), the assistant's tools
(``assistant.admin_tools``), the MCP admin tools (``mcp.admin``), the schema endpoints and
the admin UI's forms are all generated from it; nothing lists an operation a second time.

- a ``Change`` is a Propose/Apply pair: ``prepare`` re-derives the change from the database
  and its arguments (writing nothing) and returns what applying writes;
- a ``Read`` lists or shows, never writes;
- an ``Action`` does one bounded thing at once (``reindex_site``, ``test_inference_provider``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, TypeVar

from sqlalchemy.orm import Session

from askdocs.admin import actions, ops_grants, ops_pages, ops_providers, ops_sites, reads
from askdocs.admin import models as m
from askdocs.admin import results as r
from askdocs.admin.authority import Actor
from askdocs.admin.env import AdminEnv, Prepared
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.operation import Kind, Operation, Route

if TYPE_CHECKING:
    from askdocs.admin.api import AdminApi

A = TypeVar("A", bound=m.Args)
R = TypeVar("R", bound=r.Result)
W = TypeVar("W", bound=r.Applied)
Changed = Literal["sites", "providers"]


@dataclass(frozen=True, kw_only=True)
class Change(Operation[A, W]):
    prepare: Callable[[AdminEnv, Session, Actor, A], Prepared[W]]
    changes: Changed | None = None  # what the engine must re-read after an apply
    kind: ClassVar[Kind] = "proposal"


@dataclass(frozen=True, kw_only=True)
class Read(Operation[A, R]):
    read: Callable[[AdminEnv, Session, Actor, A], R]
    kind: ClassVar[Kind] = "read"


@dataclass(frozen=True, kw_only=True)
class Action(Operation[A, R]):
    act: Callable[[AdminApi, Actor, A, str], Awaitable[R]]  # (api, actor, args, initiator)
    kind: ClassVar[Kind] = "action"


AnyOperation = Change[Any, Any] | Read[Any, Any] | Action[Any, Any]
ORG: Final = "organisation"
PLATFORM: Final = "platform"

TABLE: tuple[AnyOperation, ...] = (
    Read(
        name="list_sites",
        authority=ORG,
        args=m.OrgScoped,
        result=r.SitesOut,
        label="List sites",
        description="List your organisation's sites.",
        read=reads.list_sites,
        route=Route("GET", "/sites"),
    ),
    Read(
        name="get_site",
        authority=ORG,
        args=m.SiteRef,
        result=r.SiteDetailOut,
        label="Show a site",
        description="Show one site's settings and its latest indexing run.",
        read=reads.get_site,
        route=Route("GET", "/sites/{siteId}"),
    ),
    Read(
        name="list_pages",
        authority=ORG,
        args=m.SiteRef,
        result=r.PagesOut,
        label="List pages",
        description="List the Markdown pages of a site.",
        read=reads.list_pages,
        route=Route("GET", "/sites/{siteId}/pages"),
    ),
    Read(
        name="read_page",
        authority=ORG,
        args=m.PageRef,
        result=r.PageOut,
        label="Read a page",
        description="Read one page's Markdown and its draft flag.",
        read=reads.read_page,
        route=Route("GET", "/sites/{siteId}/pages/{path:path}"),
    ),
    Read(
        name="list_index_runs",
        authority=ORG,
        args=m.ListIndexRuns,
        result=r.RunsOut,
        label="List index runs",
        description="List recent indexing runs with their figures and failures, for one "
        "site or all.",
        read=reads.list_index_runs,
        route=Route("GET", "/runs"),
    ),
    Read(
        name="list_tool_grants",
        authority=ORG,
        args=m.OrgScoped,
        result=r.GrantsOut,
        label="List tool grants",
        description="List your organisation's members and the assistant tools each may use.",
        read=reads.list_tool_grants,
        route=Route("GET", "/grants"),
    ),
    Read(
        name="list_inference_providers",
        authority=PLATFORM,
        args=m.NoArgs,
        result=r.ProvidersOut,
        label="List inference providers",
        description="List the platform's inference providers; keys show only as hasApiKey "
        "and the last four characters.",
        read=reads.list_providers,
        route=Route("GET", "/providers"),
    ),
    Action(
        name="reindex_site",
        authority=ORG,
        args=m.SiteRef,
        result=r.ReindexStarted,
        label="Re-index a site",
        description="Re-index a site now, in the background; at most a few runs per hour.",
        act=actions.reindex,
        route=Route("POST", "/sites/{siteId}/reindex", 202),
    ),
    Action(
        name="test_inference_provider",
        authority=PLATFORM,
        args=m.ProviderRef,
        result=r.ProviderTested,
        label="Test an inference provider",
        description="Send one small test request to a platform inference provider and "
        "record the result.",
        act=actions.test_provider,
        route=Route("POST", "/providers/{providerId}/test"),
    ),
    Change(
        name="CreateSite",
        authority=ORG,
        args=m.CreateSite,
        result=r.SiteCreated,
        label="Create a site",
        description="create a documentation site in your organisation",
        prepare=ops_sites.prepare_create,
        changes="sites",
    ),
    Change(
        name="UpdateSite",
        authority=ORG,
        args=m.UpdateSite,
        result=r.SiteUpdated,
        label="Change a site",
        description="change a site's settings (omitted or null fields stay as they are)",
        prepare=ops_sites.prepare_update,
        changes="sites",
    ),
    Change(
        name="DeleteSite",
        authority=ORG,
        args=m.DeleteSite,
        result=r.SiteDeleted,
        label="Delete a site",
        description="delete a site",
        prepare=ops_sites.prepare_delete,
        changes="sites",
    ),
    Change(
        name="WritePage",
        authority=ORG,
        args=m.WritePage,
        result=r.PageWriteDone,
        label="Write a page",
        description="create or replace one Markdown page of a site with the full new text",
        prepare=ops_pages.prepare_write,
    ),
    Change(
        name="DeletePage",
        authority=ORG,
        args=m.DeletePage,
        result=r.PageDeleted,
        label="Delete a page",
        description="delete one page of a site",
        prepare=ops_pages.prepare_delete,
    ),
    Change(
        name="AssignToolGrants",
        authority=ORG,
        args=m.AssignToolGrants,
        result=r.GrantsAssigned,
        label="Assign tool grants",
        description="set which assistant tools a member of your organisation may use",
        prepare=ops_grants.prepare_assign,
    ),
    Change(
        name="CreateInferenceProvider",
        authority=PLATFORM,
        args=m.CreateInferenceProvider,
        result=r.ProviderCreated,
        label="Add an inference provider",
        description="add a platform inference provider (chat or embedding)",
        prepare=ops_providers.prepare_create,
        changes="providers",
    ),
    Change(
        name="UpdateInferenceProvider",
        authority=PLATFORM,
        args=m.UpdateInferenceProvider,
        result=r.ProviderUpdated,
        label="Change an inference provider",
        description="change a platform inference provider",
        prepare=ops_providers.prepare_update,
        changes="providers",
    ),
    Change(
        name="DeleteInferenceProvider",
        authority=PLATFORM,
        args=m.DeleteInferenceProvider,
        result=r.ProviderDeleted,
        label="Delete an inference provider",
        description="delete a platform inference provider",
        prepare=ops_providers.prepare_delete,
        changes="providers",
    ),
)
BY_NAME: dict[str, AnyOperation] = {op.name: op for op in TABLE}
BY_SLUG: dict[str, AnyOperation] = {op.slug: op for op in TABLE}
BY_TOOL: dict[str, AnyOperation] = {tool: op for op in TABLE for tool in op.tools}
assert len(BY_NAME) == len(BY_SLUG) == len(TABLE), "an operation is listed twice"


def unknown(name: str) -> NotFound:
    return NotFound(f"unknown operation {name!r}", code=ErrorCode.UNKNOWN_OPERATION)


def find(name: str) -> AnyOperation:
    """An operation by its name (``CreateSite``, ``list_sites``) or its REST slug."""
    found = BY_NAME.get(name) or BY_SLUG.get(name)
    if found is None:
        raise unknown(name)
    return found


def change(name: str) -> Change[Any, Any]:
    found = find(name)
    if not isinstance(found, Change):
        raise unknown(name)
    return found


def grantable_tools() -> tuple[str, ...]:
    """Every admin tool name; the first platform administrator's full grant."""
    return tuple(sorted(BY_TOOL))


def authority_of(tool: str) -> str:
    return BY_TOOL[tool].authority
