"""The product documents itself: settings, commands and error codes all appear in docs/."""

from __future__ import annotations

import re
from pathlib import Path

import click

from askdocs import errors
from askdocs.cli import COMMANDS, LazyGroup
from askdocs.settings_reference import render

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"


def _all_docs() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md")))


def test_configuration_reference_is_current() -> None:
    current = (DOCS / "configuration.md").read_text(encoding="utf-8")
    assert current == render(), "run: python -m askdocs.settings_reference > docs/configuration.md"


def test_every_cli_command_is_documented() -> None:
    text = _all_docs()
    missing = []
    for name in COMMANDS:
        command = LazyGroup._load(name)
        assert command is not None, f"command {name} does not load"
        if f"askdocs {name}" not in text and not re.search(rf"askdocs \[[^\]]*\] {name}\b", text):
            missing.append(name)
        if isinstance(command, click.Group):
            missing += [f"{name} {sub}" for sub in command.commands if f"{name} {sub}" not in text]
    assert not missing


def test_every_error_class_code_is_documented() -> None:
    text = _all_docs()
    codes = {
        cls.code
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.AskDocsError)
    }
    assert not sorted(code for code in codes if code not in text)
