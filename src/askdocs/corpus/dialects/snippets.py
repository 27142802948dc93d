"""VitePress imports, resolved inside the docs root only (pure, over a read function).

* ``<<< @/snippets/file.js#region{1,2 ts} [Title]``: a code snippet becomes a fenced code
  block (language from the braces or the extension, the title in brackets, default the
  file name, as VitePress shows it in a code group); ``#region`` keeps the lines between
  ``#region name`` and ``#endregion`` markers;
* ``<!--@include: ./parts/basics.md{3,10}-->``: a Markdown file is inserted (a line range
  or ``#region``; nested includes are expanded, cycles cut).

``@`` is VitePress's source folder (the folder of ``.vitepress``): ``src_prefix`` is the
root's path inside it ("" when the root is that folder). A target outside the root is
never read: a snippet becomes a marked line, *Snippet from `FILE`*, and is listed in the
diagnostics; so is a missing one. Code fences are left alone (examples of the syntax).
"""

from __future__ import annotations

import posixpath
import re

from askdocs.corpus.dialects.includes import MAX_DEPTH, Included, Read

_SNIPPET = re.compile(r"^(?P<indent>[ \t]{0,3})<<<[ \t]+(?P<spec>\S.*?)[ \t]*$")
_INCLUDE = re.compile(r"^(?P<indent>[ \t]*)<!--\s*@include:\s*(?P<spec>.*?)\s*-->[ \t]*$")
_TITLE = re.compile(r"\s*\[(.+)\]$")
_BRACES = re.compile(r"\{([^{}]*)\}$")
_REGION = re.compile(r"#([\w.-]+)$")
_RANGE = re.compile(r"\{(\d*),(\d*)\}$")
_EXTENSION = re.compile(r"\.([A-Za-z0-9]+)$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_START = re.compile(r"^\s*(?://\s*#?|#\s*|<!--\s*#?|/\*\s*#)region\b\s*(.*?)\s*(?:-->|\*/)?\s*$")
_END = re.compile(r"^\s*(?://\s*#?|#\s*|<!--\s*#?|/\*\s*#)end ?region\b", re.IGNORECASE)


def has_imports(text: str) -> bool:
    return "<<<" in text or "@include:" in text


def expand_vitepress(text: str, rel: str, read: Read, src_prefix: str = "") -> Included:
    """``text`` of the file ``rel`` with its snippet imports and includes expanded."""
    result = Included(text)
    if has_imports(text):
        result.text = _expand(text, rel, read, src_prefix, result, (rel,), None)
    return result


def _expand(
    text: str,
    rel: str,
    read: Read,
    prefix: str,
    result: Included,
    chain: tuple[str, ...],
    at: int | None,
) -> str:
    out: list[str] = []
    fence: str | None = None
    for number, line in enumerate(text.split("\n")):
        fence = _fence_state(line, fence)
        origin = number if at is None else at
        if fence is None and (match := _SNIPPET.match(line)):
            out.append(_snippet(match, rel, read, prefix, result, origin))
        elif fence is None and (match := _INCLUDE.match(line)):
            out.append(_include(match, rel, read, prefix, result, chain, origin))
        else:
            out.append(line)
    return "\n".join(out)


def _fence_state(line: str, fence: str | None) -> str | None:
    match = _FENCE.match(line)
    if match is None:
        return fence
    marker = match.group(1)
    if fence is None:
        return marker
    closes = marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker) :]
    return None if closes else fence


def target_path(spec: str, rel: str, prefix: str) -> str:
    """Root-relative path of an import (``..`` first when it leaves the root)."""
    if spec.startswith("@"):
        inside = spec[2:] if spec[1:2] in ("/", "\\") else spec[1:]
        return posixpath.normpath(posixpath.relpath(posixpath.normpath(inside), prefix or "."))
    return posixpath.normpath(posixpath.join(posixpath.dirname(rel), spec))


