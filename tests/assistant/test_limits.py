"""Reply bounds: the ceiling sent per provider kind, markers, the streaming character cap."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from askdocs.assistant.limits import (
    ReplyBuffer,
    char_truncation_marker,
    message_problem,
    model_truncation_marker,
    output_ceiling,
)
from askdocs.assistant.titles import clean_title, provisional_title
from askdocs.settings import AssistantSettings


def test_reasoning_providers_get_headroom_on_top() -> None:
    default = AssistantSettings()
    assert output_ceiling(default, "anthropic") == 24576
    assert output_ceiling(default, "gemini") == 24576
    configured = AssistantSettings(max_output_tokens=4096)
    assert output_ceiling(configured, "anthropic") == 12288


def test_other_providers_get_no_ceiling_unless_configured() -> None:
    assert output_ceiling(AssistantSettings(), "openai-compatible") is None
    assert output_ceiling(AssistantSettings(max_output_tokens=900), "openai-compatible") == 900


def test_markers_name_the_ceiling_only_when_one_was_sent() -> None:
    assert "24576" in model_truncation_marker(24576)
    assert "tokens" not in model_truncation_marker(None)


def test_message_problems() -> None:
    assert message_problem("   ", 10) == "Message must not be empty"
    assert message_problem("x" * 11, 10) is not None
    assert message_problem("x" * 10, 10) is None


@given(st.lists(st.text(max_size=80), max_size=30), st.integers(min_value=60, max_value=400))
def test_reply_buffer_never_exceeds_the_cap(deltas: list[str], cap: int) -> None:
    buffer = ReplyBuffer(cap)
    shown = "".join(buffer.add(d) for d in deltas)
    shown += buffer.close("stop", None)
    assert shown == buffer.text
    assert len(shown) <= cap
    full = "".join(deltas)
    if buffer.cut:
        assert shown.endswith(char_truncation_marker(cap))
        assert full.startswith(shown[: -len(char_truncation_marker(cap))])
    else:
        assert shown == full


def test_character_marker_wins_when_both_bounds_bite() -> None:
    buffer = ReplyBuffer(100)
    buffer.add("x" * 200)
    assert buffer.close("length", 500) == char_truncation_marker(100)


@given(st.text(max_size=300))
def test_provisional_titles_are_short_single_lines(message: str) -> None:
    title = provisional_title(message)
    assert len(title) <= 60
    assert "\n" not in title


def test_clean_title() -> None:
    assert clean_title('"Installing askdocs."\nmore') == "Installing askdocs"
    assert clean_title("Title: Hybrid search") == "Hybrid search"
    assert clean_title("  \n ") is None
