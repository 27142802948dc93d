"""Sources: globs and excludes, roots (required, optional, first-root-wins), titles, URLs."""

from __future__ import annotations

from pathlib import Path

import pytest

from askdocs.corpus.globs import compile_globs
from askdocs.errors import ConfigError
from askdocs.ingest import read_site
from askdocs.settings import DEFAULT_EXCLUDE, CorpusSettings, RootConfig
from tests.corpus.conftest import read, site_of, write


def test_glob_semantics() -> None:
    globs = compile_globs(["**/*.md", "*.txt", "guide/[!_]*.mdx"])
    assert globs.matches("a.md")
    assert globs.matches("x/y/a.md")
    assert globs.matches("notes.txt")
    assert not globs.matches("x/notes.txt")
    assert globs.matches("guide/page.mdx")
    assert not globs.matches("guide/_partial.mdx")


def test_default_excludes(docs: Path) -> None:
    for rel in [
        "README.md",
        "SOURCE.md",
        "guide/README.md",
        "archive/old.md",
        "design/plan.md",
        "marketing/ad.md",
        "screenshots/list.md",
        ".github/notes.md",
        "guide/.hidden/page.md",
        "guide/.draft.md",
        "page.txt",
    ]:
        write(docs, rel, "# Excluded\n")
    for rel in [
        "index.md",
        "guide/archive/kept.md",
        "guide/design.md",
        "notes.mdx",
        "sub/SOURCE.md",
    ]:
        write(docs, rel, "# Kept\n")
    snapshot = read(docs)
    assert [p.path for p in snapshot.pages] == [
        "guide/archive/kept.md",
        "guide/design.md",
        "index.md",
        "notes.mdx",
        "sub/SOURCE.md",
    ]
    assert snapshot.errors == ()


def test_include_and_exclude_are_per_root(docs: Path) -> None:
    write(docs, "top.md", "# Top\n")
    write(docs, "user-guide/deep.md", "# Deep\n")
    root = RootConfig(path=docs, include=["*.md"], exclude=list(DEFAULT_EXCLUDE))
    assert [p.path for p in read(root).pages] == ["top.md"]


def test_required_root_missing_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        read(tmp_path / "nope")


def test_root_that_is_a_file_is_a_config_error(tmp_path: Path) -> None:
    file = write(tmp_path, "file.md", "# x\n")
    with pytest.raises(ConfigError, match="not a folder"):
        read(file)


def test_absent_optional_root_contributes_nothing(docs: Path, tmp_path: Path) -> None:
    write(docs, "page.md", "# Page\n")
    snapshot = read(docs, RootConfig(path=tmp_path / "plugins", required=False))
    assert [p.path for p in snapshot.pages] == ["page.md"]
    assert snapshot.warnings == ()
    assert snapshot.errors == ()


def test_first_root_wins(docs: Path, tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    write(docs, "setup.md", "# Core setup\n")
    write(plugin, "setup.md", "# Plugin setup\n")
    write(plugin, "extra.md", "---\naudience: developer\n---\n# Extra\n")
    snapshot = read(docs, RootConfig(path=plugin, audience="developer"))
    assert [(p.path, p.title, p.root) for p in snapshot.pages] == [
        ("setup.md", "Core setup", str(docs.resolve())),
        ("extra.md", "Extra", str(plugin.resolve())),
    ]
    assert snapshot.warnings == (
        "setup.md: skipped, slug 'setup' is already provided by root 1 (setup.md)",
    )
    assert snapshot.source_path(snapshot.pages[1]) == plugin.resolve() / "extra.md"


def test_duplicate_slug_inside_one_root_is_an_error(docs: Path) -> None:
    write(docs, "a.md", "---\nslug: same\n---\n# A\n")
    write(docs, "b.md", "---\nslug: same\n---\n# B\n")
    snapshot = read(docs)
    assert [p.path for p in snapshot.pages] == ["a.md"]
    assert [(e.path, e.reason) for e in snapshot.errors] == [
        ("b.md", "slug 'same' is already used by a.md")
    ]


def test_title_fallbacks(docs: Path) -> None:
    write(docs, "fm.md", "---\ntitle: From front matter\n---\n# Heading\n")
    write(docs, "h1.md", "Lead.\n\n## Two\n\n# First H1 { #h1 }\n")
    write(docs, "none.md", "Just text.\n")
    titles = {p.path: p.title for p in read(docs).pages}
    assert titles == {"fm.md": "From front matter", "h1.md": "First H1", "none.md": "None"}


def test_page_fields_and_meta(docs: Path) -> None:
    write(
        docs, "guide/cors.md", "---\ndescription: CORS\norder: 4\nid: cors\n---\n# CORS\n\nText.\n"
    )
    [page] = read(docs).pages
    assert (page.site, page.path, page.slug, page.order, page.description) == (
        "test",
        "guide/cors.md",
        "guide/cors",
        4,
        "CORS",
    )
    assert page.meta == {}  # a Docusaurus ``id`` is a known key now
    assert page.body == "# CORS\n\nText.\n"
    assert [h.line for h in page.headings] == [6]


def test_url_templates(docs: Path, tmp_path: Path) -> None:
    dev = tmp_path / "dev"
    write(docs, "guide/cors.md", "# CORS\n\nLead.\n\n## Allow origins { #origins }\n\nText.\n")
    write(dev, "api.md", "# API\n\nBody.\n")
    templated = tmp_path / "templated"
    write(templated, "t.md", "# T\n\nBody.\n")
    site = site_of(
        docs,
        RootConfig(path=dev, audience="developer"),
        RootConfig(path=templated, url_template="https://x.test/{locale}/{path}#{anchor}"),
    )
    snapshot = read_site(site, CorpusSettings(min_chars=0))
    urls = [c.url for c in snapshot.chunks]
    assert urls == [
        "/docs/guide/cors#cors",
        "/docs/guide/cors#origins",
        "/docs/developer/api#api",
        "https://x.test/en/t.md#t",
    ]


@pytest.mark.parametrize("template", ["/docs/{slug}#{section}", "/docs/{0}", "/docs/{slug"])
def test_bad_url_templates_are_config_errors(docs: Path, template: str) -> None:
    with pytest.raises(ConfigError, match="URL template"):
        read_site(site_of(docs, user_url_template=template), CorpusSettings())


def test_empty_file_is_a_page_without_chunks(docs: Path) -> None:
    write(docs, "integrations/api.md", "")
    snapshot = read(docs)
    assert [(p.path, p.title) for p in snapshot.pages] == [("integrations/api.md", "Api")]
    assert snapshot.chunks == ()


def test_revision_is_deterministic_and_covers_settings(docs: Path) -> None:
    write(docs, "a.md", "# A\n\nShort.\n\n## B\n\nAlso short.\n")
    first, again = read(docs), read(docs)
    assert first.revision == again.revision
    assert len(first.revision) == 64
    merged = read(docs, settings=CorpusSettings(min_chars=500))
    unmerged = read(docs, settings=CorpusSettings(min_chars=0))
    assert merged.revision != unmerged.revision
