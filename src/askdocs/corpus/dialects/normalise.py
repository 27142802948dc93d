"""Core rules: every dialect construct becomes ``dialect_open``/``dialect_close`` tokens.

Runs after block parsing, before inline parsing. In order: mdit-py-plugins admonitions and
containers (``:::``, ``///``) are re-typed; GitHub alerts (``> [!NOTE]``) and MyST directive
fences (```` ```{note} ````) are recognised; fenced code blocks with ``tab="..."`` become
code tabs; HTML/MDX blocks become tab sets, details and components or plain text; MDX
``import``/``export`` lines are dropped; runs of sibling tabs are wrapped in a tab set.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from askdocs.corpus.dialects import html
from askdocs.corpus.dialects.tokens import ADMONITION_TYPES, Block, close_token, open_token

_ALERT = re.compile(r"^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*", re.IGNORECASE)
_COLON_INFO = re.compile(r"^\s*([\w-]+)?\s*(?:\[(.*)\])?\s*(.*?)\s*$")
_MYST = re.compile(r"^\{([A-Za-z][\w:-]*)\}\s*(.*)$")
_MYST_OPTION = re.compile(r"^:[\w-]+:")
_NAME_OPTION = re.compile(r"^:name:\s*(\S+)\s*$")
_TAB_ATTR = re.compile(r"""\s*\btab=(?:"([^"]*)"|'([^']*)')""")
_ATTR_INFO = re.compile(r"^\{\s*\.([\w+#-]+)[^}]*\}")
_MDX_LINE = re.compile(r"^(?:import|export)\s")
_RAW_BLOCK = re.compile(r"^\s*<(?:script|style)\b", re.IGNORECASE)
MYST_DROPPED = frozenset({"toctree", "contents", "include", "literalinclude", "tableofcontents"})
MYST_CODE = frozenset({"code-block", "code", "code-cell", "sourcecode"})
TABSETS = frozenset({"code-group", "tabs"})


def _retype(token: Token, block: Block) -> None:
    token.type, token.meta = "dialect_open", {"block": block}
    token.tag, token.attrs, token.info = "div", {}, ""


def _close(token: Token) -> None:
    token.type, token.tag, token.meta = "dialect_close", "div", {}


def _kind(name: str) -> str:
    if name == "details" or name == "dropdown":
        return "details"
    return "admonition" if name in ADMONITION_TYPES else "directive"


def admonitions(state: StateCore) -> None:
    """mdit-py-plugins ``admon`` (``!!!``, ``???``, ``???+``) -> dialect blocks."""
    tokens, kept = state.tokens, []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type == "admonition_open":
            markup = token.markup
            collapsible = "" if markup == "!!!" else ("open" if markup.endswith("+") else "closed")
            name = str(token.meta.get("tag", "")) or "note"
            title = html.visible_text(token.content)
            block = Block("admonition", name, title, collapsible, indented=True)
            _retype(token, block)
            if index + 1 < len(tokens) and tokens[index + 1].type == "admonition_title_open":
                index += 3  # the title travels in the block
        elif token.type == "admonition_close":
            _close(token)
        kept.append(token)
        index += 1
    state.tokens = kept


def containers(state: StateCore) -> None:
    """``:::name[Title]`` (Docusaurus), ``::: name Title`` (VitePress), ``/// name | Title``
    (pymdownx blocks) -> dialect blocks; a ``tab`` block is a tab."""
    for token in state.tokens:
        if token.type in ("container_colon_open", "container_slash_open"):
            slash = token.type == "container_slash_open"
            block = _slash_block(token.info) if slash else _colon_block(token.info)
            block.closer = token.map[1] if token.map else -1
            if block.kind == "tabset" and token.map:
                block.drop.append(token.map[0])  # its marker line has no title to show
            _retype(token, block)
            if not slash and token.map:
                options = _colon_options(state, token.map[0])
                block.drop += options
                block.anchor = _name_option([state.src.split("\n")[i] for i in options])
        elif token.type in ("container_colon_close", "container_slash_close"):
            _close(token)


def _colon_block(info: str) -> Block:
    directive = _MYST.match(info.strip())
    if directive is not None:  # MyST's colon fence, :::{note} Title
        return _myst_block(directive.group(1).lower(), directive.group(2).strip())
    match = _COLON_INFO.match(info)
    name = (match.group(1) or "").lower() if match else ""
    title = html.visible_text(((match.group(2) or match.group(3)) if match else info).strip())
    if name in TABSETS:  # VitePress code groups, vitepress-plugin-tabs
        return Block("tabset", name=name)
    kind = _kind(name)
    return Block(kind, name, title, "closed" if kind == "details" else "")


