"""Front matter: known keys validated with file, line and field; unknown keys kept."""

from __future__ import annotations

import pytest

from askdocs.corpus.frontmatter import split_front_matter
from askdocs.errors import FrontMatterError

LOCALES = ("en", "cs", "sk")


def test_known_and_unknown_keys() -> None:
    text = (
        "---\ntitle: Setup\nslug: guide/setup\naudience: developer\norder: 3\n"
        "locale: cs\ndescription: How to set up\ndraft: false\n"
        "id: setup\ntags: [a, b]\n---\n# Body\n"
    )
    split = split_front_matter(text, "setup.md", LOCALES)
    front = split.front_matter
    assert (front.title, front.slug, front.audience, front.order) == (
        "Setup",
        "guide/setup",
        "developer",
        3,
    )
    assert (front.locale, front.description, front.draft) == ("cs", "How to set up", False)
    assert front.doc_id == "setup"
    assert front.meta == {"tags": ["a", "b"]}
    assert split.body == "# Body\n"
    assert split.body_line == 11


def test_no_front_matter() -> None:
    split = split_front_matter("# Title\n\n---\n", "a.md", LOCALES)
    assert split.body == "# Title\n\n---\n"
    assert split.front_matter.title is None
    assert split.body_line == 0


def test_empty_front_matter_and_slug_root() -> None:
    assert split_front_matter("---\n---\nx\n", "a.md", LOCALES).front_matter.title is None
    front = split_front_matter("---\nslug: /\n---\n", "a.md", LOCALES).front_matter
    assert front.slug == "index"
    assert (
        split_front_matter("---\nslug: /guide/\n---\n", "a.md", LOCALES).front_matter.slug
        == "guide"
    )


@pytest.mark.parametrize(
    ("yaml", "message"),
    [
        ("title: ok\norder: first", "line 3, field 'order': must be an integer, not 'first'"),
        ("order: true", "line 2, field 'order': must be an integer, not True"),
        (
            "audience: admin",
            "line 2, field 'audience': must be one of user, developer, not 'admin'",
        ),
        ("a: 1\nb: 2\nlocale: de", "line 4, field 'locale': must be one of cs, en, sk, not 'de'"),
        ("draft: maybe", "line 2, field 'draft': must be true or false, not 'maybe'"),
        ("title: [a, b]", "line 2, field 'title': must be text"),
        ("title: '  '", "line 2, field 'title': must not be empty"),
        ("slug: ../etc", "line 2, field 'slug': '../etc' is not a valid slug"),
        ("slug: 'a b'", "line 2, field 'slug': 'a b' is not a valid slug"),
        ("- just\n- a list", "line 2: front matter must be a mapping"),
    ],
)
def test_invalid_values_name_file_line_and_field(yaml: str, message: str) -> None:
    with pytest.raises(FrontMatterError) as caught:
        split_front_matter(f"---\n{yaml}\n---\nbody\n", "guide/setup.md", LOCALES)
    assert str(caught.value).startswith(f"guide/setup.md: {message}")
    assert caught.value.path == "guide/setup.md"


def test_invalid_yaml_names_its_line() -> None:
    with pytest.raises(FrontMatterError, match=r"^a\.md: line 3: invalid YAML front matter"):
        split_front_matter("---\ntitle: x\nkey: [unclosed\n---\n", "a.md", LOCALES)


def test_unclosed_front_matter() -> None:
    with pytest.raises(FrontMatterError, match="never closed"):
        split_front_matter("---\ntitle: x\n", "a.md", LOCALES)


def test_numbers_are_accepted_as_titles() -> None:
    assert split_front_matter("---\ntitle: 404\n---\n", "a.md", LOCALES).front_matter.title == "404"


def test_yaml_tags_are_not_constructed() -> None:
    with pytest.raises(FrontMatterError, match="invalid YAML"):
        split_front_matter(
            "---\nx: !!python/object/apply:os.system ['true']\n---\n", "a.md", LOCALES
        )
