"""What a docs tool's configuration says about parsing: heading ids, title suffixes, the
VitePress source folder. ``tool_options`` reads the file ``detect`` found (the edge);
the rest is pure over its text.

* MkDocs (``mkdocs.yml``): ``markdown_extensions: - toc: {slugify, separator}``, e.g.
  ``!!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}``,
  ``!!python/name:pymdownx.slugs.uslugify`` or ``markdown.extensions.toc.slugify_unicode``;
* VitePress (``.vitepress/config.*``): never run. When ``export default`` is an object
  literal (bare or in ``defineConfig(...)``), its top-level ``title`` and ``titleTemplate``
  string values are read; anything else (a variable, a template with ``${}``) is unknown.
  The folder holding ``.vitepress`` is what ``@/`` imports name.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from askdocs.corpus.dialects.jsx import js_string
from askdocs.corpus.dialects.slugs import Case, SlugStyle

MAX_CONFIG_BYTES = 1024 * 1024
_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)
_EXPORT = re.compile(r"export\s+default\s+(?:\w+\s*\(\s*)?\{")
_KEY = re.compile(r"""([A-Za-z_$][\w$]*|"[^"]*"|'[^']*')\s*:""")


@dataclass(frozen=True)
class ToolOptions:
    slugs: SlugStyle | None = None
    title_suffixes: tuple[str, ...] = ()
    src_prefix: str = ""  # the root's path inside VitePress's source folder


def tool_options(root: Path, config: Path | None) -> ToolOptions:
    """The options of ``config`` (the tool configuration of ``root``), if it can be read."""
    text = _read(config)
    if config is None or text is None:
        return ToolOptions()
    if config.name.startswith("mkdocs."):
        return ToolOptions(slugs=mkdocs_slugs(text))
    if config.parent.name == ".vitepress":
        return ToolOptions(
            title_suffixes=vitepress_suffixes(text), src_prefix=_prefix(root, config.parent.parent)
        )
    return ToolOptions()


def _read(config: Path | None) -> str | None:
    try:
        if config is None or config.stat().st_size > MAX_CONFIG_BYTES:
            return None
        return config.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _prefix(root: Path, source: Path) -> str:
    try:
        relative = root.resolve().relative_to(source.resolve()).as_posix()
    except ValueError:
        return ""
    return "" if relative == "." else posixpath.normpath(relative)


def mkdocs_slugs(text: str) -> SlugStyle | None:
    """The ``toc`` extension's ``slugify``/``separator`` of an ``mkdocs.yml``, if set."""
    toc = _toc_node(text)
    if toc is None:
        return None
    values = {str(k.value): v for k, v in toc.value if isinstance(k, yaml.ScalarNode)}
    separator = values.get("separator")
    sep = str(separator.value) if isinstance(separator, yaml.ScalarNode) else "-"
    slugify = values.get("slugify")
    if slugify is None:
        return SlugStyle("python-markdown", separator=sep) if separator is not None else None
    return _slugify_style(slugify, sep)


def _toc_node(text: str) -> yaml.MappingNode | None:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    for key, value in root.value:
        if getattr(key, "value", None) == "markdown_extensions":
            return _find_toc(value)
    return None


def _find_toc(node: yaml.Node) -> yaml.MappingNode | None:
    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    for item in items:
        if isinstance(item, yaml.MappingNode):
            for key, value in item.value:
                if getattr(key, "value", None) == "toc" and isinstance(value, yaml.MappingNode):
                    return value
    return None


def _slugify_style(node: yaml.Node, separator: str) -> SlugStyle:
    name = node.tag.rsplit(":", 1)[-1] if node.tag.startswith("tag:yaml.org,2002:python/") else ""
    if name.endswith("slugify_unicode"):
        return SlugStyle("python-markdown", separator=separator, unicode=True)
    if name.endswith("uslugify_cased"):
        return SlugStyle("pymdownx", separator=separator, case="none")
    if name.endswith(("uslugify", "uslugify_encoded", ".gfm")):
        return SlugStyle("pymdownx", separator=separator, case="lower")
    if "pymdownx" in name:
        return SlugStyle("pymdownx", separator=separator, case=_case(node))
    return SlugStyle("python-markdown", separator=separator)


def _case(node: yaml.Node) -> Case:
    """``kwds: {case: lower}`` of a ``pymdownx.slugs.slugify`` application (default none)."""
    text = yaml.serialize(node, Dumper=yaml.SafeDumper) if isinstance(node, yaml.Node) else ""
    match = re.search(r"case:\s*['\"]?(lower|fold|none)", text)
    value = match.group(1) if match else "none"
    return "lower" if value == "lower" else "fold" if value == "fold" else "none"


def vitepress_suffixes(text: str) -> tuple[str, ...]:
    """The site ``title`` and a suffix-only ``titleTemplate``, when they are literals."""
    values = top_level_strings(text, ("title", "titleTemplate"))
    template = values.get("titleTemplate", "")
    suffixes = [values.get("title", "")]
    if template and ":title" not in template:
        suffixes.append(template)
    elif template.startswith(":title"):
        suffixes.append(template.removeprefix(":title").strip(" |-"))
    return tuple(suffix for suffix in suffixes if suffix)


def top_level_strings(text: str, keys: tuple[str, ...]) -> dict[str, str]:
    """String values of ``keys`` at the top level of the exported object literal."""
    source = _COMMENTS.sub("", text)
    start = _EXPORT.search(source)
    if start is None:
        return {}
    found: dict[str, str] = {}
    depth, index = 1, start.end()
    while index < len(source) and depth > 0:
        char = source[index]
        if char in "\"'`":
            index = _string_end(source, index)
            continue
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
        elif depth == 1 and _starts_word(source, index) and (match := _KEY.match(source, index)):
            key = match.group(1).strip("\"'")
            value = _literal(source, match.end())
            if key in keys and value is not None:
                found.setdefault(key, value)
            index = match.end()
            continue
        index += 1
    return found


def _starts_word(source: str, index: int) -> bool:
    return index == 0 or not (source[index - 1].isalnum() or source[index - 1] in "_$")


def _string_end(source: str, index: int) -> int:
    quote, position = source[index], index + 1
    while position < len(source) and source[position] != quote:
        position += 2 if source[position] == "\\" else 1
    return position + 1


def _literal(source: str, index: int) -> str | None:
    while index < len(source) and source[index].isspace():
        index += 1
    if index >= len(source) or source[index] not in "\"'`":
        return None
    end = _string_end(source, index)
    after = source[end:].lstrip()[:1]
    return js_string(source[index:end]) if after in (",", "}", "") else None
