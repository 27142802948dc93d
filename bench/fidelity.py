"""Fidelity over real docs trees of every dialect: what a reader and a searcher see.

    .venv/bin/python bench/fidelity.py fetch [--trees DIR] [--mirrors DIR]
    .venv/bin/python bench/fidelity.py [--trees DIR] [--only NAME ...] [--details]

``fetch`` puts each fetched tree of ``TREES`` (repository, commit, folders) under
``--trees`` (default ``.askdocs-data/fidelity-trees``): ``git archive`` of the commit from
a bare mirror when ``--mirrors DIR`` holds ``owner+name/repo`` (how this bench was run),
else a shallow ``git fetch`` of that commit from GitHub. Trees are never committed. The
shared corpora (``../shared/corpora``) are read in place.

Per tree, with the tree's dialect set in the site configuration (the detected one is
printed beside it): the corpus is read and indexed keyword-only (no model: what is
measured is text, not ranking), every readable page is rendered through ``DocsReader`` as a
visitor, and every page title is searched through the engine with the visitor's audience
(``SiteCaller.search_audience``), top 10. Printed per tree:

* ``raw``: raw dialect markers (component or HTML tags, ``:::``, ``=== "Tab"`` / ``== tab``,
  ``!!! note`` / ``??? note``, ``{% %}``, ``{#``, ``import X from`` lines, ``<<<``) outside
  code, in rendered HTML text, page titles, headings, and search hit titles, headings and
  snippets;
* ``titles``: pages whose title differs from the title the dialect's own build shows
  (``expected_title``: an independent reading of the raw file);
* ``links``: authored internal links the reader renders as plain text (or whose anchor it
  drops) although the dialect's build resolves them to Markdown in the tree: the target
  page is in the tree and the anchor one the build makes there (``Upstream``: heading
  ids, explicit anchors, MyST targets and glossary terms, MkDocs footnotes, fence ids and
  content tabs); counted apart: ``dead`` (dead upstream too: no such file or anchor),
  ``gen`` (generated: the build resolves it to a target only code generation makes,
  Sphinx's Python objects, an MkDocs hook's shortcode headings, a tree's ``generated``
  paths), ``else`` (elsewhere: into another project's docs, a tree's ``elsewhere``) and
  ``files`` (files that are not pages: images, downloads);
* ``refused``: search hits whose URL the reader refuses the visitor (or whose anchor is
  not on the page).
"""

from __future__ import annotations

import argparse
import posixpath
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml
from markdown_it import MarkdownIt

from askdocs.corpus.dialects import Dialect
from askdocs.corpus.dialects.detect import detect_dialect
from askdocs.corpus.dialects.nav import load_nav
from askdocs.corpus.dialects.siteconfig import mkdocs_tab_slugs
from askdocs.corpus.dialects.slugs import DIALECT_SLUGS, dedupe, slug
from askdocs.corpus.dialects.tabids import TabSlugs
from askdocs.errors import AskDocsError
from askdocs.ingest import CorpusSnapshot
from askdocs.reader.article import link_context
from askdocs.reader.control import DocsReader, readable_pages, readable_variants
from askdocs.reader.links import contained_path, resolve_link
from askdocs.reader.markup import MarkupJob, render_markup
from askdocs.service import AskDocs
from askdocs.settings import RootConfig, SiteConfig, load_settings
from askdocs.sites import VISITOR
from askdocs.types import Page
from shared_data import shared

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TREES = ROOT / ".askdocs-data" / "fidelity-trees"


@dataclass(frozen=True)
class Tree:
    name: str
    dialect: Dialect
    docs: str  # the docs root inside the tree
    repo: str = ""  # owner/name on GitHub; "" for a shared corpus
    commit: str = ""
    paths: tuple[str, ...] = ()  # what ``fetch`` extracts (the docs and their configuration)
    exclude: tuple[str, ...] = ()
    # link paths (prefixes) to pages the build generates from code, never from Markdown
    generated: tuple[str, ...] = ()
    # targets the build resolves into another project's docs (Sphinx intersphinx), by hand
    elsewhere: tuple[str, ...] = ()
    url_root: bool = False  # the docs are served at the site's root (a browser clamps ``..``)
    markdown_only: bool = False  # the copy holds only the Markdown files (shared corpora)