def _colon_options(state: StateCore, start: int) -> list[int]:
    """The ``:key: value`` option lines right after a colon-fenced MyST directive's marker
    (syntax only: listed to drop, and their text removed from the body)."""
    lines = state.src.split("\n")
    found: list[int] = []
    line = start + 1
    while line < len(lines) and _MYST_OPTION.match(lines[line]):
        found.append(line)
        line += 1
    if found:
        _strip_options(state.tokens, found)
    return found


def _name_option(lines: list[str]) -> str:
    """A MyST directive's ``:name: target`` option: a label links may name."""
    for line in lines:
        match = _NAME_OPTION.match(line)
        if match:
            return match.group(1)
    return ""


def _strip_options(tokens: list[Token], lines: list[int]) -> None:
    """Option lines out of the inline text of the paragraph that holds them."""
    for token in tokens:
        if token.type == "inline" and token.map and token.map[0] == lines[0]:
            kept = token.content.split("\n")[len(lines) :]
            token.content = "\n".join(kept)
            return


def _slash_block(info: str) -> Block:
    name, _, title = info.partition("|")
    name, title = name.strip().lower(), html.visible_text(title.strip())
    if name == "tab":
        return Block("tab", title=title)
    kind = _kind(name)
    return Block(kind, name, title, "closed" if kind == "details" else "")


def alerts(state: StateCore) -> None:
    """GitHub alerts: a blockquote whose first line is ``[!NOTE]`` is an admonition."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "blockquote_open" or index + 2 >= len(tokens):
            continue
        inline = tokens[index + 2]
        match = _ALERT.match(inline.content) if inline.type == "inline" else None
        if match is None:
            continue
        inline.content = inline.content[match.end() :].lstrip("\n")
        block = Block("admonition", match.group(1).lower())
        block.drop = []
        _retype(token, block)
        token.meta["alert_line"] = token.map[0] if token.map else -1
        close = _matching_close(tokens, index, "blockquote_close")
        if close is not None:
            _close(tokens[close])


def _matching_close(tokens: list[Token], start: int, close_type: str) -> int | None:
    level = tokens[start].level
    for index in range(start + 1, len(tokens)):
        if tokens[index].type == close_type and tokens[index].level == level:
            return index
    return None


def myst(state: StateCore) -> None:
    """MyST directive fences: admonitions, dropdowns, tab sets and tab items; code-block
    directives become code; toctree-like ones are dropped; others keep their body."""
    result: list[Token] = []
    for token in state.tokens:
        match = _MYST.match(token.info.strip()) if token.type == "fence" else None
        if match is None:
            result.append(token)
            continue
        result.extend(_directive(state, token, match.group(1).lower(), match.group(2).strip()))
    state.tokens = result


def _directive(state: StateCore, fence: Token, name: str, argument: str) -> list[Token]:
    start = fence.map[0] if fence.map else 0
    lines = fence.content.split("\n")
    options = 0
    while options < len(lines) and _MYST_OPTION.match(lines[options]):
        options += 1
    body = "\n".join(lines[options:])
    end = fence.map[1] if fence.map else start + len(lines) + 2
    if name in MYST_CODE:
        fence.info, fence.content = argument, body
        fence.meta["open_line"] = fence.markup + argument
        fence.meta["drop"] = [start + 1 + i for i in range(options)]
        label = _name_option(lines[:options])
        return [_anchor(label), fence] if label else [fence]
    block = _myst_block(name, argument)
    block.anchor = _name_option(lines[:options])
    block.closer = end - 1
    block.drop = [start + 1 + i for i in range(options)] if name not in MYST_DROPPED else []
    if block.kind == "tabset":
        block.drop.append(start)
    if name in MYST_DROPPED:
        block.kind, block.drop = "dropped", list(range(start + 1, end - 1))
        return [open_token(block, [start, end], fence.level), close_token(fence.level)]
    inner: list[Token] = []
    state.md.block.parse(body, state.md, state.env, inner)
    nested = StateCore(body, state.md, state.env, inner)
    run_rules(nested)
    for token in nested.tokens:
        _shift(token, start + 1 + options, fence.level + 1)
    opening = open_token(block, [start, end], fence.level)
    return [opening, *nested.tokens, close_token(fence.level)]


def _shift(token: Token, lines: int, levels: int) -> None:
    """A token of a directive's body, parsed alone, moved to where the body sits."""
    token.level += levels
    if token.map:
        token.map = [token.map[0] + lines, token.map[1] + lines]
    block = token.meta.get("block") if token.type == "dialect_open" else None
    if isinstance(block, Block):
        block.closer = block.closer + lines if block.closer >= 0 else -1
        block.drop = [line + lines for line in block.drop]
    if "drop" in token.meta:
        token.meta["drop"] = [line + lines for line in token.meta["drop"]]


