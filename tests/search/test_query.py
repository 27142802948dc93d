"""The follow-up rule (seed 001): short questions are joined with the previous one."""

from __future__ import annotations

from askdocs.search.query import MAX_QUERY_CHARS, search_text


def test_short_followup_joins_previous_question() -> None:
    query = search_text("and in Vite?", ["How do I set up the widget in React?"])
    assert query.followup
    assert query.text == "How do I set up the widget in React? and in Vite?"


def test_long_question_stands_alone() -> None:
    query = search_text("what if I cannot change the start command?", ["Behind a proxy?"])
    assert not query.followup
    assert query.text == "what if I cannot change the start command?"


def test_joins_the_latest_non_empty_question() -> None:
    query = search_text("and files?", ["first question", "second question", "  "])
    assert query.text == "second question and files?"


def test_no_history_means_no_join() -> None:
    assert not search_text("hi", []).followup


def test_threshold_is_configurable_and_whitespace_normalised() -> None:
    query = search_text("one  two\nthree", ["previous"], min_words=4)
    assert query.text == "previous one two three"
    assert not search_text("one two three", ["previous"], min_words=3).followup


def test_query_text_is_bounded() -> None:
    assert len(search_text("x" * 5000, []).text) == MAX_QUERY_CHARS
