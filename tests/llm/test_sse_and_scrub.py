from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from askdocs.llm.http import MAX_ERROR_TEXT, scrub
from askdocs.llm.sse import SSEDecoder, SSEEvent


def decode(lines: list[str]) -> list[SSEEvent]:
    decoder = SSEDecoder()
    events = [e for line in lines if (e := decoder.feed(line)) is not None]
    last = decoder.flush()
    return [*events, last] if last else events


def test_events_data_lines_and_comments() -> None:
    lines = [": keep-alive", "event: delta", "data: a", "data: b", "", "data: [DONE]", ""]
    assert decode(lines) == [SSEEvent("delta", "a\nb"), SSEEvent("message", "[DONE]")]


def test_unterminated_last_event_is_flushed() -> None:
    assert decode(["data:x"]) == [SSEEvent("message", "x")]


def test_event_without_data_is_dropped() -> None:
    assert decode(["event: ping", "", "data: 1", ""]) == [SSEEvent("message", "1")]


@given(st.text(alphabet=st.characters(blacklist_characters="\r\n"), max_size=200))
def test_any_single_data_line_round_trips(text: str) -> None:
    assert decode([f"data: {text}", ""]) == [SSEEvent("message", text)]


def test_scrub_removes_the_secret_and_key_shapes() -> None:
    text = "bad key sk-abcdef123456 and MYSECRET and AIzaSyA1234567890abc and ?key=zzz&x=1"
    out = scrub(text, ["MYSECRET"])
    for leaked in ("sk-abcdef123456", "MYSECRET", "AIzaSyA1234567890abc", "zzz"):
        assert leaked not in out
    assert "x=1" in out


@given(st.text(max_size=2000))
def test_scrub_is_bounded(text: str) -> None:
    assert len(scrub(text, ["s3cr3t"])) <= MAX_ERROR_TEXT
    assert "s3cr3t" not in scrub(text + "s3cr3t", ["s3cr3t"])
