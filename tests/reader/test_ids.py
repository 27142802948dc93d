"""Identities are validated before any lookup: slugs, asset ids and locales."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from askdocs.errors import InvalidInput
from askdocs.reader.ids import check_asset_id, check_locale, check_slug
from askdocs.reader.imagetypes import asset_id, kind_from_bytes, kind_from_name
from tests.reader.fixtures import GIF, JPEG, SVG, WEBP, png_bytes

GOOD_SLUGS = ["index", "tutorial/cors", "_llm-test", "a/b/c", "v1.2/notes", "návod/krok-1", "a b"]
BAD_SLUGS = [
    "",
    "/",
    "/index",
    "index/",
    "a//b",
    ".",
    "..",
    "../etc",
    "a/../b",
    "a/./b",
    ".hidden",
    "a/.git/config",
    "a\\b",
    "a\x00b",
    "a\nb",
    "a%2fb",
    "a?b",
    "a#b",
    "a:b",
    "．．/x",
    "ａ",
    "a" * 201,
    "/".join(["a"] * 17),
    "a/ ",
    " a",
]


@pytest.mark.parametrize("slug", GOOD_SLUGS)
def test_good_slugs(slug: str) -> None:
    assert check_slug(slug) == slug


@pytest.mark.parametrize("slug", BAD_SLUGS)
def test_bad_slugs(slug: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        check_slug(slug)
    assert raised.value.code == "invalid-slug"


@given(st.text(max_size=60))
def test_any_accepted_slug_has_no_dot_segments(value: str) -> None:
    try:
        check_slug(value)
    except InvalidInput:
        return
    segments = value.split("/")
    assert all(s and not s.startswith(".") for s in segments)
    assert "\\" not in value
    assert "\x00" not in value
    assert "%" not in value


@pytest.mark.parametrize(
    "value",
    ["a" * 64 + ".png", "0123456789abcdef" * 4 + ".jpg", "f" * 64 + ".gif", "0" * 64 + ".webp"],
)
def test_good_asset_ids(value: str) -> None:
    assert check_asset_id(value) == value


@pytest.mark.parametrize(
    "value",
    [
        "a" * 64 + ".svg",
        "A" * 64 + ".png",
        "a" * 63 + ".png",
        "a" * 64 + ".jpeg",
        "a" * 64,
        "../" + "a" * 64 + ".png",
        "a" * 64 + ".png/x",
        "logo.png",
        "",
    ],
)
def test_bad_asset_ids(value: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        check_asset_id(value)
    assert raised.value.code == "invalid-asset-id"


def test_locales() -> None:
    assert check_locale("cs") == "cs"
    for bad in (None, "", "de", "CS", "cs-CZ"):
        with pytest.raises(InvalidInput):
            check_locale(bad)


def test_image_signatures() -> None:
    assert kind_from_bytes(png_bytes()) == "png"
    assert kind_from_bytes(JPEG) == "jpg"
    assert kind_from_bytes(GIF) == "gif"
    assert kind_from_bytes(WEBP) == "webp"
    assert kind_from_bytes(SVG) is None
    assert kind_from_bytes(b"RIFF\x00\x00\x00\x00WAVE") is None
    assert [kind_from_name(n) for n in ("a.PNG", "b.jpeg", "c.svg", "d")] == [
        "png",
        "jpg",
        None,
        None,
    ]
    assert asset_id(b"x", "png").endswith(".png")
    assert len(asset_id(b"x", "png")) == 68
