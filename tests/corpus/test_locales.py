"""Locale variants: siblings and i18n mirrors grouped with the original; English fallback."""

from __future__ import annotations

from pathlib import Path

from askdocs.corpus.locales import locate
from askdocs.settings import CorpusSettings
from tests.corpus.conftest import read, write

LOCALES = ("en", "cs", "sk")


def test_locate_paths() -> None:
    assert locate("guide/setup.cs.md", LOCALES) == locate("i18n/cs/guide/setup.md", LOCALES)
    assert locate("guide/setup.cs.md", LOCALES).base == "guide/setup.md"
    assert locate("guide/setup.sk.mdx", LOCALES).locale == "sk"
    assert locate("guide/setup.md", LOCALES).locale is None
    assert locate("guide/v1.2.md", LOCALES).locale is None
    assert locate("guide/.cs.md", LOCALES).locale is None
    assert locate("i18n/de/guide.md", LOCALES).unknown_locale == "de"


def make_tree(docs: Path) -> None:
    write(
        docs,
        "guide/setup.md",
        "---\nslug: setup\norder: 2\naudience: developer\n---\n# Setup\n\nEnglish.\n",
    )
    write(docs, "guide/setup.cs.md", "---\ntitle: Nastavení\n---\n## Instalace\n\nČesky.\n")
    write(docs, "i18n/sk/guide/setup.md", "# Nastavenie\n\nSlovensky.\n")
    write(docs, "other.md", "# Other\n\nOnly English.\n")


def test_variants_share_the_original_slug_and_metadata(docs: Path) -> None:
    make_tree(docs)
    snapshot = read(docs)
    assert snapshot.errors == ()
    variants = [(p.path, p.slug, p.locale, p.title, p.order, p.audience) for p in snapshot.pages]
    assert variants == [
        ("guide/setup.md", "setup", "en", "Setup", 2, "developer"),
        ("guide/setup.cs.md", "setup", "cs", "Nastavení", 2, "developer"),
        ("i18n/sk/guide/setup.md", "setup", "sk", "Nastavenie", 2, "developer"),
        ("other.md", "other", "en", "Other", None, "user"),
    ]
    cs_chunks = [c for c in snapshot.chunks if c.locale == "cs"]
    assert [(c.id, c.heading, c.url) for c in cs_chunks] == [
        ("setup:cs#instalace:0", "Instalace", "/docs/developer/setup#instalace")
    ]


def test_lookup_and_fallback(docs: Path) -> None:
    make_tree(docs)
    snapshot = read(docs)
    czech = snapshot.page("setup", "cs")
    assert czech is not None
    assert (czech.path, czech.locale, czech.translated) == ("guide/setup.cs.md", "cs", True)
    fallback = snapshot.page("other", "sk")
    assert fallback is not None
    assert (fallback.path, fallback.locale, fallback.translated) == ("other.md", "en", False)
    assert "Only English." in fallback.body  # the complete English variant
    assert snapshot.chunks_of(fallback) == ()
    assert snapshot.page("missing", "en") is None
    assert snapshot.source_path(czech) == docs.resolve() / "guide/setup.cs.md"


def test_translation_without_original_warns(docs: Path) -> None:
    write(docs, "lonely.cs.md", "# Sám\n")
    snapshot = read(docs)
    assert [p.locale for p in snapshot.pages] == ["cs"]
    assert any("without an original" in w for w in snapshot.warnings)
    assert snapshot.page("lonely", "en") is None


def test_unknown_i18n_locale_is_skipped_with_a_warning(docs: Path) -> None:
    write(docs, "i18n/de/page.md", "# Seite\n")
    snapshot = read(docs)
    assert snapshot.pages == ()
    assert snapshot.warnings == ("i18n/de/page.md: locale 'de' is not configured",)


def test_locales_are_a_setting(docs: Path) -> None:
    write(docs, "page.md", "# Page\n")
    write(docs, "page.de.md", "# Seite\n")
    default = read(docs)
    assert sorted(p.slug for p in default.pages) == ["page", "page.de"]
    german = read(docs, settings=CorpusSettings(locales=["en", "de"]))
    assert [(p.slug, p.locale) for p in german.pages] == [("page", "en"), ("page", "de")]


def test_contradicting_locale_is_an_error(docs: Path) -> None:
    write(docs, "page.md", "# Page\n")
    write(docs, "page.cs.md", "---\nlocale: sk\n---\n# Stránka\n")
    snapshot = read(docs)
    assert [(e.path, e.reason) for e in snapshot.errors] == [
        ("page.cs.md", "field 'locale': 'sk' contradicts the file name ('cs')")
    ]


def test_translation_slug_is_ignored_with_a_warning(docs: Path) -> None:
    write(docs, "page.md", "# Page\n")
    write(docs, "page.cs.md", "---\nslug: stranka\n---\n# Stránka\n")
    snapshot = read(docs)
    assert [p.slug for p in snapshot.pages] == ["page", "page"]
    assert any("'slug' of a translation is ignored" in w for w in snapshot.warnings)


def test_draft_original_hides_its_translations(docs: Path) -> None:
    write(docs, "wip.md", "---\ndraft: true\n---\n# WIP\n")
    write(docs, "wip.cs.md", "# Rozpracováno\n")
    write(docs, "done.md", "# Done\n")
    write(docs, "done.sk.md", "---\ndraft: true\n---\n# Hotovo\n")
    snapshot = read(docs)
    assert [(p.slug, p.locale) for p in snapshot.pages] == [("done", "en")]
    assert all(c.slug == "done" for c in snapshot.chunks)
