"""The follow-up rule: a question with history is searched with the previous question."""

from __future__ import annotations

from askdocs.search.query import MAX_QUERY_CHARS, query_kind, search_text


def test_a_followup_is_searched_with_the_previous_question_after_it() -> None:
    query = search_text("what if I cannot change the start command?", ["Behind a proxy?"])
    assert query.followup
    assert query.text == "what if I cannot change the start command? Behind a proxy?"


def test_short_rule_joins_only_short_questions() -> None:
    query = search_text("and in Vite?", ["How do I set up the widget in React?"], join="short")
    assert query.followup
    assert query.text == "and in Vite? How do I set up the widget in React?"
    alone = search_text("what if I cannot change the start command?", ["Proxy?"], join="short")
    assert not alone.followup
    assert alone.text == "what if I cannot change the start command?"


def test_joins_the_latest_non_empty_question() -> None:
    query = search_text("and files?", ["first question", "second question", "  "])
    assert query.text == "and files? second question"


def test_no_history_means_no_join() -> None:
    assert not search_text("hi", []).followup


def test_threshold_is_configurable_and_whitespace_normalised() -> None:
    query = search_text("one  two\nthree", ["previous"], min_words=4, join="short")
    assert query.text == "one two three previous"
    assert not search_text("one two three", ["previous"], min_words=3, join="short").followup


def test_query_text_is_bounded_and_keeps_the_question() -> None:
    assert len(search_text("x" * 5000, []).text) == MAX_QUERY_CHARS
    joined = search_text("y" * 1990, ["z" * 100])
    assert len(joined.text) == MAX_QUERY_CHARS
    assert joined.text.startswith("y" * 1990)


def test_query_kinds_short_identifier_and_natural() -> None:
    assert query_kind("receive_json") == "keyword"
    assert query_kind("dependency scope") == "keyword"
    assert query_kind("kubernetesCRD allowCrossNamespace default") == "keyword"
    assert query_kind("added our office to excludedIPs but still get 429s") == "mixed"
    assert query_kind("is one httpx.Client safe to share across threads?") == "mixed"
    assert query_kind("how do I pass --root-path behind a proxy") == "mixed"
    assert query_kind("how do I send an email after the response is returned") == "natural"
