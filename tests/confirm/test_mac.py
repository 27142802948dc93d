"""The MAC and canonical payloads: the exact message, and every way a token must fail."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from askdocs.confirm.canonical import canonical_json, key_fingerprint, secret_change
from askdocs.confirm.mac import compute, mac_message, verify

KEY = bytes(range(32))
USER = "6f1c2d3e-0000-4000-8000-000000000001"


def test_the_message_is_length_prefixed_exactly_as_the_seed_says() -> None:
    assert (
        mac_message("DeleteSite", '{"a":1}', USER) == f'10:DeleteSite\n7:{{"a":1}}\n{USER}'.encode()
    )
    expected = hmac.new(KEY, mac_message("Op", "{}", USER), hashlib.sha256).hexdigest()
    token = compute(KEY, "Op", "{}", USER)
    assert token == expected
    assert token == token.lower()
    assert len(token) == 64


def test_a_token_verifies_only_for_its_own_operation_payload_and_user() -> None:
    token = compute(KEY, "DeleteSite", '{"siteId":"a"}', USER)
    assert verify(KEY, "DeleteSite", '{"siteId":"a"}', USER, token)
    assert not verify(KEY, "DeleteSite", '{"siteId":"b"}', USER, token)  # tampered payload
    assert not verify(KEY, "DeleteSite", '{"siteId":"a"}', USER[:-1] + "2", token)  # other user
    assert not verify(KEY, "DeletePage", '{"siteId":"a"}', USER, token)  # other operation
    assert not verify(bytes(32), "DeleteSite", '{"siteId":"a"}', USER, token)  # other key


def test_the_operation_payload_boundary_cannot_be_re_split() -> None:
    # Without lengths, "ab"+"\n"+"c..." and "a"+"\n"+"bc..." would be one message apart.
    token = compute(KEY, "ab", "cd", USER)
    assert not verify(KEY, "a", "bcd", USER, token)
    assert not verify(KEY, "abc", "d", USER, token)
    assert mac_message("ab", "cd", USER) != mac_message("a", "bcd", USER)
    # A payload that embeds a forged second header still differs.
    assert not verify(KEY, "a", "b\n2:cd", USER, compute(KEY, "a\n1:b", "cd", USER))


@pytest.mark.parametrize(
    "presented",
    ["", None, 0, "abc", "0" * 63, "0" * 65, "g" * 64, "é" * 64, b"0" * 64, ["x"], "\x00" * 64],
)
def test_verify_returns_false_and_never_raises_on_junk(presented: object) -> None:
    assert verify(KEY, "Op", "{}", USER, presented) is False


def test_an_uppercased_token_is_not_the_token() -> None:
    token = compute(KEY, "Op", "{}", USER)
    assert not verify(KEY, "Op", "{}", USER, token.upper())


@given(st.text(max_size=30), st.text(max_size=60), st.integers(min_value=0, max_value=63))
def test_flipping_any_character_of_a_token_fails(operation: str, payload: str, at: int) -> None:
    token = compute(KEY, operation, payload, USER)
    assert verify(KEY, operation, payload, USER, token)
    flipped = token[:at] + ("0" if token[at] != "0" else "1") + token[at + 1 :]
    assert not verify(KEY, operation, payload, USER, flipped)


def test_canonical_json_is_sorted_compact_and_ascii() -> None:
    assert canonical_json({"b": 1, "a": [True, None, "é"]}) == '{"a":[true,null,"\\u00e9"],"b":1}'
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


def test_secret_changes_are_distinct_and_never_hold_the_secret() -> None:
    assert secret_change(None) == "unchanged"
    assert secret_change("") == "clear"
    fingerprint = secret_change("sk-secret-value")
    assert fingerprint == key_fingerprint("sk-secret-value")
    assert fingerprint.startswith("sha256:")
    assert "sk-secret" not in fingerprint
    assert len({secret_change(None), secret_change(""), fingerprint}) == 3
