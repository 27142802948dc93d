"""The docs name every admin setting, endpoint, error code and tool."""

from __future__ import annotations

from pathlib import Path

import pytest

from askdocs.admin.reference import render
from askdocs.admin.table import TABLE, grantable_tools
from askdocs.devtools.error_scan import referenced_codes
from askdocs.server.routes.admin import router
from askdocs.settings import AdminSettings

REPO = Path(__file__).resolve().parents[2]
DEV = (REPO / "docs/admin-tools.md").read_text(encoding="utf-8")
USER = (REPO / "docs/user-guide/assistant-tools.md").read_text(encoding="utf-8")
SOURCES = [
    REPO / "src/askdocs/admin",
    REPO / "src/askdocs/confirm",
    REPO / "src/askdocs/server/routes/admin.py",
]


def codes() -> set[str]:
    return {code.value for code in referenced_codes(SOURCES)}


def test_codes_are_found() -> None:
    assert {"admin_required", "confirmation_invalid", "reindex_rate_limited"} <= codes()


@pytest.mark.parametrize("code", sorted(codes()))
def test_every_error_code_is_documented(code: str) -> None:
    assert f"`{code}`" in DEV


@pytest.mark.parametrize("name", sorted(AdminSettings.model_fields))
def test_every_setting_is_documented(name: str) -> None:
    assert f"`{name}`" in DEV


@pytest.mark.parametrize("path", sorted({route.path for route in router.routes}))  # type: ignore[attr-defined]
def test_every_endpoint_is_documented(path: str) -> None:
    assert path.replace("{path:path}", "{path}") in DEV


@pytest.mark.parametrize("tool", grantable_tools())
def test_every_tool_is_documented_for_developers_and_users(tool: str) -> None:
    assert f"`{tool}`" in DEV
    assert f"`{tool}`" in USER


def test_every_section_starts_on_its_own() -> None:
    for text in (DEV, USER):
        assert text.startswith("---\ntitle: ")
        assert text.count("\n## ") >= 6


def test_the_operations_table_is_generated_from_the_table() -> None:
    assert render(DEV) == DEV, "run: python -m askdocs.admin.reference --write"
    assert all(f"| `{op.name}` |" in DEV for op in TABLE)
