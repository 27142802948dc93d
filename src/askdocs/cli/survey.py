"""What ``askdocs init`` learns from a docs tree, and the commented TOML it writes for it.

``survey`` reads the folder (names, a tool configuration next to or above it); the rest is
pure. Root paths are written relative to the config file's folder when the tree lies below
it (the settings loader resolves them against the file), else absolute.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from askdocs.cli.engine import site_id_for
from askdocs.corpus.dialects.detect import detect_dialect
from askdocs.corpus.globs import compile_globs
from askdocs.settings import DEFAULT_EXCLUDE, DEFAULT_INCLUDE

# Subfolders whose pages are for developers rather than readers of the product docs.
DEVELOPER_FOLDERS = ("developer", "developers", "dev", "development", "contributing", "internal")
MAX_UP = 3
_SITE_URL = re.compile(r"^site_url:\s*['\"]?([^'\"\s#]+)", re.M)
_DOCUSAURUS_URL = re.compile(r"\burl:\s*['\"]([^'\"]+)['\"]")
_DOCUSAURUS_BASE = re.compile(r"\bbaseUrl:\s*['\"]([^'\"]+)['\"]")


@dataclass(frozen=True)
class SurveyRoot:
    path: str
    audience: str
    exclude: tuple[str, ...] = ()


@dataclass(frozen=True)
class Survey:
    folder: Path
    site_id: str
    name: str
    dialect: str
    dialect_reason: str
    roots: tuple[SurveyRoot, ...]
    pages: int
    address: str | None  # the published site, from the tool's configuration
    address_source: str | None


def survey(folder: Path, config_dir: Path, site_id: str | None = None) -> Survey:
    """Look at the docs tree ``folder`` for a config file to be written in ``config_dir``."""
    detection = detect_dialect(folder)
    developer = _developer_folder(folder)
    address, source = _published_address(folder)
    return Survey(
        folder=folder,
        site_id=site_id_for(folder, site_id),
        name=folder.name.replace("-", " ").replace("_", " ").strip().capitalize() or "Docs",
        dialect=detection.dialect,
        dialect_reason=detection.reason,
        roots=_roots(folder, config_dir, developer),
        pages=_count_pages(folder),
        address=address,
        address_source=source,
    )


def _developer_folder(folder: Path) -> str | None:
    for name in DEVELOPER_FOLDERS:
        candidate = folder / name
        if candidate.is_dir() and not candidate.is_symlink() and _count_pages(candidate):
            return name
    return None


def _roots(folder: Path, config_dir: Path, developer: str | None) -> tuple[SurveyRoot, ...]:
    if developer is None:
        return (SurveyRoot(_shown(folder, config_dir), "user"),)
    return (
        SurveyRoot(_shown(folder, config_dir), "user", (f"{developer}/**",)),
        SurveyRoot(_shown(folder / developer, config_dir), "developer"),
    )


def _shown(path: Path, config_dir: Path) -> str:
    """``path`` relative to the config file's folder when below it, else absolute."""
    try:
        relative = path.relative_to(config_dir.resolve())
    except ValueError:
        return str(path)
    return "." if relative == Path() else relative.as_posix()


def _count_pages(folder: Path) -> int:
    """Markdown files the default include/exclude globs select."""
    include, exclude = compile_globs(DEFAULT_INCLUDE), compile_globs(DEFAULT_EXCLUDE)
    count = 0
    for where, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
        rel = Path(where).relative_to(folder)
        for name in files:
            path = (rel / name).as_posix()
            count += include.matches(path) and not exclude.matches(path)
    return count


def _published_address(folder: Path) -> tuple[str | None, str | None]:
    """The published site's address from ``mkdocs.yml`` or ``docusaurus.config.*`` next to
    the folder or up to ``MAX_UP`` folders above it."""
    current = folder
    for _ in range(MAX_UP + 1):
        for name in ("mkdocs.yml", "mkdocs.yaml"):
            found = _read(current / name, _SITE_URL)
            if found:
                return found.rstrip("/"), str(current / name)
        for name in ("docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs"):
            text = _text(current / name)
            url = _DOCUSAURUS_URL.search(text)
            if url:
                base = _DOCUSAURUS_BASE.search(text)
                joined = url.group(1).rstrip("/") + (base.group(1) if base else "/")
                return joined.rstrip("/"), str(current / name)
        if current.parent == current:
            break
        current = current.parent
    return None, None


def _read(path: Path, pattern: re.Pattern[str]) -> str | None:
    match = pattern.search(_text(path))
    return match.group(1) if match else None


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[: 256 * 1024]
    except OSError:
        return ""


# -- the file ----------------------------------------------------------------------------


def render_config(found: Survey) -> str:
    """The commented ``askdocs.toml`` for ``found`` (loads with ``load_settings``)."""
    lines = [
        f"# askdocs configuration for {found.folder}, written by `askdocs init`.",
        "# Serve it:  askdocs serve --config askdocs.toml",
        "# Every key: docs/configuration.md; sites and roots: docs/user-guide/sites.md.",
        "# Paths are relative to this file's folder.",
        "",
        "[[sites]]",
        f"id = {_q(found.site_id)}  # in URLs, --site and the API's siteId",
        f"name = {_q(found.name)}",
        "public = true  # false: only signed-in members of its organisation see it",
        "ask_enabled = true  # Ask AI answers about this site",
        f"# Detected: {found.dialect}, {found.dialect_reason}. Set another to override.",
        f"dialect = {_q(found.dialect)}",
        '# hostnames = ["docs.example.com"]  # the Host names this site answers on',
        *_address_lines(found),
        '# default_locale = "en"',
    ]
    for root in found.roots:
        lines += ["", *_root_lines(root)]
    return "\n".join(lines) + "\n"


def _address_lines(found: Survey) -> list[str]:
    if found.address is None:
        return [
            '# default_address = "https://docs.example.com"  # where the docs are published',
            "# Citations link to askdocs's own reader by default:",
            '# user_url_template = "/docs/{slug}#{anchor}"',
        ]
    return [
        f"# From {found.address_source}:",
        f"default_address = {_q(found.address)}",
        "# Citations link to askdocs's own reader; to link the published pages instead:",
        f"# user_url_template = {_q(found.address + '/{slug}/#{anchor}')}",
    ]


def _root_lines(root: SurveyRoot) -> list[str]:
    what = "pages for developers" if root.audience == "developer" else "pages for readers"
    lines = [
        f"[[sites.roots]]  # {what}",
        f"path = {_q(root.path)}",
        f'audience = "{root.audience}"  # "user" or "developer"',
    ]
    if root.exclude:
        items = ", ".join(_q(pattern) for pattern in (*DEFAULT_EXCLUDE, *root.exclude))
        lines.append(f"# the defaults, plus {', '.join(root.exclude)} (the developer root)")
        lines.append(f"exclude = [{items}]")
    else:
        lines.append('# exclude = ["drafts/**"]  # globs relative to the root')
    return lines


def _q(text: str) -> str:
    """A TOML basic string (JSON's escapes are valid TOML ones)."""
    return json.dumps(text, ensure_ascii=False)