TREES: tuple[Tree, ...] = (
    Tree("fastapi-docs", "mkdocs", ".", markdown_only=True),
    Tree("httpx-docs", "mkdocs", ".", markdown_only=True),
    Tree("traefik-docs", "mkdocs", ".", markdown_only=True),
    Tree(
        "mkdocs-material", "mkdocs", "docs", "squidfunk/mkdocs-material",
        "5b36f2ac499a45905e246bc66bbee2858ef6556f", ("docs", "mkdocs.yml"),
    ),
    # docs.frigate.video serves the docs at its root (routeBasePath "/"); the OpenAPI plugin
    # generates integrations/api/ from the HTTP API's spec
    Tree(
        "frigate-docs", "docusaurus", ".", url_root=True, generated=("integrations/api/",),
        markdown_only=True,
    ),
    Tree(
        "redux", "docusaurus", "docs", "reduxjs/redux",
        "3084fc33bb23ab4cab4796172eafe342da4e73d9", ("docs", "website/docusaurus.config.ts"),
        url_root=True,  # website/docusaurus.config.ts: routeBasePath "/"
    ),
    Tree(
        "prettier", "docusaurus", "docs", "prettier/prettier",
        "4f84a934201322ca87750e2b9b25baf296da6560", ("docs", "website/docusaurus.config.js"),
    ),
    Tree(
        "vitepress", "vitepress", "docs/en", "vuejs/vitepress",
        "ed2bfb266ef788e86d1a73fe3cd7708a4cd5e260", ("docs/en", "docs/snippets", "docs/.vitepress"),
    ),
    Tree(
        "vite", "vitepress", "docs", "vitejs/vite",
        "a98c8d95d552c6fa98ab66fb810f5b39ad5abf49", ("docs",),
    ),
    Tree(
        "vitepress-plugins", "vitepress", "docs", "sapphi-red/vitepress-plugins",
        "11245cc379ab93995fb79677a19f46d41f0fb0af", ("docs",),
    ),
    Tree(
        "myst-parser", "myst", "docs", "executablebooks/MyST-Parser",
        "4ec4cf86c2ba01e0d425f801f8374effc65b71fb", ("docs",),
        # docs/conf.py intersphinx_mapping: Sphinx's own docs
        elsewhere=("sphinx.application.Sphinx", "usage/restructuredtext/roles"),
    ),
    Tree(
        "jupyter-book", "myst", "docs", "jupyter-book/jupyter-book",
        "1405594a0678a9a2ef0f5ba314a0ea7b9d5bfe95", ("docs",),
    ),
    Tree(
        "gh-cli", "gfm", "docs", "cli/cli", "44ee17760709bedf1cad7e452e61751489b81a33", ("docs",)
    ),
    Tree(
        "homebrew", "gfm", "docs", "Homebrew/brew",
        "aad366ffaf6a8c94c66d35e4b990d42ac4195305", ("docs",),
        generated=("rubydoc/",),  # YARD's API docs, docs/Rakefile RUBYDOC_DIR
    ),
)  # fmt: skip

_CODE_HTML = re.compile(r"<(pre|code)\b.*?</\1>", re.S)
_TAG_HTML = re.compile(r"<[^>]+>")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+).+?\1")
_BLOCKS = MarkdownIt("commonmark").disable("inline")
# HTML element names, for the tag marker: a component (capitalised) or one of these is a tag
# that leaked; ``<camera>`` or ``<router_name>`` is an author's placeholder, shown as text.
HTML_NAMES = (
    "a|abbr|aside|b|blockquote|br|button|caption|code|col|details|div|dl|dd|dt|em|figure"
    "|figcaption|font|h[1-6]|hr|i|iframe|img|input|kbd|label|li|mark|ol|p|picture|pre|s"
    "|script|section|small|source|span|strong|style|sub|summary|sup|table|tbody|td|th"
    "|thead|tr|u|ul|video"
)
_TAG_NAME = rf"(?:[A-Z][\w.]*|(?:{HTML_NAMES})(?![\w-]))"
MARKERS: dict[str, re.Pattern[str]] = {
    "tag": re.compile(rf"<\/?{_TAG_NAME}(?:\s[^<>]*)?/?>|&lt;/?{_TAG_NAME}[\s&/]"),
    ":::": re.compile(r":::"),
    "===": re.compile(r"^\s*===[!+]?\s+[\"']|^\s*==\s+\w", re.M),  # Material / VitePress tabs
    "!!!": re.compile(r"^\s*(?:!!!|\?\?\?\+?)\s+\w", re.M),  # admonitions
    "{% %}": re.compile(r"\{%.*?%\}|\{%"),
    "{#": re.compile(r"\{#|\{ #"),
    "import": re.compile(r"^\s*import\s+[\w{}*,\s]+\s+from\s+['\"]", re.M),
    "<<<": re.compile(r"^\s*(?:<<<|&lt;&lt;&lt;)\s", re.M),
}