def _myst_block(name: str, argument: str) -> Block:
    if name == "tab-set":
        return Block("tabset")
    if name == "tab-item":
        return Block("tab", title=argument)
    if name == "admonition":
        return Block("admonition", "note", argument)
    kind = _kind(name)
    return Block(kind, name, argument, "closed" if kind == "details" else "")


def code_tabs(state: StateCore) -> None:
    """Fenced code with ``tab="Label"`` (Traefik's MkDocs tabs): each becomes a tab whose
    label is inserted before its fence; the info string keeps only the language."""
    result: list[Token] = []
    for token in state.tokens:
        if token.type == "fence":
            attribute = _ATTR_INFO.match(token.info.strip())
            if attribute:
                token.info = attribute.group(1)
            match = _TAB_ATTR.search(token.info)
            if match:
                token.info = _TAB_ATTR.sub("", token.info).strip()
                label = match.group(1) if match.group(1) is not None else match.group(2)
                block = Block("tab", title=label, name="code")
                result.append(open_token(block, token.map, token.level))
                result.append(token)
                result.append(close_token(token.level))
                continue
        result.append(token)
    state.tokens = result


def html_blocks(state: StateCore) -> None:
    """HTML/MDX blocks: tabs, tab items, details and components become dialect blocks,
    ``<a id>`` an anchor, text stays text; no tag is passed through."""
    result: list[Token] = []
    stack: list[str] = []
    for token in state.tokens:
        if token.type == "html_block":
            result.extend(_html_tokens(token, stack))
        else:
            result.append(token)
    result.extend(close_token(0) for _ in stack)
    state.tokens = result


def _html_tokens(token: Token, stack: list[str]) -> list[Token]:
    if _RAW_BLOCK.match(token.content):
        return _dropped(token, "script")
    out: list[Token] = []
    text: list[str] = []
    summary: list[str] | None = None
    raw = ""
    for item in html.tags(token.content):
        if isinstance(item, str):
            if raw:
                continue
            (summary if summary is not None else text).append(item)
            continue
        name = item.name.lower()
        if raw:
            raw = "" if item.closing and name == raw else raw
            continue
        if name in html.RAW_TEXT and not item.closing and not item.self_closing:
            raw = name
            continue
        if name == "summary":
            if item.closing and summary is not None:
                _set_summary(out, "".join(summary))
                summary = None
            elif not item.closing:
                summary = []
            continue
        if name == "h1":
            _flush(out, text, token, h1=item.closing)
            continue
        opened = _structural(item, stack, token)
        if opened is not None:
            _flush(out, text, token)
            if html.anchor_id(item):
                out.append(_anchor(html.anchor_id(item)))
            out.append(opened)
        elif html.anchor_id(item):
            _flush(out, text, token)
            out.append(_anchor(html.anchor_id(item)))
        elif item.component and item.self_closing and item.prose:
            text.append(item.prose)
        elif name == "img" and item.attrs.get("alt"):
            text.append(item.attrs["alt"])
        elif name in ("p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr"):
            text.append("\n")
    _flush(out, text, token)
    return out


def _anchor(ident: str) -> Token:
    anchor = Token("html_anchor", "span", 0)
    anchor.attrs = {"id": ident}
    return anchor


def _dropped(token: Token, name: str) -> list[Token]:
    """A ``<script>``/``<style>`` block (VitePress ``<script setup>`` imports): syntax only."""
    block = Block("dropped", name=name)
    lines = token.map or [0, 0]
    block.drop = list(range(lines[0], lines[1]))
    return [open_token(block, token.map, token.level), close_token(token.level)]


