"""Navigation from the tool's configuration: MkDocs ``nav`` and Docusaurus sidebars.

``load_nav`` reads it for one root (the edge: it opens the configuration file found by
``detect``) and returns, per root-relative Markdown path, its position in the navigation,
the label the navigation gives it and the section it sits in. The corpus uses these for a
page's title (after front matter ``title`` and ``sidebar_label``, before the H1), its order
when front matter gives none, and its reader category.

* MkDocs: ``nav`` entries ``- Label: path.md``, ``- path.md`` and sections
  ``- Section: [...]``, when ``docs_dir`` (default ``docs``) is the root;
* Docusaurus: ``sidebars.{js,ts}`` is code, never run: the doc ids it quotes, in order
  (``'guides/install'``), and the ``label`` of the category around them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from askdocs.corpus.markdown import slugify

_QUOTED = re.compile(r"""label\s*:\s*(['"])(?P<label>[^'"]+)\1|(['"])(?P<id>[\w./-]+)\3""")


@dataclass(frozen=True)
class NavEntry:
    position: int
    label: str | None
    section: str | None  # a category id (slugified section label)


class _Lenient(yaml.SafeLoader):
    """Safe loading that reads unknown tags (``!!python/name:``, ``!ENV``) as plain values."""


def _any_tag(loader: _Lenient, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_scalar(node)  # type: ignore[arg-type]


_Lenient.add_multi_constructor("", _any_tag)
_Lenient.add_multi_constructor("!", _any_tag)


def load_nav(root: Path, config: Path | None, max_bytes: int = 1024 * 1024) -> dict[str, NavEntry]:
    if config is None or not config.is_file() or config.stat().st_size > max_bytes:
        return {}
    try:
        text = config.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    if config.name.startswith("mkdocs."):
        return mkdocs_nav(text, config.parent, root)
    if config.name.startswith("sidebars."):
        return sidebar_nav(text, root)
    sidebars = next((p for p in config.parent.glob("sidebars.*") if p.is_file()), None)
    return load_nav(root, sidebars, max_bytes) if sidebars is not None else {}


def mkdocs_nav(text: str, folder: Path, root: Path) -> dict[str, NavEntry]:
    """Entries of an ``mkdocs.yml``'s ``nav`` whose ``docs_dir`` is ``root``."""
    try:
        config = yaml.load(text, Loader=_Lenient)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError:
        return {}
    if not isinstance(config, dict):
        return {}
    docs_dir = (folder / str(config.get("docs_dir", "docs"))).resolve()
    if docs_dir != root.resolve():
        return {}
    entries: dict[str, NavEntry] = {}
    _walk(config.get("nav"), None, entries)
    return entries


def _walk(items: object, section: str | None, entries: dict[str, NavEntry]) -> None:
    if not isinstance(items, list):
        return
    for item in items:
        if isinstance(item, str):
            _add(entries, item, None, section)
        elif isinstance(item, dict):
            for label, value in item.items():
                if isinstance(value, str):
                    _add(entries, value, str(label), section)
                else:
                    _walk(value, section or slugify(str(label)), entries)


def _add(entries: dict[str, NavEntry], path: str, label: str | None, section: str | None) -> None:
    if "://" in path or not path.endswith((".md", ".mdx")):
        return
    entries.setdefault(path.lstrip("./"), NavEntry(len(entries), label, section))


def sidebar_nav(text: str, root: Path) -> dict[str, NavEntry]:
    """Doc ids quoted in a sidebars file, in order, matched to the root's Markdown files
    (by path without extension); the nearest ``label`` before an id names its section."""
    files = {
        path.relative_to(root).with_suffix("").as_posix(): path.relative_to(root).as_posix()
        for path in sorted(root.rglob("*.md*"))
        if path.suffix in (".md", ".mdx") and path.is_file()
    }
    entries: dict[str, NavEntry] = {}
    section: str | None = None
    for match in _QUOTED.finditer(text):
        if match.group("label"):
            section = slugify(match.group("label"))
            continue
        rel = files.get(match.group("id") or "")
        if rel is not None and rel not in entries:
            entries[rel] = NavEntry(len(entries), None, section)
    return entries
