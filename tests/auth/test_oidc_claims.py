"""Single sign-on's email rules as pure functions (``askdocs.auth.oidc``): verified means
JSON ``true``; an address and its flag come from one source; domains are matched exactly."""

from __future__ import annotations

import pytest

from askdocs.auth.oidc import email_allowed, email_verified, with_userinfo


@pytest.mark.parametrize("flag", [False, "true", "false", 1, None, [True], {"v": True}])
def test_only_json_true_is_verified(flag: object) -> None:
    assert email_verified({"email_verified": flag}, "corp.test", ["corp.test"]) is False


def test_a_missing_flag_is_trusted_only_for_named_domains() -> None:
    assert email_verified({}, "corp.test", ["corp.test"]) is True
    assert email_verified({}, "other.test", ["corp.test"]) is False
    assert email_verified({}, "corp.test", ["*"]) is False
    assert email_verified({"email_verified": True}, "any.test", []) is True


def test_userinfo_email_comes_with_userinfo_flag_only() -> None:
    token = {"sub": "s", "email_verified": True, "name": "From token"}
    merged = with_userinfo(token, {"sub": "s", "email": "a@corp.test", "email_verified": False})
    assert merged["email_verified"] is False
    merged = with_userinfo(token, {"sub": "s", "email": "a@corp.test"})
    assert "email_verified" not in merged
    assert merged["name"] == "From token"


def test_domains_are_matched_exactly() -> None:
    assert email_allowed("corp.test", ["@Corp.Test"])
    assert not email_allowed("evil.corp.test", ["corp.test"])
    assert email_allowed("anything.example", ["*"])
