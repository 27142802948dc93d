"""(query, positive section) pairs from a docs tree's own structure (pure).

The input is what askdocs indexes: each page and its chunks (``askdocs.ingest.read_site``),
so a positive is a chunk exactly as the index embeds it. A section's positive is its first
chunk. Four sources, each a ``Pair.kind``:

* ``question``: a heading written as a question ("How do I …", "Why …?", FAQ entries)
  with its section.
* ``heading``: any other specific heading with its section. Headings that name an action
  ("Configure the sidebar", "Configuring timeouts") are asked as "how do I configure …";
  generic headings ("Example", "Usage") are skipped.
* ``description``: a page's front-matter ``description`` with the page's first chunk.
* ``link``: the sentence around a link to another section (or page: its introduction) of
  the tree with the section it points to (the link's own text when the sentence is only
  the link, and when it is not just the target's heading); the section holding the link is
  ``Pair.source``.

Changelog pages give no pairs. A query seen twice in a tree with different answers is
dropped (it is ambiguous), and a repeated pair is kept once.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from askdocs.corpus.markdown import slugify
from askdocs.types import Chunk, Heading, Page

KINDS = ("question", "heading", "description", "link")
MIN_WORDS = 3
MAX_WORDS = 40
SPLIT_LEVEL = 3  # askdocs's default corpus.split_level: sections are cut at h1-h3

_QUESTION = re.compile(
    r"^(how|why|what|when|where|which|who|can|could|should|do|does|did|is|are|will|would|"
    r"may|must|shall)\b",
    re.IGNORECASE,
)
GENERIC = frozenset(
    {
        "example",
        "examples",
        "usage",
        "overview",
        "introduction",
        "intro",
        "installation",
        "install",
        "options",
        "configuration",
        "config",
        "parameters",
        "params",
        "arguments",
        "args",
        "returns",
        "return",
        "notes",
        "note",
        "see",
        "also",
        "summary",
        "description",
        "syntax",
        "reference",
        "api",
        "details",
        "prerequisites",
        "requirements",
        "next",
        "steps",
        "conclusion",
        "setup",
        "default",
        "defaults",
        "props",
        "type",
        "types",
        "related",
        "resources",
        "links",
        "license",
        "contributing",
        "changelog",
        "faq",
        "troubleshooting",
        "limitations",
        "demo",
        "tip",
        "warning",
        "caveats",
        "methods",
        "properties",
        "events",
        "slots",
        "attributes",
        "fields",
        "values",
        "value",
        "output",
        "input",
        "result",
        "results",
        "background",
        "motivation",
        "why",
        "features",
        "getting",
        "started",
        "quickstart",
        "quick",
        "start",
        "basics",
        "basic",
        "advanced",
        "other",
        "misc",
        "miscellaneous",
        "more",
        "todo",
        "table",
        "contents",
        "index",
        "what's",
        "new",
        "whats",
    }
)
# Verbs a task heading starts with ("Add a header", "Configuring TLS" -> "how do I ...").
VERBS = frozenset(
    {
        "access",
        "add",
        "allow",
        "avoid",
        "build",
        "call",
        "cancel",
        "change",
        "check",
        "choose",
        "clean",
        "combine",
        "compile",
        "configure",
        "connect",
        "convert",
        "create",
        "customize",
        "customise",
        "debug",
        "declare",
        "define",
        "delete",
        "deploy",
        "disable",
        "display",
        "enable",
        "export",
        "extend",
        "fetch",
        "filter",
        "generate",
        "get",
        "handle",
        "hide",
        "ignore",
        "import",
        "install",
        "integrate",
        "keep",
        "limit",
        "list",
        "load",
        "log",
        "manage",
        "map",
        "migrate",
        "mock",
        "monitor",
        "move",
        "name",
        "override",
        "pass",
        "pin",
        "publish",
        "read",
        "receive",
        "register",
        "reload",
        "remove",
        "rename",
        "render",
        "replace",
        "report",
        "request",
        "reset",
        "restart",
        "restrict",
        "return",
        "reuse",
        "rotate",
        "run",
        "scale",
        "secure",
        "send",
        "serve",
        "set",
        "share",
        "show",
        "sign",
        "skip",
        "specify",
        "split",
        "start",
        "stop",
        "store",
        "stream",
        "switch",
        "sync",
        "test",
        "track",
        "transform",
        "trigger",
        "troubleshoot",
        "update",
        "upgrade",
        "upload",
        "use",
        "validate",
        "verify",
        "watch",
        "write",
    }
)
_LINK = re.compile(r"(?<!!)\[([^\]\n]{1,200})\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'][^\"']*[\"'])?\s*\)")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_TAG = re.compile(r"<[^>\n]{1,200}>")
_FENCE = re.compile(r"(`{3,}|~{3,})\S*")
_MARKUP = re.compile(r"(\*\*|__|~~|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w))")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)]|>|#+)\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\[*_\"(])")
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
_PAGE_SUFFIX = re.compile(r"\.(md|mdx|html?)$", re.IGNORECASE)


@dataclass(frozen=True)
class Pair:
    """A query and the chunk (id) that answers it; ``source``: the chunk it was read from."""

    tree: str
    kind: str
    query: str
    positive: str
    source: str = ""


def words(text: str) -> list[str]:
    return text.split()


def is_question(heading: str) -> bool:
    """A heading written as a question."""
    text = heading.strip()
    return len(words(text)) >= MIN_WORDS and (text.endswith("?") or bool(_QUESTION.match(text)))


def is_generic(heading: str) -> bool:
    """A heading that says nothing on its own ("Example", "Next steps", "Options")."""
    bare = re.sub(r"[^\w\s']", " ", heading.lower()).split()
    return not bare or all(word in GENERIC or word.isdigit() for word in bare)


def task_question(heading: str) -> str | None:
    """``"Configuring TLS"`` -> ``"how do I configure TLS"``; None when the heading does not
    start with a task verb."""
    first, _, rest = heading.strip().partition(" ")
    verb = base_verb(first.lower())
    if verb is None or not rest:
        return None
    return f"how do I {verb} {rest}"


def base_verb(word: str) -> str | None:
    """The verb of ``word`` (itself, or the base of its -ing / -s form) if it is a task verb."""
    candidates = [word]
    if word.endswith("ing"):
        stem = word[:-3]
        candidates += [
            stem,
            stem + "e",
            stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else "",
        ]
    elif word.endswith("s"):
        candidates += [word[:-1], word[:-2] if word.endswith("es") else ""]
    return next((c for c in candidates if c in VERBS), None)


def heading_query(heading: str) -> tuple[str, str] | None:
    """(kind, query) for a section's heading, or None when it makes no query."""
    text = heading.strip()
    if is_question(text):
        return "question", text
    if is_generic(text) or len(words(text)) < 2:
        return None
    return "heading", task_question(text) or text


