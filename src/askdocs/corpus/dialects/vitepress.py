"""VitePress constructs: code groups, the tabs plugin and fence info (pure).

* ``::: code-group`` holds fences whose info carries a label, ```` ```sh [npm] ````: the
  container is a tab set and each fence a code tab labelled ``npm`` (``code_groups``);
* vitepress-plugin-tabs: ``:::: tabs`` holds ``== Label`` lines, each starting a tab that
  runs to the next one (``tabs_plugin``, a block rule active inside a container); an outer
  set of nested ones marks its tabs ``=== Label``;
* a fence's info keeps only its language: line highlights (``ts{2,4}``), ``:line-numbers``
  and a ``[title]`` are display options (``fence_info``).

Each becomes ``dialect_open``/``dialect_close`` tokens (see ``tokens``).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from askdocs.corpus.dialects.blocks import push_body, source_line
from askdocs.corpus.dialects.tokens import Block, close_token, open_token

_LABEL = re.compile(r"\[([^\]]*)\]\s*$")
_LANG = re.compile(r"^[\w+#.-]*")
_TAB = re.compile(r"^(={2,})[ \t]+(\S.*?)[ \t]*$")  # nested sets: ``===`` outside ``==``
TABSETS = frozenset({"code-group", "tabs"})


def fence_info(info: str) -> tuple[str, str]:
    """``ts:line-numbers {1,2} [vite.config.ts]`` -> ``("ts", "vite.config.ts")``."""
    label = _LABEL.search(info)
    title = label.group(1).strip() if label else ""
    language = _LANG.match(info.strip())
    return (language.group(0) if language else ""), title


def fences(state: StateCore) -> None:
    """Every fence's info becomes its language; the source line keeps it for the index."""
    for token in state.tokens:
        if token.type != "fence" or not token.info.strip():
            continue
        language, title = fence_info(token.info)
        if language != token.info.strip():
            token.meta["title"] = title
            token.meta["open_line"] = token.markup + language
            token.info = language


def code_groups(state: StateCore) -> None:
    """The fences directly inside a code group become its labelled tabs."""
    result: list[Token] = []
    groups: list[int] = []  # levels of the open code groups
    for token in state.tokens:
        block = token.meta.get("block") if token.type == "dialect_open" else None
        if isinstance(block, Block) and block.kind == "tabset" and block.name == "code-group":
            groups.append(token.level)
        elif token.type == "dialect_close" and groups and token.level == groups[-1]:
            groups.pop()
        if token.type == "fence" and groups and token.level == groups[-1] + 1:
            label = str(token.meta.get("title") or "") or token.info or "Code"
            result.append(
                open_token(Block("tab", name="code", title=label), token.map, token.level)
            )
            result.append(token)
            result.append(close_token(token.level))
            continue
        result.append(token)
    state.tokens = result


def _tab(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    if state.parentType != "container" or state.sCount[start] - state.blkIndent >= 4:
        return False
    match = _TAB.match(source_line(state, start))
    if match is None:
        return False
    if silent:
        return True
    stop = start + 1
    while stop < end and not _is_tab_line(state, stop, state.sCount[start], match.group(1)):
        stop += 1
    push_body(state, Block("tab", title=match.group(2)), start, stop, state.blkIndent)
    return True


def _is_tab_line(state: StateBlock, line: int, indent: int, marker: str) -> bool:
    found = _TAB.match(source_line(state, line)) if state.sCount[line] == indent else None
    return found is not None and found.group(1) == marker


def tabs_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before(
        "fence", "vitepress_tab", _tab, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )


_SUFFIX = re.compile(r"\s+\|\s+([^|]+)$")
MAX_SECTION_WORDS = 3


def page_title(title: str, suffixes: tuple[str, ...]) -> str:
    """A front matter ``title`` without its title-template suffix, as VitePress shows the
    page: ``Coverage | Guide`` -> ``Coverage``. A trailing `` | X`` goes when ``X`` is the
    site's title or template (``suffixes``, read from the configuration) or a short
    section name (at most three words: the documented heuristic for templates written by
    hand or configured in code we do not run)."""
    match = _SUFFIX.search(title)
    while match is not None:
        suffix = match.group(1).strip()
        if suffix not in suffixes and len(suffix.split()) > MAX_SECTION_WORDS:
            break
        title = title[: match.start()].rstrip()
        match = _SUFFIX.search(title)
    return title


def home_markdown(meta: dict[str, object]) -> str:
    """A ``layout: home`` page's hero and features as Markdown: the hero's text and
    tagline, its actions as links, one line per feature (title and details)."""
    hero = meta.get("hero")
    lines: list[str] = []
    if isinstance(hero, dict):
        lines += [f"**{_text(hero.get('text'))}**", _text(hero.get("tagline"))]
        lines += [_action(action) for action in _items(hero.get("actions"))]
    for feature in _items(meta.get("features")):
        title, details = _text(feature.get("title")), _text(feature.get("details"))
        lines.append(f"- **{title}**: {details}" if details else f"- **{title}**")
    kept = [line for line in lines if line.strip("*- :")]
    return "\n\n".join(kept)


def hero_name(meta: dict[str, object]) -> str | None:
    hero = meta.get("hero")
    name = _text(hero.get("name")) if isinstance(hero, dict) else ""
    return name or None


def _items(value: object) -> list[dict[str, object]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _text(value: object) -> str:
    return " ".join(str(value).split()) if isinstance(value, str | int | float) else ""


def _action(action: dict[str, object]) -> str:
    text, link = _text(action.get("text")), _text(action.get("link"))
    return f"- [{text}]({link})" if text and link else ""
