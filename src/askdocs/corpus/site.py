"""``read_pages``: a site's roots -> ``CorpusPages`` (pages, errors, warnings).

Order of work: check the configuration (the only thing that raises), rescan each root's
membership, reuse or re-read each file through the stat cache, group locale variants
with their original, apply first-root-wins on slugs, then label each page with its URL
template and kind. Per-file problems become ``PageError`` entries; oddities that drop
nothing important become warnings. Chunking is the next step (``askdocs.ingest``).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from askdocs.corpus.budget import ReadBudget
from askdocs.corpus.cache import (
    CorpusCache,
    EntryKey,
    FileEntry,
    ParseMany,
    Pending,
    SiteCache,
    finish_entry,
    prepare_entry,
)
from askdocs.corpus.dialects.nav import NavEntry
from askdocs.corpus.documents import Diagnostics, ParseOptions, SourceDoc
from askdocs.corpus.pagekind import page_kind
from askdocs.corpus.pages import CorpusPages, SourcePage
from askdocs.corpus.sources import Candidate, Root, resolve_roots, scan_root
from askdocs.corpus.urls import valid_slug
from askdocs.settings import CorpusSettings, SiteConfig
from askdocs.types import Page, PageError


@dataclass
class _Run:
    """The mutable state of one ``read_pages`` call."""

    site: SiteConfig
    settings: CorpusSettings
    options: ParseOptions
    state: SiteCache
    parse_many: ParseMany
    entries: dict[EntryKey, FileEntry] = field(default_factory=dict)
    errors: list[PageError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    owners: dict[str, str] = field(default_factory=dict)  # slug -> "root-index:path"
    pages: list[SourcePage] = field(default_factory=list)
    budget: ReadBudget | None = None
    pending: list[str] = field(default_factory=list)  # not parsed within the budget
    dialects: list[tuple[str, str, str]] = field(default_factory=list)
    diagnostics: list[tuple[str, Diagnostics]] = field(default_factory=list)


def read_pages(
    site: SiteConfig,
    settings: CorpusSettings,
    cache: CorpusCache | None = None,
    budget: ReadBudget | None = None,
) -> CorpusPages:
    """Read every page of ``site``. Raises ``ConfigError`` only for configuration errors.
    With a ``budget`` (``corpus.budget``), files not parsed by its deadline are left out
    and listed as ``pending``."""
    roots = resolve_roots(site)
    locales = tuple(dict.fromkeys((site.default_locale, *settings.locales)))
    options = ParseOptions(locales, site.default_locale, settings.split_level)
    cache = cache if cache is not None else CorpusCache()
    with cache.lock:
        state = cache.site((site.id, tuple(str(root.path) for root in roots)))
        run = _Run(site, settings, options, state, cache.parse_many, budget=budget)
        for root in roots:
            _read_root(run, root)
        return _finish(run)


def _finish(run: _Run) -> CorpusPages:
    run.state.entries = run.entries
    last = run.state.last
    same = last is not None and last.pending == tuple(run.pending)
    if last is not None and same and last.same_content(run.pages, run.errors, run.warnings):
        return last
    pages = CorpusPages(
        site=run.site.id,
        default_locale=run.options.default_locale,
        pages=tuple(run.pages),
        errors=tuple(run.errors),
        warnings=tuple(run.warnings),
        dialects=tuple(run.dialects),
        diagnostics=tuple(run.diagnostics),
        pending=tuple(run.pending),
    )
    run.state.last = pages
    return pages


def _read_root(run: _Run, root: Root) -> None:
    scan = scan_root(root)
    run.errors.extend(scan.errors)
    docs: list[tuple[FileEntry, SourceDoc]] = []
    options = replace(
        run.options,
        dialect=root.dialect,
        slugs=root.tool.slugs,
        src_prefix=root.tool.src_prefix,
        title_suffixes=root.tool.title_suffixes,
    )
    settings = (options, run.settings.max_markdown_bytes)
    run.dialects.append((str(root.path), root.dialect, root.detection.reason))
    for key, entry in _entries(run, root, scan.files, settings):
        run.entries[key] = entry
        if isinstance(entry.result, PageError):
            run.errors.append(entry.result)
        else:
            docs.append((entry, entry.result))
            run.diagnostics.append((entry.result.rel, entry.result.diagnostics))
    local: dict[str, str] = {}
    for group in _groups(run, docs):
        _add_group(run, root, group, local)


def _entries(
    run: _Run, root: Root, files: Sequence[Candidate], settings: tuple[ParseOptions, int]
) -> list[tuple[EntryKey, FileEntry]]:
    """Each file's entry: reused while unchanged, else read, then all the changed ones
    parsed in one batch (long pages in the parse worker meanwhile: two cores)."""
    prepared: list[tuple[EntryKey, FileEntry | Pending]] = []
    for candidate in files:
        key = (str(root.path), candidate.rel)
        previous = run.state.entries.get(key)
        entry = prepare_entry(previous, root.path, candidate.rel, candidate.key, settings)
        if entry is not None:  # None: removed since the scan
            prepared.append((key, entry))
    waiting = [item for _, item in prepared if isinstance(item, Pending)]
    parsed = iter(run.parse_many([item.job for item in waiting], run.budget))
    done: list[tuple[EntryKey, FileEntry]] = []
    for key, item in prepared:
        if not isinstance(item, Pending):
            done.append((key, item))
        elif (result := next(parsed)) is None:  # not parsed within the read's budget
            run.pending.append(item.job.rel)
        else:
            done.append((key, finish_entry(item, result)))
    return done


def _groups(
    run: _Run, docs: Iterable[tuple[FileEntry, SourceDoc]]
) -> list[list[tuple[FileEntry, SourceDoc]]]:
    """Variants grouped by base path, original first, in path order; drafts left out."""
    grouped: dict[str, list[tuple[FileEntry, SourceDoc]]] = {}
    for entry, doc in docs:
        if doc.unknown_locale is not None:
            run.warnings.append(f"{doc.rel}: locale {doc.unknown_locale!r} is not configured")
            continue
        grouped.setdefault(doc.base, []).append((entry, doc))
    default = run.options.default_locale
    result = []
    for base in sorted(grouped):
        variants = sorted(grouped[base], key=lambda item: (item[1].locale != default, item[1].rel))
        if variants[0][1].locale == default and variants[0][1].front.draft:
            continue  # a draft original hides the whole page
        result.append([item for item in variants if not item[1].front.draft])
    return [group for group in result if group]


def _add_group(
    run: _Run, root: Root, group: list[tuple[FileEntry, SourceDoc]], local: dict[str, str]
) -> None:
    original = group[0][1]
    if original.locale != run.options.default_locale:
        run.warnings.append(
            f"{original.rel}: translation without an original in the default locale"
        )
    slug = _slug(original)
    if not valid_slug(slug):
        for _, doc in group:
            run.errors.append(PageError(doc.rel, f"slug {slug!r} cannot be a reader address"))
        return
    if slug in local:
        for _, doc in group:
            run.errors.append(PageError(doc.rel, f"slug {slug!r} is already used by {local[slug]}"))
        return
    if slug in run.owners:
        run.warnings.append(
            f"{original.rel}: skipped, slug {slug!r} is already provided by {run.owners[slug]}"
        )
        return
    local[slug] = original.rel
    run.owners[slug] = f"root {root.index + 1} ({original.rel})"
    seen: set[str] = set()
    for entry, doc in group:
        if doc.locale in seen:
            run.errors.append(PageError(doc.rel, f"a second {doc.locale!r} variant of {slug!r}"))
            continue
        seen.add(doc.locale)
        _add_page(run, root, entry, doc, slug, original)


def _add_page(
    run: _Run, root: Root, entry: FileEntry, doc: SourceDoc, slug: str, original: SourceDoc
) -> None:
    if doc is not original and doc.front.slug is not None and _slug(doc) != slug:
        run.warnings.append(f"{doc.rel}: 'slug' of a translation is ignored (uses {slug!r})")
    audience = original.front.audience or root.audience
    nav = root.nav.get(original.rel)
    order = _order(original, nav)
    description = doc.front.description or original.front.description
    inputs = (run.site.id, str(root.path), slug, audience, order, description, nav)
    page = entry.page_for(
        inputs,
        lambda: Page(
            site=run.site.id,
            root=str(root.path),
            path=doc.rel,
            slug=slug,
            title=_title(doc, root.nav.get(doc.rel) or nav),
            locale=doc.locale,
            audience=audience,
            order=order,
            description=description,
            body=doc.body,
            headings=doc.headings,
            sections=doc.sections,
            meta=_meta(doc, nav),
            dialect=doc.dialect,
            anchors=doc.anchors,
            anchor_aliases=doc.anchor_aliases,
        ),
    )
    template = root.url_template or (
        run.site.developer_url_template if audience == "developer" else run.site.user_url_template
    )
    kind = page_kind(doc.rel, page.meta, page.headings, root.configured_kind(doc.rel))
    run.pages.append(SourcePage(page, template, kind))


def _slug(doc: SourceDoc) -> str:
    """Front matter ``slug``, else the path's; Docusaurus reads a ``slug`` without a leading
    ``/`` from the page's folder (``tutorials/index.md`` with ``slug: index``)."""
    front = doc.front
    if front.slug is None:
        return doc.path_slug
    folder = posixpath.dirname(doc.base)
    if doc.dialect == "docusaurus" and not front.slug_from_root and folder:
        return f"{folder}/{front.slug}"
    return front.slug


def _order(doc: SourceDoc, nav: NavEntry | None) -> int | None:
    """Front matter ``order``, else Docusaurus ``sidebar_position`` (x100, to keep 1.5),
    else the page's position in the navigation (MkDocs ``nav``, Docusaurus sidebars)."""
    if doc.front.order is not None:
        return doc.front.order
    position = doc.front.sidebar_position
    if position is not None:
        return round(position * 100)
    return nav.position if nav is not None else None


def _title(doc: SourceDoc, nav: NavEntry | None) -> str:
    """A navigation label comes after front matter ``title``/``sidebar_label``, before
    the H1 and the file name; in MkDocs before everything (its page title is the nav's)."""
    if nav is None or not nav.label:
        return doc.title
    if doc.dialect == "mkdocs" or doc.title_source in ("h1", "file name"):
        return nav.label
    return doc.title


def _meta(doc: SourceDoc, nav: NavEntry | None) -> dict[str, object]:
    meta = dict(doc.front.meta)
    if doc.front.unlisted:
        meta["unlisted"] = True
    if nav is not None and nav.section and "category" not in meta:
        meta["category"] = nav.section
    return meta