@dataclass
class Report:
    name: str
    dialect: str
    detected: str
    pages: int = 0
    raw: Counter[str] = field(default_factory=Counter)
    titles: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    dead: int = 0
    dead_links: list[str] = field(default_factory=list)
    generated: list[str] = field(default_factory=list)
    elsewhere: list[str] = field(default_factory=list)
    files: int = 0
    refused: list[str] = field(default_factory=list)
    hits: int = 0
    examples: list[str] = field(default_factory=list)

    def row(self) -> str:
        raw = sum(self.raw.values())
        detail = ",".join(f"{k}={v}" for k, v in sorted(self.raw.items()) if v)
        return (
            f"{self.name:18} {self.dialect:10} {self.detected:10} {self.pages:5} "
            f"{raw:5} {len(self.titles):6} {len(self.links):5} {self.dead:5} "
            f"{len(self.generated):5} {len(self.elsewhere):5} {self.files:5} "
            f"{self.hits:6} {len(self.refused):7}  {detail}"
        )


HEADER = (
    f"{'tree':18} {'dialect':10} {'detected':10} {'pages':>5} {'raw':>5} {'titles':>6} "
    f"{'links':>5} {'dead':>5} {'gen':>5} {'else':>5} {'files':>5} {'hits':>6} {'refused':>7}"
    "  raw by marker"
)


def markers_in(text: str, where: str, report: Report, *, markdown: bool = True) -> None:
    """Count raw markers in ``text`` outside code (fences and spans when ``markdown``; an
    entity there, ``&lt;Tag/&gt;``, is an author's literal ``<``, not a tag)."""
    cleaned = _outside_code(text).replace("&lt;", "\u2039") if markdown else text
    for name, pattern in MARKERS.items():
        found = pattern.findall(cleaned)
        if found:
            report.raw[name] += len(found)
            if len(report.examples) < 40:
                report.examples.append(f"{where}: {name}: {str(found[0])[:80]!r}")


def _outside_code(text: str) -> str:
    """``text`` without fenced or indented code blocks (as CommonMark reads them) and
    without code spans."""
    code: set[int] = set()
    for token in _BLOCKS.parse(text):
        if token.type in ("fence", "code_block") and token.map:
            code.update(range(*token.map))
    lines = text.split("\n")
    return "\n".join(_CODE_SPAN.sub("", line) for i, line in enumerate(lines) if i not in code)


def html_text(html: str) -> str:
    """The text a reader sees outside code: tags (ours) removed, entities kept."""
    return _TAG_HTML.sub("\n", _CODE_HTML.sub("", html))


# -- what the dialect's own build shows ----------------------------------------------------


def expected_title(dialect: str, raw: str, path: str, nav: dict[str, str]) -> str:
    """The page title the dialect's build shows, read from the raw file on its own terms:
    MkDocs' ``nav`` label; front matter ``title`` (VitePress without a `` | suffix``; a
    ``layout: home`` page's hero name), else the first ``# `` heading's text (tags and
    ``{#id}`` removed), else the file name."""
    if dialect == "mkdocs" and path in nav:
        return nav[path]
    front, body = _front(raw)
    title = front.get("title")
    if isinstance(title, str | int | float) and str(title).strip():
        text = str(title).strip()
        return re.sub(r"(\s+\|\s+[^|]{1,40})+$", "", text) if dialect == "vitepress" else text
    if dialect == "docusaurus" and isinstance(front.get("sidebar_label"), str):
        return str(front["sidebar_label"]).strip()
    h1 = _first_h1(body)
    if h1:
        return h1
    hero = front.get("hero")
    if dialect == "vitepress" and isinstance(hero, dict) and hero.get("name"):
        return str(hero["name"]).strip()
    return ""


