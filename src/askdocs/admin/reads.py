"""The read-only tools: sites, pages, indexing runs, grants (organisation) and providers
(platform). Same gate and grant as every other tool (``admin.runner``); never a secret in
the output. Each read takes its typed arguments (``admin.models``), parsed once at the
boundary, and returns its typed result (``admin.results``)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.admin import pages, providers, sites
from askdocs.admin.authority import Actor
from askdocs.admin.env import AdminEnv
from askdocs.admin.grants import grants_of
from askdocs.admin.models import ListIndexRuns, NoArgs, OrgScoped, PageRef, SiteRef
from askdocs.admin.ops_pages import is_draft
from askdocs.admin.results import (
    GrantsOut,
    InUse,
    LinkOut,
    MemberGrants,
    PageEntry,
    PageOut,
    PageProblem,
    PagesOut,
    ProviderOut,
    ProvidersOut,
    RunOut,
    RunsOut,
    SiteDetailOut,
    SiteOut,
    SitesOut,
)
from askdocs.confirm.canonical import sha256_hex
from askdocs.corpus.sources import resolve_roots, scan_root
from askdocs.db.admin_models import IndexRunRow, SiteRow
from askdocs.db.models import MembershipRow, UserRow
from askdocs.errors import ConfigError
from askdocs.ingest import read_site
from askdocs.reader.control import readable_variants
from askdocs.reader.linkcheck import unresolved_links
from askdocs.settings import SiteConfig

MAX_PAGE_CHARS = 50_000
DEFAULT_RUNS = 20


def list_sites(env: AdminEnv, session: Session, actor: Actor, args: OrgScoped) -> SitesOut:
    rows = sites.org_sites(session, actor.org_id)
    return SitesOut(sites=[SiteOut.of(row).with_report(env.site_report(row.id)) for row in rows])


def get_site(env: AdminEnv, session: Session, actor: Actor, args: SiteRef) -> SiteDetailOut:
    row = sites.org_site(session, actor.org_id, sites.valid_site_id(args.site_id))
    runs = _runs(session, [row.id], 1)
    return SiteDetailOut(site=SiteOut.of(row), last_run=runs[0] if runs else None)


def list_pages(env: AdminEnv, session: Session, actor: Actor, args: SiteRef) -> PagesOut:
    """Every Markdown file of the site, the files left out with the reason (a symbolic
    link, invalid front matter...) and the links the reader cannot follow."""
    row = sites.org_site(session, actor.org_id, sites.valid_site_id(args.site_id))
    config = sites.site_config(row, env.sites_dir)
    base = sites.site_folder(env.sites_dir, row.id).resolve()
    found: list[PageEntry] = []
    try:
        roots = resolve_roots(config)
    except ConfigError:
        roots = []
    prefixes = {str(root.path): _prefix(root.path, base) for root in roots}
    for root in roots:
        for item in scan_root(root).files:
            path = _joined(prefixes[str(root.path)], item.rel)
            found.append(PageEntry(path=path, bytes=item.key.size, audience=root.audience))
    errors, links = _problems(env, config, prefixes) if roots else ([], [])
    return PagesOut(site_id=row.id, pages=found, errors=errors, links=links)


def _prefix(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix() if path != base else ""


def _joined(prefix: str, rel: str) -> str:
    return f"{prefix}/{rel}" if prefix else rel


def _problems(
    env: AdminEnv, config: SiteConfig, prefixes: dict[str, str]
) -> tuple[list[PageProblem], list[LinkOut]]:
    """The site read as the engine reads it: its bad files and unresolved links (paths
    from the site's folder)."""
    snapshot = read_site(config, env.settings.corpus)
    root_of = {page.path: prefixes.get(page.root, "") for page in snapshot.pages}
    only = next(iter(prefixes.values()), "") if len(prefixes) == 1 else ""
    errors = [PageProblem(path=_joined(only, e.path), reason=e.reason) for e in snapshot.errors]
    problems = unresolved_links(snapshot.pages, readable_variants(snapshot))
    links = [
        LinkOut(path=_joined(root_of.get(p.path, ""), p.path), href=p.href, reason=p.reason)
        for p in problems
    ]
    return errors, links


def read_page(env: AdminEnv, session: Session, actor: Actor, args: PageRef) -> PageOut:
    row = sites.org_site(session, actor.org_id, sites.valid_site_id(args.site_id))
    rel = pages.check_path(args.path, list(row.roots))
    page = pages.read_page(
        sites.site_folder(env.sites_dir, row.id), rel, env.settings.admin.max_page_bytes
    )
    if page is None:
        raise pages.page_not_found()
    content = page.text
    return PageOut(
        site_id=row.id,
        path=rel,
        sha256=sha256_hex(page.data),
        draft=is_draft(content, rel),
        content=content[:MAX_PAGE_CHARS],
        truncated=len(content) > MAX_PAGE_CHARS,
    )


def _runs(session: Session, site_ids: list[str], limit: int) -> list[RunOut]:
    query = select(IndexRunRow).where(IndexRunRow.site_id.in_(site_ids))
    query = query.order_by(IndexRunRow.created_at.desc(), IndexRunRow.id).limit(limit)
    return [RunOut.of(run) for run in session.scalars(query)]


def list_index_runs(env: AdminEnv, session: Session, actor: Actor, args: ListIndexRuns) -> RunsOut:
    if args.site_id is not None:
        ids = [sites.org_site(session, actor.org_id, sites.valid_site_id(args.site_id)).id]
    else:
        ids = [row.id for row in sites.org_sites(session, actor.org_id)]
    return RunsOut(runs=_runs(session, ids, args.limit or DEFAULT_RUNS))


def list_tool_grants(env: AdminEnv, session: Session, actor: Actor, args: OrgScoped) -> GrantsOut:
    query = select(UserRow, MembershipRow.role).join(
        MembershipRow, MembershipRow.user_id == UserRow.id
    )
    query = query.where(MembershipRow.organisation_id == actor.org_id).order_by(UserRow.email)
    members = [
        MemberGrants(user_id=u.id, email=u.email, role=role, tools=grants_of(session, u.id))
        for u, role in session.execute(query)
    ]
    return GrantsOut(organisation_id=actor.org_id, members=members)


def list_providers(env: AdminEnv, session: Session, actor: Actor, args: NoArgs) -> ProvidersOut:
    found = providers.platform_providers(session)
    stored = {row.capability for row in found if row.active}
    in_use: dict[str, InUse] = {
        capability: "database" if capability in stored else "settings"
        for capability in providers.CAPABILITIES
    }
    configured: dict[str, str] = {
        "chat": env.settings.chat.provider,
        "embedding": env.settings.embedding.provider,
    }
    return ProvidersOut(
        providers=[ProviderOut.of(row) for row in found], in_use=in_use, configured=configured
    )


def all_site_rows(session: Session) -> list[SiteRow]:
    return list(session.scalars(select(SiteRow).order_by(SiteRow.id)))
