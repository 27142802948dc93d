"""``askdocs report`` over a data dir seeded with 50 Ask AI records: questions grouped by
meaning with the real bundled embedding model, the no-match list, disliked answers with
their comments, and the pages most cited; ``--json`` and text output; bad ``--since``."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from askdocs.answer.prompt import Source
from askdocs.answer.records import AskRecords, NewRecord
from askdocs.cli import cli
from askdocs.db import Database
from askdocs.db.models import utcnow
from askdocs.settings import Settings

INSTALL = [
    "How do I install askdocs?",
    "how to install askdocs",
    "Installing askdocs with pip",
    "install askdocs",
    "What is the command to install askdocs?",
]
DARK = [
    "Does the reader have a dark mode?",
    "how do I turn on dark mode",
    "dark theme for the reader",
]
LIMITS = ["How many questions can a visitor ask per day?", "daily question limit per visitor"]
PIP = Source("Installing", "/docs/install#pip", "Install with pip")
LIMIT_PAGE = Source("Ask AI", "/docs/ask-ai#limits", "Limits")


def seed(data_dir: Path) -> None:
    settings = Settings(data_dir=data_dir)
    db = Database.open(settings)
    records = AskRecords(db, settings.ask)
    now = utcnow()

    def add(question: str, *, matched: bool, source: Source | None, days: float = 0) -> str:
        kind = "model" if matched else "no_match"
        sources = [source] if source else []
        entry = NewRecord("docs", "visitor-hash", question, "en", kind, matched, sources)
        return records.add(entry, now=now - timedelta(days=days))

    for n in range(25):
        answer = add(INSTALL[n % len(INSTALL)], matched=True, source=PIP)
        if n < 3:
            records.rate(answer, "docs", "visitor-hash", "down", f"outdated {n}" if n else None)
        elif n < 8:
            records.rate(answer, "docs", "visitor-hash", "up", None)
    for n in range(15):
        add(DARK[n % len(DARK)], matched=False, source=None)
    for n in range(8):
        add(LIMITS[n % len(LIMITS)], matched=True, source=LIMIT_PAGE)
    add("What is askdocs's licence?", matched=False, source=None, days=30)  # outside 7d
    add("Is there a Docker image?", matched=False, source=None, days=2)
    db.close()


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "data"
    seed(path)
    return path


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_the_json_report_groups_questions_and_lists_the_gaps(data_dir: Path) -> None:
    result = run("--data-dir", str(data_dir), "report", "--since", "7d", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["questions"], report["noMatch"]) == (49, 16)
    assert (report["liked"], report["dislikedCount"]) == (5, 3)
    top = report["mostAsked"][0]
    assert top["count"] == 25
    assert set(top["examples"]) <= set(INSTALL)
    no_match = report["noMatchGroups"]
    assert no_match[0]["count"] == 15
    assert set(no_match[0]["examples"]) <= set(DARK)
    assert [g["label"] for g in no_match[1:]] == ["Is there a Docker image?"]
    assert {d["comment"] for d in report["disliked"]} == {None, "outdated 1", "outdated 2"}
    assert report["pagesMostCited"][0] == {
        "url": "/docs/install",
        "title": "Installing",
        "count": 25,
    }


def test_the_text_report_and_the_window(data_dir: Path) -> None:
    text = run("--data-dir", str(data_dir), "report", "--since", "60d").output
    assert "50 questions, 17 with no match" in text
    assert "No match (the documentation may be missing these):" in text
    assert "What is askdocs's licence?" in text
    assert "— “outdated 1”" in text


def test_a_bad_since_is_a_usage_error(data_dir: Path) -> None:
    result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), "report", "--since", "soon"])
    assert result.exit_code == 2
    assert "24h, 7d or 2w" in result.output
