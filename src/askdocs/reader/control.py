"""``DocsReader``: the docs lookup control behind the reader API (catalog, article, asset).

Every call rescans the site's corpus through the shared stat cache, so additions, edits,
removals and replaced images are seen at once; rendered markup is cached by the page's
text. A missing article or unreferenced asset is ``NotFound``; a source that cannot be
read (a configuration error, a render over its budget) is ``ServiceUnavailable`` with
code ``docs-unavailable``; a single bad file (a symbolic link, a FIFO, a file over the size
limit, invalid UTF-8 or front matter) is left out and logged once per corpus revision,
and every other page is served. The catalog never includes developer pages; articles
include them only for ``developer=True`` (a signed-in member), under the slug
``developer/<slug>``: the address the default ``developer_url_template`` gives them, so
an assistant citation of one opens.

Each catalog and article read has a budget (``reader.read_budget_seconds`` of wall clock,
``reader.read_budget_cpu_seconds`` of parsing CPU; ``corpus.budget``): pages not parsed
by its deadline, and pages whose images the revision needs but whose render is not done,
are still worked on in the background (once, however many reads ask) while the read
answers without them, marked ``partial``. An article whose site is still partly being
read and that is not found (it may be among the pending pages) is ``503
docs-unavailable``, not 404. A page whose render fails shows no images in the revision.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import replace
from pathlib import Path

from askdocs.corpus import CorpusCache
from askdocs.corpus.budget import ReadBudget
from askdocs.corpus.dialects import DIALECTS, Dialect
from askdocs.corpus.freshness import FreshnessReader, freshness_json
from askdocs.corpus.parse_pool import ParsePool
from askdocs.error_codes import ErrorCode
from askdocs.errors import AskDocsError, NotFound, ServiceUnavailable
from askdocs.ingest import CorpusSnapshot, IngestCache, read_site
from askdocs.reader import article as articles
from askdocs.reader import catalog as catalogs
from askdocs.reader.assets import ImageAsset, ImageFiles
from askdocs.reader.ids import check_asset_id, check_locale, check_slug
from askdocs.reader.labels import audience_label, category_label
from askdocs.reader.links import article_href
from askdocs.reader.markup import MARKUP_VERSION, ImageRef, Markup, MarkupJob
from askdocs.reader.pool import RenderFailed, RenderPool
from askdocs.reader.sanitize import SANITIZER_VERSION
from askdocs.reader.schemas import Article, ArticleFreshness, ArticleRef, AssetFile, Catalog
from askdocs.settings import Settings, SiteConfig
from askdocs.types import Page

log = logging.getLogger(__name__)
DEVELOPER_PREFIX = "developer/"
_MARKUP_CACHE_SIZE = 256
MarkupKey = tuple[str, tuple[str, ...]]  # (digest of dialect and body, heading ids)


class DocsReader:
    """Catalog, article and asset reads for configured sites. Thread-safe; ``close()`` it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.locales: tuple[str, ...] = tuple(settings.corpus.locales)
        reader = settings.reader
        self.parser = ParsePool(settings.corpus.parse_timeout_seconds)  # long pages, bounded
        self._cache = IngestCache(CorpusCache(self.parser))
        self._images = ImageFiles(settings.corpus.max_image_bytes)
        self.renderer = RenderPool(
            workers=reader.render_workers,
            timeout=reader.render_timeout_seconds,
            max_output_chars=reader.max_html_bytes,
        )
        self._markups: OrderedDict[MarkupKey, Markup | str] = OrderedDict()
        self._rendering: dict[MarkupKey, Future[Markup | str]] = {}
        self._renders = ThreadPoolExecutor(reader.render_workers, "askdocs-render")
        self._lock = threading.Lock()
        self._logged: dict[str, str] = {}  # site -> corpus revision whose bad files were logged
        self._freshness = FreshnessReader()

    def start_workers(self) -> None:
        """Start the parse and render workers in the background now (``askdocs serve``
        calls this at start): the first catalog read parses the long pages in one and
        renders the pages with images in the other (for the revision), and before, it
        waited for both processes to start (7-14 s at load 12 on 2 cores)."""
        self.parser.start_soon()
        self.renderer.start_soon()

    def budget(self) -> ReadBudget:
        """The budget of one read, starting now."""
        reader = self.settings.reader
        return ReadBudget.start(reader.read_budget_seconds, reader.read_budget_cpu_seconds)

    def catalog(self, site: SiteConfig, locale: str | None) -> Catalog:
        chosen = check_locale(locale, self.locales)
        budget = self.budget()
        snapshot = self._snapshot(site, budget)
        pages = readable_pages(snapshot, chosen)
        revision, unrendered = self._revision(snapshot, budget)
        pending = len(snapshot.pending) + unrendered
        return Catalog(
            site=site.id,
            locale=chosen,
            revision=revision,
            categories=catalogs.categorise(pages, chosen),
            locales=site_locales(snapshot, site.default_locale, self.locales),
            partial=pending > 0,
            pending=pending,
        )

    def pages(
        self, site: SiteConfig, locale: str | None, *, developer: bool = False
    ) -> tuple[str, list[Page]]:
        """The chosen locale and the pages a reader may see in it: user pages, and with
        ``developer`` (a signed-in member) the developer pages under ``developer/<slug>``,
        the slug their articles answer to."""
        chosen = check_locale(locale, self.locales)
        snapshot = self._snapshot(site, self.budget())
        found = readable_pages(snapshot, chosen)
        if developer:
            found += [
                replace(page, slug=DEVELOPER_PREFIX + page.slug)
                for page in developer_pages(snapshot, chosen)
            ]
        return chosen, found

    def article(
        self,
        site: SiteConfig,
        slug: str,
        locale: str | None,
        *,
        developer: bool = False,
        indexed_at: float | None = None,
    ) -> Article:
        """``indexed_at``: when the site's current search index was built (Unix seconds),
        for ``freshness.indexedAt``; the file time and git commit are read here."""
        found, page = self._article(site, slug, locale, developer)
        fresh = self._freshness.of([Path(page.root)], page.path, indexed_at)
        return found.model_copy(update={"freshness": ArticleFreshness(**freshness_json(fresh))})

    def _article(
        self, site: SiteConfig, slug: str, locale: str | None, developer: bool
    ) -> tuple[Article, Page]:
        check_slug(slug)
        chosen = check_locale(locale, self.locales)
        snapshot = self._snapshot(site, self.budget())
        pages = readable_pages(snapshot, chosen)
        page = next((p for p in pages if p.slug == slug), None)
        if page is None and developer and slug.startswith(DEVELOPER_PREFIX):
            return self._developer_article(site, slug.removeprefix(DEVELOPER_PREFIX), chosen)
        if page is None:
            raise _missing(snapshot)
        body = self._body(page, snapshot)
        computed = catalogs.neighbours(page, pages)
        previous, following = catalogs.authored_neighbours(page, computed, pages)
        skip = [ref.slug for ref in (previous, following) if ref is not None]
        found = _article(site, page, chosen, body, previous, following, pages, skip)
        return found, page

    def _developer_article(self, site: SiteConfig, slug: str, locale: str) -> tuple[Article, Page]:
        """A developer page as an article: no catalog neighbours or related guides."""
        snapshot = self._snapshot(site, self.budget())
        page = next((p for p in developer_pages(snapshot, locale) if p.slug == slug), None)
        if page is None:
            raise _missing(snapshot)
        body = self._body(page, snapshot)
        found = _article(site, page, locale, body, None, None, [], [])
        renamed = found.model_copy(
            update={
                "slug": DEVELOPER_PREFIX + page.slug,
                "url": article_href(DEVELOPER_PREFIX + page.slug),
            }
        )
        return renamed, page

    def asset(
        self, site: SiteConfig, slug: str, asset_id: str, etags: Collection[str] = ()
    ) -> AssetFile:
        """The image ``asset_id`` of article ``slug``, re-resolved now; with a matching
        ``etags`` entry the answer carries no bytes (a 304)."""
        check_slug(slug)
        check_asset_id(asset_id)
        snapshot = self._snapshot(site, self.budget())
        found = self._find_asset(snapshot, slug, asset_id)
        if found is None and snapshot.pending:
            raise _still_reading()
        if found is None:
            raise NotFound("no such image", code=ErrorCode.READER_ASSET_NOT_FOUND)
        if found.sha256 in etags or "*" in etags:
            return AssetFile(asset_id, found.content_type, found.sha256, None)
        data = self._images.read(found)
        if data is None:
            raise NotFound("no such image", code=ErrorCode.READER_ASSET_NOT_FOUND)
        return AssetFile(asset_id, found.content_type, found.sha256, data)

    def close(self) -> None:
        self._renders.shutdown(wait=False, cancel_futures=True)
        self.renderer.close()
        self._cache.close()

    def _snapshot(self, site: SiteConfig, budget: ReadBudget | None = None) -> CorpusSnapshot:
        try:
            snapshot = read_site(site, self.settings.corpus, self._cache, budget)
        except (AskDocsError, OSError) as exc:
            log.warning("site %s: documentation cannot be read: %s", site.id, exc)
            raise ServiceUnavailable(
                "the documentation cannot be read right now", code=ErrorCode.READER_DOCS_UNAVAILABLE
            ) from None
        self._log_bad_files(site, snapshot)
        return snapshot

    def _log_bad_files(self, site: SiteConfig, snapshot: CorpusSnapshot) -> None:
        """Files that cannot be used are left out (every good page is still served) and
        logged once per file per corpus revision, not once per request."""
        with self._lock:
            fresh = self._logged.get(site.id) != snapshot.revision
            self._logged[site.id] = snapshot.revision
        if fresh:
            for error in snapshot.errors:
                log.warning("site %s: %s skipped: %s", site.id, error.path, error.reason)

    def _body(self, page: Page, snapshot: CorpusSnapshot) -> articles.Body:
        markup = self._markup(page)
        context = articles.link_context(page, readable_variants(snapshot))
        reader = self.settings.reader
        limit = articles.output_limit(page.body, reader.max_html_bytes, reader.html_amplification)
        try:
            return articles.render_body(page, markup, context, self._checker(page), limit)
        except RenderFailed as exc:
            raise ServiceUnavailable(
                f"the article cannot be shown: {exc}", code=ErrorCode.READER_DOCS_UNAVAILABLE
            ) from None

    def _checker(self, page: Page) -> articles.ImageCheck:
        def check(ref: ImageRef) -> str | None:
            found = self._images.check(page.root, page.path, ref.src, ref.alt)
            return found.asset_id if isinstance(found, ImageAsset) else None

        return check

    def _markup(self, page: Page) -> Markup:
        """The page's placeholder markup, rendered in a worker under the time budget."""
        found = self._markup_within(page, None)
        if not isinstance(found, Markup):
            reason = found or "rendering did not finish"
            raise ServiceUnavailable(
                f"the article cannot be shown: {reason}", code=ErrorCode.READER_DOCS_UNAVAILABLE
            )
        return found

    def _markup_within(self, page: Page, budget: ReadBudget | None) -> Markup | str | None:
        """The markup (or why it failed), rendered once however many reads ask; None when
        ``budget``'s deadline comes first (the render goes on in the background)."""
        key = (_digest(f"{page.dialect}\n{page.body}"), tuple(h.section_id for h in page.headings))
        with self._lock:
            cached = self._markups.get(key)
            if cached is not None:
                self._markups.move_to_end(key)
                return cached
            future = self._rendering.get(key)
            if future is None:
                future = self._renders.submit(self._render_kept, page, key)
                self._rendering[key] = future
        try:
            return future.result(timeout=None if budget is None else budget.remaining())
        except FutureTimeout:
            return None

    def _render_kept(self, page: Page, key: MarkupKey) -> Markup | str:
        rendered = self._render(page, key[1])
        with self._lock:
            self._markups[key] = rendered
            while len(self._markups) > _MARKUP_CACHE_SIZE:
                self._markups.popitem(last=False)
            self._rendering.pop(key, None)
        return rendered

    def _render(self, page: Page, heading_ids: tuple[str, ...]) -> Markup | str:
        if len(page.body.encode()) > self.settings.corpus.max_markdown_bytes:
            return "the page is over the Markdown size limit"
        try:
            job = MarkupJob(page.body, heading_ids, dialect=_dialect(page.dialect))
            return self.renderer.render(job)
        except RenderFailed as exc:
            return str(exc)

    def _assets_of(self, page: Page, budget: ReadBudget | None = None) -> list[ImageAsset] | None:
        """The page's shown images; None when its render is not done by ``budget``'s
        deadline. A page that cannot be rendered shows none (its article answers 503)."""
        if "![" not in page.body:
            return []
        markup = self._markup_within(page, budget)
        if not isinstance(markup, Markup):
            return None if markup is None else []
        found = (
            self._images.check(page.root, page.path, ref.src, ref.alt) for ref in markup.images
        )
        return [item for item in found if isinstance(item, ImageAsset)]

    def _find_asset(self, snapshot: CorpusSnapshot, slug: str, asset_id: str) -> ImageAsset | None:
        for page in readable_variants(snapshot):
            if page.slug == slug:
                assets = self._assets_of(page) or []
                match = next((a for a in assets if a.asset_id == asset_id), None)
                if match is not None:
                    return match
        return None

    def _revision(self, snapshot: CorpusSnapshot, budget: ReadBudget) -> tuple[str, int]:
        """The corpus revision plus renderer versions and every shown image's content id,
        and how many pages' images it could not cover within ``budget``."""
        versions = f"{snapshot.revision}\n{MARKUP_VERSION}\n{SANITIZER_VERSION}\n"
        digest = hashlib.sha256(versions.encode())
        unrendered = 0
        for page in readable_variants(snapshot):
            assets = self._assets_of(page, budget)
            unrendered += assets is None
            ids = sorted(asset.asset_id for asset in assets or [])
            digest.update(f"{page.slug}:{page.locale}:{','.join(ids)}\n".encode())
        return digest.hexdigest(), unrendered


