"""MDX/JSX component tags (and HTML tags over several lines) made plain one-line HTML tags
before parsing, line for line (pure).

MDX lets a component's props be JavaScript expressions and span lines:

    <FaqItem
      question={"Why does \"x > y\" fail?"}
      open={true}>

CommonMark's HTML rules see neither as a tag (an expression is no attribute value, an
open tag must end on its line), so the tag was read as text and shown raw. ``jsx_tags``
rewrites each component tag (a name starting with a capital) outside code into one line
of HTML: a string expression (``{"..."}``, ``{'...'}``, a template literal without
``${}``) becomes a quoted value, any other expression is dropped, and the lines the tag
spanned become blank lines after it, so every later line keeps its number.
"""

from __future__ import annotations

import html
import re

_START = re.compile(r"<(/?)([A-Za-z][\w.:-]*)")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_STRING = re.compile(r"^\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|`([^`$]*)`)\s*$", re.S)
_ESCAPE = re.compile(r"\\(.)", re.S)
_NAME = re.compile(r"[\w:.-]+")
MAX_TAG_LINES = 40


def normalise_tags(text: str) -> str:
    lines = text.split("\n")
    out: list[str] = []
    fence: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _fence(line, fence)
        if fence is not None or "<" not in line or line.startswith(("    ", "\t")):
            out.append(line)
            index += 1
            continue
        joined, used = _rewrite(lines, index)
        out.append(joined)
        out.extend([""] * (used - 1))
        index += used
    return "\n".join(out)


def _fence(line: str, fence: str | None) -> str | None:
    match = _FENCE.match(line)
    if match is None:
        return fence
    marker = match.group(1)
    if fence is None:
        return marker
    closes = (
        marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip(marker[0]).strip()
    )
    return None if closes else fence


def _rewrite(lines: list[str], start: int) -> tuple[str, int]:
    """The line at ``start`` with its tags rewritten, and how many source lines it used
    (more than one when a tag's attributes ran onto the next lines). A component tag is
    always rewritten; an HTML tag only when it spans lines or holds a ``{}`` expression;
    a tag that never closes leaves the line as it was."""
    text, used = lines[start], 1
    out: list[str] = []
    position = 0
    while (match := _START.search(text, position)) is not None:
        if _in_code_span(text, match.start()):
            out.append(text[position : match.end()])
            position = match.end()
            continue
        end, joined, extra = _closed(lines, start + used, used, text, match)
        if end is None:
            return lines[start] if used == 1 else "".join(out) + text[position:], used
        text, used = joined, used + extra
        out.append(text[position : match.start()])
        out.append(_rewritten(match, text[match.end() : end], text, extra > 0 or used > 1))
        position = end + 1
    out.append(text[position:])
    return "".join(out), used


def _closed(
    lines: list[str], index: int, used: int, text: str, match: re.Match[str]
) -> tuple[int | None, str, int]:
    """Where the tag ``match`` opens ends (its ``>``), the text joined to get there, and
    how many further lines it took."""
    end = _tag_end(text, match.end())
    opens_line = not text[: match.start()].strip()
    extra = 0
    while end is None and opens_line and _continues(lines, index + extra, used + extra):
        text += " " + lines[index + extra].strip()
        extra += 1
        end = _tag_end(text, match.end())
    return end, text, extra


def _rewritten(match: re.Match[str], attributes: str, text: str, spans_lines: bool) -> str:
    closing, name = match.group(1), match.group(2)
    if name[:1].isupper() or spans_lines or "{" in attributes:
        return _tag(closing, name, attributes)
    return text[match.start() : match.end() + len(attributes) + 1]


def _continues(lines: list[str], index: int, used: int) -> bool:
    """A tag that opens its line may go on over the following non-blank lines."""
    return used < MAX_TAG_LINES and index < len(lines) and bool(lines[index].strip())


def _in_code_span(text: str, position: int) -> bool:
    return text.count("`", 0, position) % 2 == 1


def _tag_end(text: str, position: int) -> int | None:
    """Index of the ``>`` closing the tag whose attributes start at ``position``: quotes
    and ``{}`` expressions are skipped; None when the line ends first."""
    depth, quote = 0, ""
    index = position
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif char == ">" and depth == 0:
            return index
        elif char == "<" and depth == 0:
            return None
        index += 1
    return None


def _tag(closing: str, name: str, attributes: str) -> str:
    body = attributes.rstrip()
    self_closing = body.endswith("/")
    if self_closing:
        body = body[:-1]
    if closing:
        return f"</{name}>"
    attrs = "".join(f' {key}="{html.escape(value)}"' for key, value in _attributes(body))
    return f"<{name}{attrs}{' /' if self_closing else ''}>"


def _attributes(source: str) -> list[tuple[str, str]]:
    """``key="v"``, ``key='v'``, ``key={expr}`` and bare ``key``, in order; an expression
    that is not a string literal is dropped (``{...spread}`` too)."""
    found: list[tuple[str, str]] = []
    index = 0
    while index < len(source):
        if source[index].isspace():
            index += 1
            continue
        name = _NAME.match(source, index)
        if name is None:
            index = _skip_value(source, index)
            continue
        index = name.end()
        value, index = _value(source, index)
        if value is not None:
            found.append((name.group(0), value))
    return found


def _value(source: str, index: int) -> tuple[str | None, int]:
    rest = source[index:]
    stripped = rest.lstrip()
    if not stripped.startswith("="):
        return "", index
    start = index + len(rest) - len(stripped) + 1
    while start < len(source) and source[start].isspace():
        start += 1
    end = _skip_value(source, start)
    raw = source[start:end]
    if raw[:1] in "\"'":
        return html.unescape(raw[1:-1]), end
    if raw.startswith("{"):
        return js_string(raw[1:-1]), end
    return raw, end


def _skip_value(source: str, index: int) -> int:
    """The index just after the value (quoted, braced or bare) starting at ``index``."""
    if index >= len(source):
        return index
    opener = source[index]
    if opener in "\"'":
        end = source.find(opener, index + 1)
        return len(source) if end < 0 else end + 1
    if opener == "{":
        braced = _brace_end(source, index)
        return braced if braced is not None else len(source)
    end = index
    while end < len(source) and not source[end].isspace():
        end += 1
    return max(end, index + 1)


def _brace_end(source: str, index: int) -> int | None:
    depth, quote = 0, ""
    position = index
    while position < len(source):
        char = source[position]
        if quote:
            if char == "\\":
                position += 1
            elif char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return position + 1
        position += 1
    return None


def js_string(expression: str) -> str | None:
    """The value of a JavaScript string literal expression, else None."""
    match = _STRING.match(expression)
    if match is None:
        return None
    value = next(group for group in match.groups() if group is not None)
    return _unescape(value)


def _unescape(value: str) -> str:
    return _ESCAPE.sub(lambda m: {"n": " ", "t": " "}.get(m.group(1), m.group(1)), value)
