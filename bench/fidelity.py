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
  drops) although the dialect's build resolves them: the target page is in the tree and
  the anchor is one of its heading ids or explicit anchors; links that are dead upstream
  too (no such file or anchor in the tree) are counted apart as ``dead``, and links to
  files that are not pages (images, downloads) as ``files``;
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
from askdocs.corpus.dialects.slugs import DIALECT_SLUGS, slug
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


TREES: tuple[Tree, ...] = (
    Tree("fastapi-docs", "mkdocs", "."),
    Tree("httpx-docs", "mkdocs", "."),
    Tree("traefik-docs", "mkdocs", "."),
    Tree(
        "mkdocs-material", "mkdocs", "docs", "squidfunk/mkdocs-material",
        "5b36f2ac499a45905e246bc66bbee2858ef6556f", ("docs", "mkdocs.yml"),
    ),
    Tree("frigate-docs", "docusaurus", "."),
    Tree(
        "redux", "docusaurus", "docs", "reduxjs/redux",
        "3084fc33bb23ab4cab4796172eafe342da4e73d9", ("docs", "website/docusaurus.config.ts"),
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
    files: int = 0
    refused: list[str] = field(default_factory=list)
    hits: int = 0
    examples: list[str] = field(default_factory=list)

    def row(self) -> str:
        raw = sum(self.raw.values())
        detail = ",".join(f"{k}={v}" for k, v in sorted(self.raw.items()) if v)
        return (
            f"{self.name:18} {self.dialect:10} {self.detected:10} {self.pages:5} "
            f"{raw:5} {len(self.titles):6} {len(self.links):5} {self.dead:5} {self.files:5} "
            f"{self.hits:6} {len(self.refused):7}  {detail}"
        )


HEADER = (
    f"{'tree':18} {'dialect':10} {'detected':10} {'pages':>5} {'raw':>5} {'titles':>6} "
    f"{'links':>5} {'dead':>5} {'files':>5} {'hits':>6} {'refused':>7}  raw by marker"
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


def myst_labels(root: Path) -> set[str]:
    """A MyST project's targets, ``(label)=`` lines and directives' ``:name:``, which Sphinx
    resolves from any page."""
    found: set[str] = set()
    for file in root.rglob("*.md"):
        text = file.read_text(encoding="utf-8", errors="replace")
        found.update(re.findall(r"^\(([^()\s]+)\)=\s*$", text, re.M))
        found.update(re.findall(r"^:name:\s*(\S+)\s*$", text, re.M))
    return found


def anchors_in(dialect: Dialect, raw: str) -> set[str]:
    """Ids a page offers in the dialect's build: its headings' slugs, explicit ``{#id}``,
    HTML ``id``/``name`` attributes and MyST ``(label)=`` targets."""
    style = DIALECT_SLUGS[dialect]
    found: set[str] = set()
    for line in _outside_code(_front(raw)[1]).split("\n"):
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            explicit = re.search(r"\{\s*#([\w.:-]+)[^}]*\}\s*$", heading.group(1))
            text = _TAG_HTML.sub("", re.sub(r"\{[^}]*\}\s*$", "", heading.group(1)))
            found.add(explicit.group(1) if explicit else slug(text.replace("`", "").strip(), style))
        found.update(re.findall(r"""\b(?:id|name)=["']([^"']+)["']""", line))
        target = re.match(r"^\(([\w.:-]+)\)=\s*$", line)
        if target:
            found.add(target.group(1))
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
    labels = myst_labels(root) if tree.dialect == "myst" else set()
    try:
        service.index(site.id)
        snapshot = service.snapshot(site.id)
        pages = readable_pages(snapshot, "en")
        report.pages = len(pages)
        for page in pages:
            _page(reader, site, page, snapshot, root, report, nav, labels)
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
    reader: DocsReader, site: SiteConfig, page: Page, snapshot: CorpusSnapshot, root: Path,
    report: Report, nav: dict[str, str], labels: set[str],
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
    _links(page, snapshot, root, report, labels)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[`*_]", "", text).split()).casefold()


def _links(
    page: Page, snapshot: CorpusSnapshot, root: Path, report: Report, labels: set[str]
) -> None:
    job = MarkupJob(page.body, tuple(h.section_id for h in page.headings), dialect=_d(page))
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
        verdict = _upstream(page, unquote(parts.path), fragment, root, labels)
        if verdict == "file":
            report.files += 1
        elif verdict == "dead":
            report.dead += 1
            report.dead_links.append(f"{page.path}: {href}")
        else:
            shown = "dropped anchor" if resolved is not None else "unresolved"
            report.links.append(f"{page.path}: {href} ({shown})")


def _d(page: Page) -> Dialect:
    return page.dialect  # type: ignore[return-value]


def _upstream(page: Page, path: str, fragment: str, root: Path, labels: set[str]) -> str:
    """``ok`` when the dialect's build resolves the link (the target file is in the tree,
    the anchor on it; a MyST label anywhere), ``dead`` when it does not, ``file`` for a
    non-page file."""
    if labels and ((not path and fragment in labels) or (path in labels and not fragment)):
        return "ok"
    target = _target_file(page, path, root)
    if target is None:
        return "dead"
    if target.suffix not in (".md", ".mdx"):
        return "file"
    if not fragment:
        return "ok"
    raw = target.read_text(encoding="utf-8", errors="replace")
    return "ok" if fragment in anchors_in(_d(page), raw) else "dead"


def _target_file(page: Page, path: str, root: Path) -> Path | None:
    if not path:
        return root / page.path
    base = path.lstrip("/") if path.startswith("/") else None
    joined = base if base is not None else contained_path(page.path, path)
    if joined is None:
        return None
    if path.endswith((".md/", ".mdx/")):
        return None  # a page's file named as a folder: MkDocs leaves it a dead relative URL
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
        ("refused", report.refused),
    ):
        for item in items[:40]:
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
