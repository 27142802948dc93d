"""A site's docs roots: configuration checks, then a membership scan of each root.

The scan walks a root without following links (``os.scandir`` with ``lstat`` data) and
yields the Markdown files its include/exclude globs select, with the stat data the cache
keys on. Symbolic links (to files or folders) and special files such as FIFOs are
reported as errors, never opened. Excluded folders are skipped whole. An entry removed
between the listing and its ``lstat`` (an editor's temporary file) is not there.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from askdocs.corpus.dialects import Dialect
from askdocs.corpus.dialects.detect import Detection, detect_dialect
from askdocs.corpus.dialects.nav import NavEntry, load_nav
from askdocs.corpus.dialects.siteconfig import ToolOptions, tool_options
from askdocs.corpus.globs import GlobSet, compile_globs
from askdocs.corpus.pagekind import PageKind
from askdocs.corpus.safe_read import StatKey, file_kind
from askdocs.corpus.urls import URL_FIELDS, template_fields
from askdocs.errors import ConfigError, DocsRootMissing
from askdocs.settings import RootConfig, SiteConfig
from askdocs.types import Audience, PageError


@dataclass(frozen=True)
class Root:
    """A configured root that exists, resolved to its real path."""

    index: int
    path: Path
    audience: Audience
    include: GlobSet
    exclude: GlobSet
    url_template: str | None
    detection: Detection = field(default_factory=lambda: Detection("gfm", "default"))
    nav: dict[str, NavEntry] = field(default_factory=dict)
    page_kinds: tuple[tuple[GlobSet, PageKind], ...] = ()  # the root's ``page_kinds``
    tool: ToolOptions = field(default_factory=ToolOptions)  # from the tool's configuration

    @property
    def dialect(self) -> Dialect:
        return self.detection.dialect

    def configured_kind(self, rel: str) -> PageKind | None:
        """The kind the root's ``page_kinds`` gives ``rel`` (first matching glob), if any."""
        return next((kind for globs, kind in self.page_kinds if globs.matches(rel)), None)


@dataclass(frozen=True)
class Candidate:
    rel: str  # relative to the root, "/" separators
    key: StatKey


@dataclass(frozen=True)
class Scan:
    files: tuple[Candidate, ...]
    errors: tuple[PageError, ...]


def resolve_roots(site: SiteConfig) -> list[Root]:
    """Check the site's configuration; absent optional roots are left out."""
    for template in (site.user_url_template, site.developer_url_template):
        check_url_template(template)
    roots = []
    for index, config in enumerate(site.roots):
        root = _resolve_root(index, config, site.dialect)
        if root is not None:
            roots.append(root)
    return roots


def check_url_template(template: str) -> None:
    try:
        fields = template_fields(template)
    except ValueError as exc:
        raise ConfigError(f"URL template {template!r} is malformed: {exc}") from exc
    unknown = {name for name in fields if name not in URL_FIELDS}
    if unknown:
        allowed = ", ".join("{" + name + "}" for name in sorted(URL_FIELDS))
        raise ConfigError(f"URL template {template!r} may only use {allowed}")


def _resolve_root(index: int, config: RootConfig, dialect: Dialect | None) -> Root | None:
    if config.url_template is not None:
        check_url_template(config.url_template)
    include, exclude = compile_globs(config.include), compile_globs(config.exclude)
    path = config.path.expanduser()
    if not path.exists():
        if config.required:
            raise DocsRootMissing(f"docs root {path} does not exist")
        return None
    real = path.resolve(strict=True)
    if not real.is_dir():
        raise DocsRootMissing(f"docs root {path} is not a folder")
    detection = detect_dialect(real, config.dialect or dialect)
    nav = load_nav(real, detection.config)
    kinds = tuple((compile_globs([glob]), kind) for glob, kind in config.page_kinds.items())
    tool = tool_options(real, detection.config)
    return Root(
        index,
        real,
        config.audience,
        include,
        exclude,
        config.url_template,
        detection,
        nav,
        kinds,
        tool,
    )


def missing_root(site: SiteConfig) -> str | None:
    """Why a required root of ``site`` cannot be read now (missing, not a folder, not
    listable), or None: a few system calls, cheap enough for every search."""
    for config in site.roots:
        path = config.path.expanduser()
        if not config.required and not path.exists():
            continue
        if not path.is_dir():
            return (
                f"docs root {path} does not exist"
                if not path.exists()
                else (f"docs root {path} is not a folder")
            )
        if not os.access(path, os.R_OK | os.X_OK):
            return f"docs root {path} cannot be read"
    return None


def scan_root(root: Root) -> Scan:
    files: list[Candidate] = []
    errors: list[PageError] = []
    for item in _walk(root, ""):
        if isinstance(item, Candidate):
            files.append(item)
        else:
            errors.append(item)
    return Scan(tuple(files), tuple(errors))


def _walk(root: Root, prefix: str) -> Iterator[Candidate | PageError]:
    try:
        with os.scandir(root.path / prefix if prefix else root.path) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as exc:
        if not prefix:
            raise DocsRootMissing(f"docs root {root.path} cannot be read: {exc.strerror}") from exc
        yield PageError(prefix.rstrip("/"), f"folder cannot be read: {exc.strerror}")
        return
    for entry in entries:
        yield from _visit(root, prefix + entry.name, entry)


def _visit(root: Root, rel: str, entry: os.DirEntry[str]) -> Iterator[Candidate | PageError]:
    try:
        info = entry.stat(follow_symlinks=False)
    except FileNotFoundError:  # removed since the folder was listed (an editor's save)
        return
    if stat.S_ISDIR(info.st_mode):
        if not root.exclude.prunes(rel):
            yield from _walk(root, rel + "/")
        return
    if stat.S_ISLNK(info.st_mode):
        yield from _symlink(root, rel, entry)
        return
    if not _selected(root, rel):
        return
    if stat.S_ISREG(info.st_mode):
        yield Candidate(rel, StatKey.of(info))
    else:
        yield PageError(rel, f"not a regular file ({file_kind(info.st_mode)})")


def _symlink(root: Root, rel: str, entry: os.DirEntry[str]) -> Iterator[PageError]:
    if _selected(root, rel):
        yield PageError(rel, "symbolic link refused")
    elif _points_to_folder(entry) and not root.exclude.prunes(rel):
        yield PageError(rel, "symbolic link to a folder refused")


def _points_to_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=True)
    except OSError:
        return False


def _selected(root: Root, rel: str) -> bool:
    return root.include.matches(rel) and not root.exclude.matches(rel)
