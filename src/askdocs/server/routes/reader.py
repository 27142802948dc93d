"""The docs reader API: ``/api/docs/catalog``, ``/api/docs/articles/{slug}``,
``/api/docs/assets/{slug}/{assetId}`` (see docs/reader-api.md).

Handlers only resolve the site and translate: identities are validated by the reader
before any lookup (400), and its errors map through the app's error handlers.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from askdocs.errors import AskDocsError
from askdocs.reader.schemas import Article, Catalog
from askdocs.server.deps import CatalogDep, EngineDep, HostDep, ReaderDep, public_site
from askdocs.server.openapi import settings_values
from askdocs.server.schemas import ErrorBody
from askdocs.server.signin import SiteCallerDep
from askdocs.service import AskDocs
from askdocs.settings import SiteConfig
from askdocs.sites import VISITOR, SiteCaller, SiteCatalog

NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (400, 404, 503)}
SiteParam = Annotated[str | None, Query(max_length=63)]
# the reader's own check answers a missing or unknown locale (400 invalid-locale); the
# document lists the configured locales (``server.openapi.settings_values``)
LocaleParam = Annotated[
    str | None, Query(max_length=35, json_schema_extra=settings_values("locales", required=False))
]
RequiredLocale = Annotated[
    str | None, Query(max_length=35, json_schema_extra=settings_values("locales", required=True))
]
# documented, not enforced here: the reader checks them (``reader.ids``, 400 invalid-*);
# every value these patterns allow passes those checks (ASCII subsets of them)
_SEGMENT = r"[A-Za-z0-9_~-](?:[A-Za-z0-9_.~ -]{0,98}[A-Za-z0-9_.~-])?"
SLUG_PATTERN = rf"^{_SEGMENT}(?:/{_SEGMENT}){{0,15}}$"
SlugPath = Annotated[str, Path(json_schema_extra={"pattern": SLUG_PATTERN, "maxLength": 200})]
AssetIdPath = Annotated[
    str, Path(json_schema_extra={"pattern": r"^[0-9a-f]{64}\.(?:png|jpg|gif|webp)$"})
]


router = APIRouter()


def reader_site(
    catalog: SiteCatalog, host: str, site_id: str | None, caller: SiteCaller = VISITOR
) -> SiteConfig:
    """The named site, else the host's site; public and live ones, and the private sites of
    the caller's organisations."""
    return public_site(catalog, host, site_id, caller)


@router.get("/api/docs/catalog", response_model=Catalog, responses=_ERRORS)
def catalog(
    reader: ReaderDep,
    sites: CatalogDep,
    host: HostDep,
    caller: SiteCallerDep,
    locale: RequiredLocale = None,
    site: SiteParam = None,
) -> JSONResponse:
    body = reader.catalog(reader_site(sites, host, site, caller), locale)
    return JSONResponse(body.model_dump(mode="json"), headers=NO_STORE)


@router.get("/api/docs/articles/{slug:path}", response_model=Article, responses=_ERRORS)
def article(
    reader: ReaderDep,
    engine: EngineDep,
    sites: CatalogDep,
    host: HostDep,
    caller: SiteCallerDep,
    slug: SlugPath,
    locale: RequiredLocale = None,
    site: SiteParam = None,
) -> JSONResponse:
    chosen = reader_site(sites, host, site, caller)
    body = reader.article(
        chosen,
        slug,
        locale,
        developer=caller.reads_developer_pages,
        indexed_at=_indexed_at(engine, chosen.id),
    )
    return JSONResponse(body.model_dump(mode="json"), headers=NO_STORE)


def _indexed_at(engine: AskDocs, site_id: str) -> float | None:
    """When the collection a search of the site reads now was built; None before any (or
    when the store cannot say: freshness never fails an article)."""
    try:
        return engine.indexed_at(engine.status(site_id).collection)
    except AskDocsError:
        return None


@router.get(
    "/api/docs/assets/{slug:path}/{asset_id}",
    response_class=Response,
    responses={200: {"content": {"image/png": {}}}, 304: {}, **_ERRORS},
)
def asset(
    request: Request,
    reader: ReaderDep,
    sites: CatalogDep,
    host: HostDep,
    caller: SiteCallerDep,
    slug: SlugPath,
    asset_id: AssetIdPath,
    site: SiteParam = None,
) -> Response:
    etags = parse_if_none_match(request.headers.get("if-none-match"))
    found = reader.asset(reader_site(sites, host, site, caller), slug, asset_id, etags)
    headers = {
        "ETag": f'"{found.sha256}"',
        "Cache-Control": "private, no-cache",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cross-Origin-Resource-Policy": "same-origin",
    }
    if found.data is None:
        return Response(status_code=304, headers=headers)
    return Response(found.data, media_type=found.content_type, headers=headers)


def parse_if_none_match(value: str | None) -> frozenset[str]:
    """The entity tags of an ``If-None-Match`` header, quotes and ``W/`` removed."""
    if not value:
        return frozenset()
    tags = (part.strip().removeprefix("W/").strip('"') for part in value.split(",")[:32])
    return frozenset(tag for tag in tags if tag)
