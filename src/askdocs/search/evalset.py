"""Question files for ``askdocs search --batch`` and ``askdocs eval`` (JSON Lines). Pure.

One object per line: ``{"id", "question", "history", "kind"?, "relevant"?}`` where
``relevant`` lists ``{"path", "heading"}`` labels (empty for unanswerable questions); a
label with ``"heading_source": "title"`` names the page's lead section (text before any
heading), matched whatever title the page is shown with.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from askdocs.errors import InvalidInput
from askdocs.search.metrics import Section


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    history: tuple[str, ...] = ()
    kind: str = ""
    relevant: tuple[Section, ...] = ()


def parse_questions(lines: Iterable[str], source: str = "<input>") -> list[Question]:
    """Parse JSON Lines; blank lines are skipped, a bad line names its number."""
    questions: list[Question] = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            questions.append(_parse_line(line, f"{source}:{number}"))
    return questions


def _parse_line(line: str, where: str) -> Question:
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{where}: not valid JSON ({exc.msg})") from exc
    if not isinstance(raw, dict):
        raise InvalidInput(f"{where}: expected a JSON object")
    question = raw.get("question")
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput(f"{where}: 'question' must be a non-empty string")
    return Question(
        id=str(raw.get("id", where)),
        question=question,
        history=_history(raw.get("history"), where),
        kind=str(raw.get("kind", "")),
        relevant=_labels(raw.get("relevant"), where),
    )


def _history(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"{where}: 'history' must be a list of strings")
    return tuple(value)


def _labels(value: object, where: str) -> tuple[Section, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InvalidInput(f"{where}: 'relevant' must be a list")
    labels: list[Section] = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("path"), str):
            raise InvalidInput(f"{where}: each label needs a 'path' and a 'heading'")
        labels.append((item["path"], _heading(item)))
    return tuple(labels)


def _heading(item: dict[str, object]) -> str:
    """The label's heading; ``"heading_source": "title"`` (no heading above the answer)
    names the page's lead section, which is matched as ``""`` (see ``lead_or_heading``)
    whatever title the page is shown with."""
    return "" if item.get("heading_source") == "title" else str(item.get("heading", ""))


def lead_or_heading(path: str, heading: str, section_id: str) -> tuple[str, str]:
    """A result as an eval section: the lead section (no section id) is ``(path, "")``."""
    return (path, heading if section_id else "")