def _structural(item: html.Tag, stack: list[str], source: Token) -> Token | None:
    """The dialect token for a tab set, tab, details or component tag, if it is one."""
    name = item.name
    if item.self_closing:
        return None
    if item.closing:
        if name in stack:
            while stack:
                if stack.pop() == name:
                    break
            return close_token(source.level)
        return None
    block: Block | None = None
    if html.is_tabs(item):
        block = Block("tabset", name=name)
    elif html.is_tab(item):
        block = Block("tab", name=item.attrs.get("value", ""), title=html.tab_label(item))
    elif name.lower() == "details":
        block = Block("details", "details", "", "open" if "open" in item.attrs else "closed")
    elif item.component:
        block = Block("component", name=name, title=item.prose)
    if block is None:
        return None
    stack.append(name)
    token = open_token(block, source.map, source.level)
    token.meta["html"] = True
    return token


def _set_summary(out: list[Token], summary: str) -> None:
    for token in reversed(out):
        block = token.meta.get("block") if token.type == "dialect_open" else None
        if isinstance(block, Block) and block.kind == "details":
            block.title = " ".join(summary.split())
            return


def _flush(out: list[Token], text: list[str], source: Token, *, h1: bool = False) -> None:
    content = "".join(text)
    text.clear()
    pieces = [content] if h1 else re.split(r"\n", content)
    for piece in pieces:
        cleaned = " ".join(piece.split())
        if cleaned:
            token = Token("html_text", "h2" if h1 else "p", 0)
            token.content, token.map, token.level = cleaned, source.map, source.level
            token.block, token.meta = True, {"h1": True} if h1 else {}
            out.append(token)


def mdx_lines(state: StateCore) -> None:
    """MDX ``import``/``export`` statements (paragraphs of them) are dropped."""
    tokens, result = state.tokens, []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if (
            token.type == "paragraph_open"
            and token.level == 0
            and index + 1 < len(tokens)
            and _all_mdx(tokens[index + 1].content)
        ):
            block = Block("dropped", name="mdx")
            lines = token.map or [0, 0]
            block.drop = list(range(lines[0], lines[1]))
            result.extend([open_token(block, token.map), close_token()])
            index += 3
            continue
        result.append(token)
        index += 1
    state.tokens = result


def _all_mdx(content: str) -> bool:
    lines = [line for line in content.split("\n") if line.strip()]
    return bool(lines) and _MDX_LINE.match(lines[0]) is not None


def group_tabs(state: StateCore) -> None:
    """A run of sibling tabs not already inside a tab set is wrapped in one (``===!``, a
    tab named "new", starts a further set)."""
    result: list[Token] = []
    parents: list[Block] = []
    run_depth: int | None = None
    family = ""
    for token in state.tokens:
        block = token.meta.get("block") if token.type == "dialect_open" else None
        is_tab = isinstance(block, Block) and block.kind == "tab"
        depth = len(parents)
        kind = "code" if isinstance(block, Block) and block.name == "code" else "content"
        continues = is_tab and isinstance(block, Block) and block.name != "new" and kind == family
        if run_depth is not None and depth == run_depth and not continues:
            result.append(close_token(token.level))
            run_depth = None
        if is_tab and run_depth is None and not (parents and parents[-1].kind == "tabset"):
            result.append(open_token(Block("tabset"), token.map, token.level))
            run_depth, family = depth, kind
        result.append(token)
        if isinstance(block, Block):
            parents.append(block)
        elif token.type == "dialect_close" and parents:
            parents.pop()
    if run_depth is not None:
        result.append(close_token(0))
    state.tokens = result


Rule = Callable[[StateCore], None]
BASE_RULES: tuple[Rule, ...] = (admonitions, containers, alerts, myst, code_tabs, html_blocks)
RULES_KEY = "askdocs_dialect_rules"


def run_rules(state: StateCore) -> None:
    """Every rule the parser was configured with (``RULES_KEY`` in its options), in order."""
    rules = state.md.options.get(RULES_KEY, (*BASE_RULES, group_tabs))
    for rule in rules:
        rule(state)


_ICON = re.compile(r":(?:material|fontawesome|octicons|simple)-[\w-]+:(?:\{[^}]*\})?")
_ATTR_LIST = re.compile(r"\s*\{:?\s*(?:[#.][\w-][^{}]*|[\w-]+=[^{}]*)\}\s*$")


def inline_text(state: StateCore) -> None:
    """After inline parsing: icon shortcodes (``:material-check:``) and a block's trailing
    attribute list (``{ .lead }``) leave the text."""
    for token in state.tokens:
        children = token.children if token.type == "inline" else None
        if not children:
            continue
        for child in children:
            if child.type == "text" and ":" in child.content:
                child.content = _ICON.sub("", child.content)
        last = children[-1]
        if last.type == "text":
            last.content = _ATTR_LIST.sub("", last.content)
