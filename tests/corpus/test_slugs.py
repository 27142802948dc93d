"""Heading ids as each dialect's own build makes them (``corpus.dialects.slugs``), and the
tool configuration that changes them (``corpus.dialects.siteconfig``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from askdocs.corpus.dialects import Dialect
from askdocs.corpus.dialects.siteconfig import mkdocs_slugs, tool_options, top_level_strings
from askdocs.corpus.dialects.slugs import SlugStyle, dedupe, slug
from askdocs.corpus.documents import ParseOptions, parse_document

GITHUB = SlugStyle("github")
PYTHON_MARKDOWN = SlugStyle("python-markdown")
VITEPRESS = SlugStyle("vitepress")

# (text, style, id): the upstream algorithms' results (github-slugger, Python-Markdown's
# toc.slugify, pymdownx.slugs, @mdit-vue/shared's slugify)
CASES: list[tuple[str, SlugStyle, str]] = [
    ("vi.spyOn", VITEPRESS, "vi-spyon"),
    ("Déjà vu, again!", VITEPRESS, "deja-vu-again"),
    ("3.0 Release", VITEPRESS, "_3-0-release"),
    ("A -- B", VITEPRESS, "a-b"),
    ("vi.spyOn", GITHUB, "vispyon"),
    ("Déjà vu, again!", GITHUB, "déjà-vu-again"),
    ("A -- B", GITHUB, "a----b"),
    ("Emoji 🎉 here", GITHUB, "emoji--here"),
    ("Déjà vu, again!", PYTHON_MARKDOWN, "deja-vu-again"),
    ("A -- B", PYTHON_MARKDOWN, "a-b"),
    ("Déjà vu", SlugStyle("python-markdown", unicode=True), "déjà-vu"),
    ("Déjà Vu", SlugStyle("pymdownx", case="lower"), "déjà-vu"),
    ("Déjà Vu", SlugStyle("pymdownx", case="none"), "Déjà-Vu"),
    ("A  B", SlugStyle("pymdownx", case="lower"), "a--b"),
    ("!!!", GITHUB, "section"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "style", "expected"), CASES)
def test_each_dialect_slugs_as_its_build(text: str, style: SlugStyle, expected: str) -> None:
    assert slug(text, style) == expected


def test_repeats_are_numbered_as_each_build_numbers_them() -> None:
    used: set[str] = set()
    assert [dedupe("a", used, GITHUB) for _ in range(3)] == ["a", "a-1", "a-2"]
    used = set()
    assert [dedupe("a", used, PYTHON_MARKDOWN) for _ in range(3)] == ["a", "a_1", "a_2"]


def ids(text: str, dialect: Dialect, style: SlugStyle | None = None) -> list[str]:
    options = ParseOptions(("en",), "en", 3, dialect, slugs=style)
    return [h.section_id for h in parse_document(text, "p.md", options).headings]


def test_components_leave_the_id_their_text_goes_into() -> None:
    text = (
        '## Reporters <Badge type="danger">advanced</Badge>\n\n## vi.spyOn\n\n## update <CRoot />\n'
    )
    assert ids(text, "vitepress") == ["reporters-advanced", "vi-spyon", "update"]
    assert ids(text, "docusaurus") == ["reporters-advanced", "vispyon", "update"]


def test_custom_ids_win_in_every_dialect() -> None:
    for dialect in ("docusaurus", "vitepress", "mkdocs", "gfm"):
        assert ids("## Long title {#short}\n", dialect) == ["short"]


def test_mkdocs_dedupes_with_underscores_and_reads_its_configured_slugify() -> None:
    assert ids("## Same\n\n## Same\n", "mkdocs") == ["same", "same_1"]
    style = SlugStyle("pymdownx", case="none")
    assert ids("## Déjà Vu\n", "mkdocs", style) == ["Déjà-Vu"]


MKDOCS_YML = """
markdown_extensions:
  - admonition
  - toc:
      permalink: true
      slugify: !!python/object/apply:pymdownx.slugs.slugify
        kwds:
          case: lower
"""


def test_mkdocs_yml_toc_slugify_variants() -> None:
    assert mkdocs_slugs(MKDOCS_YML) == SlugStyle("pymdownx", case="lower")
    named = "markdown_extensions:\n  - toc:\n      slugify: !!python/name:pymdownx.slugs.uslugify\n"
    assert mkdocs_slugs(named) == SlugStyle("pymdownx", case="lower")
    unicode = (
        "markdown_extensions:\n  - toc:\n"
        "      slugify: !!python/name:markdown.extensions.toc.slugify_unicode\n"
        "      separator: _\n"
    )
    assert mkdocs_slugs(unicode) == SlugStyle("python-markdown", separator="_", unicode=True)
    assert mkdocs_slugs("markdown_extensions:\n  - toc:\n      permalink: true\n") is None
    assert mkdocs_slugs("site_name: x\n") is None


def test_vitepress_config_literals_are_read_without_running_it() -> None:
    config = """
    import { defineConfig } from 'vitepress'
    // title: 'Commented'
    export default defineConfig({
      themeConfig: { title: 'Nested' },
      subtitle: 'Not this',
      title: "Vitest",
      titleTemplate: ':title | Vitest',
    })
    """
    assert top_level_strings(config, ("title", "titleTemplate")) == {
        "title": "Vitest",
        "titleTemplate": ":title | Vitest",
    }
    computed = "export default defineConfig({ title: `Vite${suffix}` })"
    assert top_level_strings(computed, ("title",)) == {}


def test_tool_options_of_a_vitepress_root(tmp_path: Path) -> None:
    config = tmp_path / ".vitepress" / "config.ts"
    config.parent.mkdir()
    config.write_text("export default { title: 'Site', titleTemplate: 'Docs' }\n")
    (tmp_path / "en").mkdir()
    options = tool_options(tmp_path / "en", config)
    assert (options.title_suffixes, options.src_prefix) == (("Site", "Docs"), "en")
