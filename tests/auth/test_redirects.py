"""The one next-URL rule (``askdocs.auth.redirects.safe_next``): a path on this origin, as
given and decoded once, or the fallback."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from askdocs.auth.redirects import safe_next

ORIGIN = "https://docs.example.com"


@pytest.mark.parametrize(
    "value",
    [
        "/\t/evil.invalid/phish",  # the query parser already decoded %09
        "/\n/evil.invalid/phish",
        "/\r\n/evil.invalid/phish",
        "/%09/evil.invalid/phish",  # decoded once more, still refused
        "/%0a/evil.invalid",
        "/%0d%0a/evil.invalid",
        "//evil.invalid/phish",
        "/%2Fevil.invalid",
        "/\\evil.invalid",
        "/%5Cevil.invalid",
        "https://evil.invalid/",
        "http:/evil.invalid",
        "evil.invalid",
        "javascript:alert(1)",
        "/\u2028/evil.invalid",
        "/\u200b/evil.invalid",
        "",
        None,
        "/" + "a" * 600,
    ],
)
def test_open_redirect_after_sign_in_is_refused(value: str | None) -> None:
    assert safe_next(value, ORIGIN, "/assistant") == "/assistant"


def test_open_redirect_after_sign_in_with_a_tab_is_refused() -> None:
    """The issue's probe: ``next=%2F%09%2Fevil.invalid%2Fphish`` arrives as ``/<tab>/...``."""
    assert safe_next("/\t/evil.invalid/phish", ORIGIN) == "/"


@pytest.mark.parametrize(
    "value", ["/", "/assistant", "/admin?tab=sites", "/docs/a%20b#part", "/proposals/abc-1"]
)
def test_paths_on_this_site_are_kept(value: str) -> None:
    assert safe_next(value, ORIGIN) == value


@given(st.text(max_size=40))
def test_whatever_comes_back_is_a_plain_path_on_this_origin(value: str) -> None:
    kept = safe_next(value, ORIGIN, "/fallback")
    assert kept in (value, "/fallback")
    assert kept.startswith("/")
    assert not kept.startswith("//")
    assert not any(ord(c) < 0x20 or ord(c) == 0x7F for c in kept)
    assert "\\" not in kept