def _front(raw: str) -> tuple[dict[str, object], str]:
    if not raw.startswith("---"):
        return {}, raw
    end = raw.find("\n---", 3)
    if end < 0:
        return {}, raw
    try:
        loaded = yaml.safe_load(raw[3:end])
    except yaml.YAMLError:
        loaded = None
    return (loaded if isinstance(loaded, dict) else {}), raw[end + 4 :]


def _first_h1(body: str) -> str:
    fence = ""
    for line in body.split("\n"):
        match = _FENCE.match(line)
        if match:
            fence = "" if fence else match.group(1)
            continue
        if not fence and line.startswith("# "):
            text = re.sub(r"\s*\{\s*#[^}]*\}\s*$", "", line[2:].strip()).rstrip("#").strip()
            text = re.sub(r"<[A-Za-z][^<>]*/>", "", text)  # a self-closing tag shows nothing
            return " ".join(_TAG_HTML.sub("", text).split())
    return ""


_DIRECTIVE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})\s*\{([\w:-]+)\}\s*(.*?)\s*$")
_PY_OBJECT = re.compile(r"^(?:py:\w+|autodoc2-object|auto(?:class|function|module|data|method))$")


@dataclass
class Upstream:
    """What the dialect's build resolves beyond the headings of a page, read from the
    tree on its own terms (never through askdocs's parser):

    * MyST (Sphinx, mystmd), from any page: ``(label)=`` lines; a directive's ``:name:``
      or ``:label:`` option, indented too (in a list item, in ``{eval-rst}`` as
      reStructuredText's ``:name:``), and ``.. _label:``; ``{figure-md} label``; glossary
      terms (after ``{.glossary}`` or in ``{glossary}``: by the term itself or
      ``term-...``);
    * generated by code, never by the Markdown: Python objects a ``{py:*}``,
      ``{autodoc2-object}`` or ``{auto*}`` directive documents (Sphinx builds their
      targets from the code), and on MkDocs pages a hook's shortcode heading
      (``<!-- md:setting X -->`` is ``#X``, ``<!-- md:option X -->`` ``#+X``: Material's
      ``overrides/hooks/shortcodes.py``);
    * MkDocs per page: Python-Markdown footnotes ``fn:LABEL`` / ``fnref:LABEL`` when the
      ``footnotes`` extension is on; content-tab ids when ``pymdownx.tabbed`` sets
      ``slugify`` (with ``combine_header_slug``, the heading's id, separator, the tab's).
    """

    labels: set[str] = field(default_factory=set)
    objects: set[str] = field(default_factory=set)
    footnotes: bool = False
    tabs: TabSlugs | None = None


def read_upstream(dialect: str, root: Path) -> Upstream:
    model = Upstream()
    if dialect == "mkdocs":
        config = _mkdocs_yml(root)
        text = config.read_text(encoding="utf-8", errors="replace") if config else ""
        model.footnotes = bool(
            re.search(r"^\s*-\s*(?:markdown\.extensions\.)?footnotes\b", text, re.M)
        )
        model.tabs = mkdocs_tab_slugs(text) if text else None
    if dialect == "myst":
        for file in sorted(root.rglob("*.md")):
            _myst_targets(file.read_text(encoding="utf-8", errors="replace"), model)
    return model


def _mkdocs_yml(root: Path) -> Path | None:
    for folder in (root, *root.parents):
        for name in ("mkdocs.yml", "mkdocs.yaml"):
            if (folder / name).is_file():
                return folder / name
    return None