def _outside(path: str) -> bool:
    return path in (".", "..") or path.startswith(("../", "/"))


def _snippet(
    match: re.Match[str], rel: str, read: Read, prefix: str, result: Included, line: int
) -> str:
    spec, title = match.group("spec"), ""
    found = _TITLE.search(spec)
    if found:
        title, spec = found.group(1), spec[: found.start()]
    lang, braces = "", _BRACES.search(spec)
    if braces:
        lang = _snippet_lang(braces.group(1))
        spec = spec[: braces.start()]
    region, spec = _split_region(spec.strip())
    name = spec.replace("\\", "/").rsplit("/", 1)[-1]
    indent = match.group("indent")
    path = target_path(spec, rel, prefix)
    body = None if _outside(path) else read(path)
    if body is not None and region:
        body = _region(body, region)
    if body is None:
        where = "outside the docs root" if _outside(path) else "not found"
        result.problems.append((line, f"snippet {spec!r} {where}"))
        return f"{indent}*Snippet from `{spec}`*"
    result.counts["snippet"] += 1
    extension = _EXTENSION.search(name)
    language = lang or (extension.group(1) if extension else "")
    return _fenced(body, f"{language} [{title or name}]".strip(), indent)


def _snippet_lang(meta: str) -> str:
    """``1,2,4-6 c#:line-numbers`` -> ``c#``: the word after the line numbers, if any."""
    for word in meta.split():
        if not re.fullmatch(r"[\d,\-]+", word):
            return word.split(":", 1)[0]
    return ""


def _split_region(spec: str) -> tuple[str, str]:
    found = _REGION.search(spec)
    if found is None:
        return "", spec
    return found.group(1), spec[: found.start()]


def _fenced(body: str, info: str, indent: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    lines = [f"{fence}{info}", *body.rstrip("\n").split("\n"), fence]
    return "\n".join(indent + piece if piece else piece for piece in lines)


def _region(text: str, name: str) -> str | None:
    """The lines between ``#region name`` and its ``#endregion``, markers excluded."""
    lines = text.split("\n")
    for start, line in enumerate(lines):
        opened = _START.match(line)
        if opened and opened.group(1).strip('"') == name:
            end = next((i for i in range(start + 1, len(lines)) if _END.match(lines[i])), None)
            if end is not None:
                return _dedent("\n".join(lines[start + 1 : end]))
    return None


def _dedent(text: str) -> str:
    lines = text.split("\n")
    widths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(widths, default=0)
    return "\n".join(line[cut:] for line in lines)


def _include(
    match: re.Match[str],
    rel: str,
    read: Read,
    prefix: str,
    result: Included,
    chain: tuple[str, ...],
    line: int,
) -> str:
    spec = match.group("spec")
    lines = _RANGE.search(spec)
    if lines:
        spec = spec[: lines.start()]
    region, spec = _split_region(spec)
    path = target_path(spec, rel, prefix)
    body = None if _outside(path) or path in chain or len(chain) > MAX_DEPTH else read(path)
    if body is not None and region:
        body = _region(body, region)
    if body is None:
        result.problems.append((line, f"include {spec!r} not resolved"))
        return ""
    if lines:
        body = _line_range(body, lines.group(1), lines.group(2))
    elif not region:
        body = _without_front_matter(body)
    result.counts["include"] += 1
    expanded = _expand(body, path, read, prefix, result, (*chain, path), line)
    return "\n".join(match.group("indent") + p if p else p for p in expanded.split("\n"))


def _without_front_matter(text: str) -> str:
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return text
    close = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    return text if close is None else "\n".join(lines[close + 1 :]).lstrip("\n")


def _line_range(text: str, start: str, end: str) -> str:
    lines = text.split("\n")
    first = max(int(start) - 1, 0) if start else 0
    last = int(end) if end else len(lines)
    return "\n".join(lines[first:last])
