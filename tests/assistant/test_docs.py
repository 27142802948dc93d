"""The assistant's docs name every setting, endpoint, error code and command it adds."""

from __future__ import annotations

import pytest

from askdocs.settings import AssistantSettings
from tests.conftest import REPO

DEVELOPER = (REPO / "docs" / "assistant.md").read_text(encoding="utf-8")
USER = (REPO / "docs" / "user-guide" / "assistant.md").read_text(encoding="utf-8")
ENDPOINTS = [
    "GET /threads",
    "POST /threads",
    "GET /threads/{id}",
    "PATCH /threads/{id}",
    "DELETE /threads/{id}",
    "POST /chat",
    "/api/v1/assistant",
]
CODES = [
    "empty_message",
    "message_too_long",
    "empty_title",
    "missing_token",
    "invalid_token",
    "token_expired",
    "unknown_user",
    "thread_not_found",
    "database_unavailable",
    "user_exists",
    "user_not_found",
    "invalid_email",
]
FRAMES = [
    "start",
    "text-start",
    "text-delta",
    "text-end",
    "data-sources",
    "data-toolStatus",
    "data-threadTitle",
    "finish",
    "[DONE]",
]


@pytest.mark.parametrize("name", sorted(AssistantSettings.model_fields))
def test_every_setting_is_documented(name: str) -> None:
    assert f"`{name}`" in DEVELOPER


@pytest.mark.parametrize("text", ENDPOINTS + CODES + FRAMES)
def test_endpoints_codes_and_frames_are_documented(text: str) -> None:
    assert text in DEVELOPER


@pytest.mark.parametrize("command", ["users create", "token create", "--platform-admin", "--ttl"])
def test_commands_are_documented_for_users_and_developers(command: str) -> None:
    assert command in USER
    assert command in DEVELOPER


def test_every_section_has_front_matter_and_standalone_headings() -> None:
    for text in (DEVELOPER, USER):
        assert text.startswith("---\ntitle: ")
        assert text.count("\n## ") >= 6