def site_locales(snapshot: CorpusSnapshot, default: str, known: Sequence[str]) -> list[str]:
    """The locales of ``known`` the site has readable pages in, its default first."""
    present = {page.locale for page in readable_variants(snapshot)}
    return [code for code in dict.fromkeys((default, *known)) if code == default or code in present]


def readable_variants(snapshot: CorpusSnapshot) -> list[Page]:
    """Every locale variant of every page a reader may see."""
    return [page for page in snapshot.pages if catalogs.readable(page) and _valid_slug(page.slug)]


def developer_pages(snapshot: CorpusSnapshot, locale: str) -> list[Page]:
    """One variant per developer page: ``locale``, else the English original."""
    slugs = dict.fromkeys(
        page.slug
        for page in snapshot.pages
        if page.audience == "developer" and _valid_slug(page.slug)
    )
    found = (snapshot.page(slug, locale) for slug in slugs)
    return [page for page in found if page is not None and page.audience == "developer"]


def readable_pages(snapshot: CorpusSnapshot, locale: str) -> list[Page]:
    """One variant per readable article: ``locale``, else the English original."""
    slugs = dict.fromkeys(page.slug for page in readable_variants(snapshot))
    found = (snapshot.page(slug, locale) for slug in slugs)
    return [page for page in found if page is not None]