def _myst_targets(text: str, model: Upstream) -> None:
    glossary = False
    lines = text.split("\n")
    for index, line in enumerate(lines):
        target = re.match(r"^\s*\(([^()\s]+)\)=\s*$", line)
        option = re.match(r"^\s*:(?:name|label):\s*(\S+)\s*$", line)
        rst = re.match(r"^\s*\.\.\s+_([^:`\s][^:`]*):\s*$", line)
        for found in (target, option, rst):
            if found:
                model.labels.add(found.group(1).strip())
        directive = _DIRECTIVE.match(line)
        if directive and directive.group(2) == "figure-md" and directive.group(3):
            model.labels.add(directive.group(3).split()[0])
        if directive and _PY_OBJECT.match(directive.group(2)) and directive.group(3):
            model.objects.add(directive.group(3).split()[0].split("(")[0])
        if re.match(r"^\s*\{[^{}]*\.glossary\b[^{}]*\}\s*$", line) or (
            directive and directive.group(2) == "glossary"
        ):
            glossary = True
        elif (
            glossary
            and not line.strip()
            and index + 1 < len(lines)
            and not lines[index + 1].strip()
        ):
            glossary = False
        nxt = lines[index + 1] if index + 1 < len(lines) else ""
        if glossary and line.strip() and not line.startswith((":", " ")) and nxt.startswith(": "):
            term = " ".join(line.split())
            model.labels.update({term, term.lower(), _term_id(term)})


def _term_id(term: str) -> str:
    ident = re.sub(r"[^a-z0-9]+", "-", " ".join(term.lower().split()))
    return "term-" + (re.sub(r"^[-0-9]+|-+$", "", ident) or "0")


def anchors_in(dialect: Dialect, raw: str, upstream: Upstream | None = None) -> set[str]:
    """Ids a page offers in the dialect's build: its headings' slugs, explicit ``{#id}``,
    HTML ``id``/``name`` attributes, MyST ``(label)=`` targets, and (``Upstream``) MkDocs'
    footnote and content-tab ids."""
    style = DIALECT_SLUGS[dialect]
    found: set[str] = set()
    if upstream is not None and dialect == "mkdocs":  # pymdownx.superfences { .sh #id }
        found.update(re.findall(r"^\s*(?:`{3,}|~{3,})\s*\{[^}]*?(?<![\w.])#([\w:.-]+)", raw, re.M))
    used: set[str] = set()
    heading_id = ""
    for line in _outside_code(_front(raw)[1]).split("\n"):
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            explicit = re.search(r"\{\s*#([\w.:-]+)[^}]*\}\s*$", heading.group(1))
            text = _TAG_HTML.sub("", re.sub(r"\{[^}]*\}\s*$", "", heading.group(1)))
            made = slug(text.replace("`", "").strip(), style)
            heading_id = explicit.group(1) if explicit else dedupe(made, used, style)
            found.add(heading_id)
        found.update(re.findall(r"""\b(?:id|name)=["']([^"']+)["']""", line))
        target = re.match(r"^\(([\w.:-]+)\)=\s*$", line)
        if target:
            found.add(target.group(1))
        if upstream is None:
            continue
        note = re.match(r"^\[\^([^\]\s]+)\]:", line)
        if upstream.footnotes and note:
            found.update({f"fn:{note.group(1)}", f"fnref:{note.group(1)}"})
        tab = re.match(r"^(\s*)===[!+]?\s+\"(.*)\"\s*$", line)
        if upstream.tabs is not None and tab:
            found.add(_tab_id(tab.group(2), heading_id, upstream.tabs, used))
    return found


def _tab_id(label: str, heading_id: str, config: TabSlugs, used: set[str]) -> str:
    text = " ".join(re.sub(r":[a-z]+-[\w-]+:", "", label).split())
    made = slug(text, config.style)
    made = f"{heading_id}{config.separator}{made}" if config.combine_header_slug else made
    return dedupe(made, used, config.style)


def generated_in(raw: str) -> set[str]:
    """Ids a hook's shortcode heading gets on an MkDocs page (``Upstream``)."""
    found = set(re.findall(r"^#{1,6}\s+<!--\s*md:setting\s+(\S+)\s*-->", raw, re.M))
    found.update("+" + name for name in re.findall(r"<!--\s*md:option\s+(\S+)\s*-->", raw))
    return found


