"""Question files: the eval format (FastAPI dev set in tests/data), errors that name the line."""

from __future__ import annotations

import pytest

from askdocs.errors import InvalidInput
from askdocs.search.evalset import lead_or_heading, parse_questions
from tests.conftest import EVAL_DIR


def test_parses_the_fastapi_dev_set() -> None:
    path = EVAL_DIR / "fastapi-docs-dev.jsonl"
    questions = parse_questions(path.read_text(encoding="utf-8").splitlines())
    assert len(questions) == 40
    followups = [q for q in questions if q.kind == "followup"]
    assert followups
    assert all(q.history for q in followups)
    assert all(not q.relevant for q in questions if q.kind == "unanswerable")


def test_minimal_lines_and_blank_lines() -> None:
    [q] = parse_questions(['{"id": "x", "question": "hello"}', ""])
    assert (q.id, q.question, q.history, q.relevant) == ("x", "hello", (), ())


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "f:1: not valid JSON"),
        ("[1]", "f:1: expected a JSON object"),
        ('{"question": ""}', "f:1: 'question' must be"),
        ('{"question": "q", "history": "x"}', "f:1: 'history' must be"),
        ('{"question": "q", "relevant": [{"heading": "h"}]}', "f:1: each label needs"),
    ],
)
def test_bad_lines_name_file_and_line(line: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_questions([line], "f")


def test_a_title_label_names_the_lead_section_whatever_its_title() -> None:
    line = (
        '{"id": "q", "question": "keepalive default", "history": [], "relevant": '
        '[{"path": "advanced/resource-limits.md", "heading": "resource-limits", '
        '"heading_source": "title"}]}'
    )
    [question] = parse_questions([line], "t.jsonl")
    assert question.relevant == (("advanced/resource-limits.md", ""),)
    assert lead_or_heading("a.md", "Resource limits", "") == ("a.md", "")
    assert lead_or_heading("a.md", "Pool", "pool") == ("a.md", "Pool")
