"""The docs name every setting, endpoint and error code this area adds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from askdocs.devtools.error_scan import referenced_codes
from askdocs.settings import AskSettings, BotCheckSettings, ChatSettings, ServerSettings

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src/askdocs"
MINE = ("ask", "search", "ready", "turnstile", "health")
SOURCES = [
    *(PACKAGE / part for part in ("guard", "answer", "llm")),
    *(PACKAGE / "server/routes" / f"{name}.py" for name in MINE),
    PACKAGE / "server/errors.py",
    PACKAGE / "server/deps.py",
]
API_DOC = (REPO / "docs/http-api.md").read_text(encoding="utf-8")
ALL_DOCS = API_DOC + "".join(
    (REPO / "docs" / name).read_text(encoding="utf-8")
    for name in ("deployment.md", "llm.md", "user-guide/ask-ai.md")
)


def error_codes() -> set[str]:
    return {code.value for code in referenced_codes(SOURCES)}


def test_codes_are_found() -> None:
    assert {"limits_unavailable", "too_many_messages", "burst_limit"} <= error_codes()


@pytest.mark.parametrize("code", sorted(error_codes()))
def test_every_error_code_is_in_the_api_reference(code: str) -> None:
    assert f"`{code}`" in API_DOC or f"{code}`" in API_DOC


@pytest.mark.parametrize(
    "name",
    sorted(
        {*ServerSettings.model_fields, *AskSettings.model_fields}
        | {*BotCheckSettings.model_fields, *ChatSettings.model_fields}
    ),
)
def test_every_setting_is_documented(name: str) -> None:
    assert name in ALL_DOCS


@pytest.mark.parametrize(
    "endpoint", ["/healthz", "/readyz", "/api/search", "/api/ask", "/askdocs-turnstile"]
)
def test_every_endpoint_has_a_section(endpoint: str) -> None:
    assert re.search(rf"^## (GET|POST) {re.escape(endpoint)}$", API_DOC, re.MULTILINE)