# -- measuring one tree --------------------------------------------------------------------


def measure(tree: Tree, folder: Path, data: Path, details: bool) -> Report:
    root = (folder / tree.docs).resolve()
    detected = detect_dialect(root).dialect
    report = Report(tree.name, tree.dialect, detected)
    exclude = [*RootConfig(path=root).exclude, *tree.exclude]
    site = SiteConfig(
        id="bench", name=tree.name, dialect=tree.dialect,
        roots=[RootConfig(path=root, exclude=exclude)],
    )  # fmt: skip
    settings = load_settings(
        None, data_dir=data, embedding={"provider": "none"}, corpus={"parse_timeout_seconds": 600}
    )
    service = AskDocs(settings, [site])
    reader = DocsReader(settings)
    nav = _nav_titles(root)
    upstream = read_upstream(tree.dialect, root)
    try:
        service.index(site.id)
        snapshot = service.snapshot(site.id)
        pages = readable_pages(snapshot, "en")
        report.pages = len(pages)
        for page in pages:
            _page(reader, site, page, snapshot, tree, root, report, nav, upstream)
        for page in pages:
            _search(service, reader, site, page.title, report)
    finally:
        reader.close()
        service.close()
    if details:
        _print_details(report)
    return report


def _nav_titles(root: Path) -> dict[str, str]:
    """MkDocs' ``nav`` labels (path -> label) when ``mkdocs.yml`` is next to or above."""
    detection = detect_dialect(root)
    if detection.config is None or not detection.config.name.startswith("mkdocs."):
        return {}
    return {path: e.label for path, e in load_nav(root, detection.config).items() if e.label}