def _article(
    site: SiteConfig,
    page: Page,
    locale: str,
    body: articles.Body,
    previous: ArticleRef | None,
    following: ArticleRef | None,
    pages: Iterable[Page],
    skip: list[str],
) -> Article:
    category = catalogs.category_of(page)
    audience = catalogs.reader_audience(page)
    return Article(
        site=site.id,
        slug=page.slug,
        title=page.title,
        description=page.description,
        locale=page.locale,
        requested_locale=locale,
        translated=page.translated,
        category=category,
        category_label=category_label(category, locale),
        audience=audience,
        audience_label=audience_label(audience, locale),
        title_anchor=body.title_anchor,
        html=body.html,
        toc=body.toc,
        previous=previous,
        next=following,
        related=catalogs.related(page, body.linked, list(pages), skip),
        url=article_href(page.slug),
    )


def _valid_slug(slug: str) -> bool:
    try:
        check_slug(slug)
    except AskDocsError:
        return False
    return True


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _dialect(name: str) -> Dialect:
    return next((known for known in DIALECTS if known == name), "gfm")


def _still_reading() -> ServiceUnavailable:
    return ServiceUnavailable(
        "the documentation is still being read; try again in a few seconds",
        code=ErrorCode.READER_DOCS_UNAVAILABLE,
    )


def _missing(snapshot: CorpusSnapshot) -> AskDocsError:
    """A slug not found: 404, unless some pages are still being read (it may be one)."""
    if snapshot.pending:
        return _still_reading()
    return NotFound("no such article", code=ErrorCode.READER_ARTICLE_NOT_FOUND)
