from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from askdocs.errors import InvalidInput
from askdocs.guard.validation import parse_ask_body, require_json
from askdocs.settings import AskSettings

LIMITS = AskSettings()


def body(messages: Any, **extra: Any) -> bytes:
    return json.dumps({"token": "t", "messages": messages, **extra}).encode()


def user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


def bot(text: str) -> dict[str, str]:
    return {"role": "assistant", "content": text}


def code_of(raw: bytes) -> str:
    with pytest.raises(InvalidInput) as caught:
        parse_ask_body(raw, LIMITS)
    return caught.value.code


def test_a_valid_conversation() -> None:
    parsed = parse_ask_body(body([user("How?"), bot("Like so."), user("And then?")]), LIMITS)
    assert [m.role for m in parsed.messages] == ["user", "assistant", "user"]
    assert parsed.token == "t"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"{", "invalid_json"),
        (b"[" * 150_000 + b"]" * 150_000, "body_too_large"),
        (b"[" * 50_000 + b"]" * 50_000, "invalid_json"),
        (b"[]", "invalid_body"),
        (body("hi"), "invalid_body"),
        (body([]), "empty"),
        (body([user("  ")]), "empty"),
        (body([user("a")] * 9), "too_many_messages"),
        (body([{"role": "system", "content": "x"}]), "invalid_role"),
        (body([{"role": "user", "content": 3}]), "invalid_body"),
        (body([user("x" * 4001)]), "message_too_long"),
        (body([user("x" * 1001)]), "question_too_long"),
        (body([bot("hello"), user("q")]), "must_start_with_user"),
        (body([user("q"), bot("a")]), "must_end_with_user"),
        (body([user("nul \x00 here")]), "invalid_text"),
        (b'{"messages": [{"role": "user", "content": "\\ud800"}]}', "invalid_text"),
        (body([user("q")], locale="../../etc"), "invalid_locale"),
        (json.dumps({"token": 5, "messages": [user("q")]}).encode(), "invalid_body"),
        (b"x" * (LIMITS.max_body_bytes + 1), "body_too_large"),
    ],
)
def test_each_refusal_has_a_stable_code(raw: bytes, code: str) -> None:
    assert code_of(raw) == code


def test_longer_history_messages_are_allowed_up_to_the_message_limit() -> None:
    parsed = parse_ask_body(body([user("x" * 3000), bot("y" * 4000), user("why?")]), LIMITS)
    assert len(parsed.messages) == 3


@pytest.mark.parametrize(
    "content_type", [None, "text/plain", "application/x-www-form-urlencoded", "json"]
)
def test_only_json_is_accepted(content_type: str | None) -> None:
    with pytest.raises(InvalidInput) as caught:
        require_json(content_type)
    assert (caught.value.status, caught.value.code) == (415, "unsupported_media_type")


def test_json_with_charset_is_accepted() -> None:
    require_json("application/json; charset=utf-8")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_input_is_accepted_or_refused_with_a_code(raw: bytes) -> None:
    outcome: InvalidInput | None = None
    try:
        parse_ask_body(raw, LIMITS)
    except InvalidInput as exc:
        outcome = exc
    if outcome is not None:
        assert outcome.status in (400, 413)
        assert outcome.code