def clean_sentence(text: str) -> str:
    """Markdown to the plain words of a query: links to their text, no images, tags,
    emphasis or list markers, one line."""
    text = _IMAGE.sub("", text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _TAG.sub("", text)
    text = _FENCE.sub("", text)
    text = _MARKUP.sub("", text)
    text = " ".join(_LIST_MARK.sub("", line) for line in text.splitlines())
    return " ".join(text.split()).strip(" :;-")


def link_sentences(text: str) -> Iterator[tuple[str, str, str]]:
    """(href, link text, the sentence around it) for each inline link of ``text``."""
    for paragraph in re.split(r"\n\s*\n", text):
        if paragraph.lstrip().startswith(("```", "~~~", "    ")):
            continue
        for sentence in _SENTENCE_END.split(paragraph):
            for match in _LINK.finditer(sentence):
                yield match.group(2), clean_sentence(match.group(1)), clean_sentence(sentence)


class PageIndex:
    """Finds the page a relative or root-absolute link points to, and a section in it."""

    def __init__(self, pages: Iterable[Page]) -> None:
        self._pages: dict[str, Page] = {}
        for page in pages:
            for key in page_keys(page.path):
                self._pages.setdefault(key, page)

    def page(self, href_path: str, from_path: str) -> Page | None:
        if not href_path:
            return self._pages.get(page_keys(from_path)[0])
        if href_path.startswith("/"):
            parts = href_path.strip("/").split("/")
            tries = ["/".join(parts[n:]) for n in range(len(parts))]
        else:
            tries = [posixpath.normpath(posixpath.join(posixpath.dirname(from_path), href_path))]
        for candidate in tries:
            found = self._pages.get(normal_key(candidate))
            if found is not None:
                return found
        return None


def page_keys(path: str) -> list[str]:
    """Lookup keys of a page path: without its suffix, and its folder for an index page."""
    key = normal_key(path)
    keys = [key]
    folder, _, stem = key.rpartition("/")
    if stem in ("index", "readme", "_index"):
        keys.append(folder)
    return keys


def normal_key(path: str) -> str:
    path = _PAGE_SUFFIX.sub("", path.strip("/")).lower()
    return "" if path == "." else path


def section_of(page: Page, anchor: str) -> Heading | None:
    """The level 1-3 heading whose section holds the heading ``anchor`` names."""
    wanted = {anchor, slugify(anchor)}
    current: Heading | None = None
    for heading in page.headings:
        if heading.level <= SPLIT_LEVEL:
            current = heading
        if heading.section_id in wanted:
            return current
    return None


def first_chunks(chunks: Sequence[Chunk]) -> dict[str, Chunk]:
    """Each section's first chunk, by section id (the lead section's id is "")."""
    out: dict[str, Chunk] = {}
    for chunk in chunks:
        out.setdefault(chunk.section_id, chunk)
    return out


@dataclass(frozen=True)
class TreePages:
    """A tree as indexed: its pages and each page's chunks (guides only)."""

    name: str
    pages: tuple[tuple[Page, tuple[Chunk, ...]], ...]


def mine(tree: TreePages) -> list[Pair]:
    """Every pair of the tree, ambiguous queries dropped, duplicates once."""
    guides = [(page, chunks) for page, chunks in tree.pages if chunks and _guide(chunks)]
    index = PageIndex(page for page, _ in guides)
    firsts = {page.path: first_chunks(chunks) for page, chunks in guides}
    pairs: list[Pair] = []
    for page, chunks in guides:
        pairs += section_pairs(tree.name, chunks)
        pairs += description_pairs(tree.name, page, chunks)
        pairs += link_pairs(tree.name, page, chunks, index, firsts)
    return unambiguous(pairs)


def _guide(chunks: Sequence[Chunk]) -> bool:
    return chunks[0].kind == "guide"


def section_pairs(tree: str, chunks: Sequence[Chunk]) -> list[Pair]:
    out = []
    for chunk in first_chunks(chunks).values():
        if not chunk.section_id:
            continue  # the lead: its "heading" is the page title
        made = heading_query(chunk.heading)
        if made is not None:
            out.append(Pair(tree, made[0], made[1], chunk.id))
    return out


def description_pairs(tree: str, page: Page, chunks: Sequence[Chunk]) -> list[Pair]:
    description = clean_sentence(page.description or "")
    if len(words(description)) < MIN_WORDS or description.lower() == page.title.lower():
        return []
    return [Pair(tree, "description", _clip(description), chunks[0].id)]


def link_pairs(
    tree: str,
    page: Page,
    chunks: Sequence[Chunk],
    index: PageIndex,
    firsts: dict[str, dict[str, Chunk]],
) -> list[Pair]:
    out = []
    for chunk in chunks:
        for href, text, sentence in link_sentences(chunk.text):
            target = link_target(href, page, index, firsts)
            if target is None or (target.slug, target.section_id) == (
                chunk.slug,
                chunk.section_id,
            ):
                continue
            query = link_query(text, sentence, target)
            if query is not None:
                out.append(Pair(tree, "link", query, target.id, chunk.id))
    return out


def link_target(
    href: str, page: Page, index: PageIndex, firsts: dict[str, dict[str, Chunk]]
) -> Chunk | None:
    """The first chunk of the section a link points to (without an anchor, the page's
    introduction: its lead or its title's section); None for external links, unknown pages,
    unknown anchors and a page that starts with a sub-section."""
    if _EXTERNAL.match(href):
        return None
    path, _, anchor = href.split("?")[0].partition("#")
    target = index.page(path, page.path)
    if target is None:
        return None
    sections = firsts.get(target.path, {})
    if not anchor:  # the page's introduction, when it has one
        first = next(iter(sections.values()), None)
        return first if first is not None and first.heading == target.title else None
    heading = section_of(target, anchor)
    return sections.get(heading.section_id) if heading else None


def link_query(text: str, sentence: str, target: Chunk) -> str | None:
    """The sentence around a link, or the link's text when the sentence is only the link;
    None when what is left is too short or just the target's heading or title."""
    known = {target.heading.lower(), target.title.lower()}
    if len(words(sentence)) >= MIN_WORDS + 1 and sentence.lower() != text.lower():
        return _clip(sentence) if len(words(sentence)) <= MAX_WORDS else None
    if len(words(text)) >= MIN_WORDS and text.lower() not in known:
        return text
    return None


def _clip(text: str) -> str:
    return " ".join(words(text)[:MAX_WORDS])


def unambiguous(pairs: Iterable[Pair]) -> list[Pair]:
    """Pairs whose query has one answer in the tree, each (query, answer) once."""
    answers: dict[str, set[str]] = {}
    kept: dict[tuple[str, str], Pair] = {}
    for pair in pairs:
        key = pair.query.lower()
        answers.setdefault(key, set()).add(pair.positive)
        kept.setdefault((key, pair.positive), pair)
    return [pair for (key, _), pair in kept.items() if len(answers[key]) == 1]