def _page(
    reader: DocsReader, site: SiteConfig, page: Page, snapshot: CorpusSnapshot, tree: Tree,
    root: Path, report: Report, nav: dict[str, str], upstream: Upstream,
) -> None:  # fmt: skip
    where = page.path
    try:
        article = reader.article(site, page.slug, "en")
    except AskDocsError as exc:
        report.refused.append(f"{where}: the reader refuses its own page: {exc}")
        return
    markers_in(html_text(article.html), f"{where} html", report, markdown=False)
    markers_in(page.title, f"{where} title", report)
    for heading in page.headings:
        markers_in(heading.text, f"{where} heading", report)
    raw = (root / page.path).read_text(encoding="utf-8", errors="replace")
    wanted = expected_title(page.dialect, raw, page.path, nav)
    if wanted and _norm(wanted) != _norm(page.title):
        report.titles.append(f"{where}: {page.title!r} != {wanted!r}")
    _links(page, snapshot, tree, root, report, upstream)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[`*_]", "", text).split()).casefold()


def _links(
    page: Page, snapshot: CorpusSnapshot, tree: Tree, root: Path, report: Report,
    upstream: Upstream,
) -> None:  # fmt: skip
    ids = tuple(h.section_id for h in page.headings)
    job = MarkupJob(page.body, ids, dialect=_d(page), tab_ids=page.tab_ids)
    markup = render_markup(job)
    context = link_context(page, readable_variants(snapshot))
    for ref in markup.links:
        href = ref.href
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not href or href.startswith("mailto:"):
            continue
        resolved = resolve_link(href, context)
        fragment = unquote(parts.fragment)
        if resolved is not None and (not fragment or "#" in resolved.href):
            continue
        verdict = _upstream(page, unquote(parts.path), fragment, tree, root, upstream)
        if verdict == "file":
            report.files += 1
        elif verdict == "dead":
            report.dead += 1
            report.dead_links.append(f"{page.path}: {href}")
        elif verdict == "generated":
            report.generated.append(f"{page.path}: {href}")
        elif verdict == "elsewhere":
            report.elsewhere.append(f"{page.path}: {href}")
        else:
            shown = "dropped anchor" if resolved is not None else "unresolved"
            report.links.append(f"{page.path}: {href} ({shown})")


def _d(page: Page) -> Dialect:
    return page.dialect  # type: ignore[return-value]


def _upstream(
    page: Page, path: str, fragment: str, tree: Tree, root: Path, upstream: Upstream
) -> str:
    """``ok`` when the dialect's build resolves the link to Markdown in the tree (the
    target file is in the tree, the anchor on it; a MyST label anywhere), ``generated``
    when to a target only code generation makes (``Upstream``, ``Tree.generated``),
    ``elsewhere`` when into another project's docs (``Tree.elsewhere``), ``file`` for a
    non-page file, ``dead`` when the build does not resolve it either."""
    name = fragment if not path else path if not fragment else ""
    if name in upstream.labels:
        return "ok"
    if name in upstream.objects:
        return "generated"
    if name and name in tree.elsewhere:
        return "elsewhere"
    if tree.generated and _joined(page, path).startswith(tree.generated):
        return "generated"
    target = _target_file(page, path, root, tree)
    if target is None:
        # a copy of Markdown files only cannot tell a download the build has from a dead one
        suffix = posixpath.splitext(path)[1]
        return (
            "file" if tree.markdown_only and suffix not in ("", ".md", ".mdx", ".html") else "dead"
        )
    if target.suffix not in (".md", ".mdx"):
        return "file"
    if not fragment:
        return "ok"
    raw = target.read_text(encoding="utf-8", errors="replace")
    if fragment in anchors_in(_d(page), raw, upstream):
        return "ok"
    return "generated" if _d(page) == "mkdocs" and fragment in generated_in(raw) else "dead"


def _target_file(page: Page, path: str, root: Path, tree: Tree) -> Path | None:
    """The file ``path`` names from ``page`` as the build resolves it: relative to the page
    (a URL above the root clamped there, as a browser does, where the tree's docs are
    served at the site's root: ``url_root``), or from the root when absolute; Docusaurus
    tries ``api/x.md`` (neither ``./`` nor ``../``) from the docs root too."""
    if not path:
        return root / page.path
    if path.endswith((".md/", ".mdx/")):
        return None  # a page's file named as a folder: MkDocs leaves it a dead relative URL
    base = path.lstrip("/") if path.startswith("/") else None
    joined = base if base is not None else contained_path(page.path, path)
    if joined is None and tree.url_root and not path.endswith((".md", ".mdx")):
        joined = posixpath.normpath(posixpath.join("/", posixpath.dirname(page.path), path))
        joined = joined.lstrip("/") or "index"
    found = _file_at(joined, root) if joined is not None else None
    url = base is None and not path.endswith((".md", ".mdx"))
    if found is None and url and page.dialect == "mkdocs":
        # MkDocs rewrites a link to any file of the docs from the file; any other stays a
        # URL, which a browser resolves from the page's directory URL
        directory = _directory_url_path(page.path, path)
        found = _file_at(directory, root) if directory is not None else None
    bare = base is None and not path.startswith(("./", "../"))
    if found is None and bare and page.dialect == "docusaurus":
        found = _file_at(posixpath.normpath(path), root)
    return found


def _directory_url_path(source: str, path: str) -> str | None:
    """MkDocs' directory URLs: ``guide/a.md`` is served as ``guide/a/``, so a relative URL
    (not a ``.md`` file, which MkDocs resolves from the file) starts from that folder."""
    stem = posixpath.splitext(source)[0]
    folder = posixpath.dirname(stem) if posixpath.basename(stem) in ("index", "README") else stem
    joined = posixpath.normpath(posixpath.join(folder, path))
    return None if joined == ".." or joined.startswith("../") else joined


def _joined(page: Page, path: str) -> str:
    """``path`` from ``page`` as a root-relative path (``..`` above the root clamped)."""
    if path.startswith("/"):
        return path.lstrip("/")
    return posixpath.normpath(posixpath.join("/", posixpath.dirname(page.path), path)).lstrip("/")


def _file_at(joined: str, root: Path) -> Path | None:
    stem = posixpath.normpath(joined).removesuffix(".html").rstrip("/")
    if stem.startswith("docs/") and not (root / stem).exists():
        stem = stem.removeprefix("docs/")
    for candidate in (stem, f"{stem}.md", f"{stem}.mdx", f"{stem}/index.md", f"{stem}/README.md"):
        file = root / candidate
        if candidate and file.is_file():
            return file
    return None


def _search(
    service: AskDocs, reader: DocsReader, site: SiteConfig, title: str, report: Report
) -> None:
    audience, _ = VISITOR.search_audience(None)
    try:
        result = service.search(title, site=site.id, audience=audience, limit=10)
    except AskDocsError as exc:
        report.refused.append(f"search {title!r}: {exc}")
        return
    for hit in result.hits:
        report.hits += 1
        for text, what in ((hit.title, "title"), (hit.heading, "heading"), (hit.text, "snippet")):
            markers_in(text, f"hit {hit.path} {what}", report)
        problem = _opens(reader, site, hit.url)
        if problem:
            report.refused.append(f"search {title!r}: {hit.url}: {problem}")


def _opens(reader: DocsReader, site: SiteConfig, url: str) -> str | None:
    parts = urlsplit(url)
    if not parts.path.startswith("/docs/"):
        return "not a reader URL"
    slug_ = unquote(parts.path.removeprefix("/docs/"))
    try:
        article = reader.article(site, slug_, "en")
    except AskDocsError as exc:
        return str(exc)
    anchors = {entry.id for entry in article.toc} | {article.title_anchor or ""}
    fragment = unquote(parts.fragment)
    if fragment and fragment not in anchors and f'id="{fragment}"' not in article.html:
        return f"no anchor #{fragment}"
    return None


def _print_details(report: Report) -> None:
    for label, items in (
        ("raw", report.examples),
        ("title", report.titles),
        ("link", report.links),
        ("dead upstream", report.dead_links),
        ("generated", report.generated),
        ("elsewhere", report.elsewhere),
        ("refused", report.refused),
    ):
        for item in items:
            print(f"  {report.name} {label}: {item}")


# -- trees ---------------------------------------------------------------------------------


def fetch(trees_dir: Path, mirrors: Path | None) -> None:
    for tree in TREES:
        if not tree.repo:
            continue
        target = trees_dir / tree.name
        if target.exists():
            print(f"{tree.name}: present")
            continue
        target.mkdir(parents=True)
        git_dir = _git_dir(tree, mirrors)
        archive = subprocess.run(
            ["git", f"--git-dir={git_dir}", "archive", tree.commit, *tree.paths],
            check=True,
            capture_output=True,
        )
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
        print(f"{tree.name}: {tree.repo}@{tree.commit[:12]} -> {target}")


def _git_dir(tree: Tree, mirrors: Path | None) -> Path:
    """A bare mirror of the repository, or a shallow fetch of the one commit."""
    if mirrors is not None:
        mirror = mirrors / tree.repo.replace("/", "+") / "repo"
        if mirror.exists():
            return mirror
    work = Path(tempfile.mkdtemp(prefix=f"fidelity-{tree.name}-"))
    subprocess.run(["git", "init", "-q", "--bare", str(work)], check=True)
    url = f"https://github.com/{tree.repo}.git"
    fetch_cmd = ["git", f"--git-dir={work}", "fetch", "-q", "--depth", "1", url, tree.commit]
    subprocess.run(fetch_cmd, check=True)
    return work


def folder_of(tree: Tree, trees_dir: Path) -> Path:
    return trees_dir / tree.name if tree.repo else shared("corpora", tree.name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", choices=("run", "fetch"), default="run")
    parser.add_argument("--trees", type=Path, default=DEFAULT_TREES)
    parser.add_argument("--mirrors", type=Path, default=None)
    parser.add_argument("--data", type=Path, default=ROOT / ".askdocs-data" / "fidelity")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--details", action="store_true")
    args = parser.parse_args()
    if args.command == "fetch":
        fetch(args.trees, args.mirrors)
        return
    print(HEADER)
    for tree in TREES:
        if args.only and tree.name not in args.only:
            continue
        folder = folder_of(tree, args.trees)
        if not folder.exists():
            print(f"{tree.name}: {folder} missing (run `bench/fidelity.py fetch`)", file=sys.stderr)
            continue
        print(measure(tree, folder, args.data / tree.name, args.details).row(), flush=True)


if __name__ == "__main__":
    main()
