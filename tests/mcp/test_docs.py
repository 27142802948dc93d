"""docs/user-guide/mcp.md mentions every MCP setting, command option and error code."""

from __future__ import annotations

from pathlib import Path

from askdocs.cli.mcp import mcp
from askdocs.devtools.error_scan import referenced_codes
from askdocs.settings import McpSettings

REPO = Path(__file__).resolve().parents[2]
PAGE = (REPO / "docs" / "user-guide" / "mcp.md").read_text(encoding="utf-8")


def test_every_setting_is_documented() -> None:
    missing = [name for name in McpSettings.model_fields if f"mcp.{name}" not in PAGE]
    assert missing == []


def test_every_option_and_variable_is_documented() -> None:
    names = [opt for param in mcp.params for opt in getattr(param, "opts", ())]
    names += ["MCP_TRANSPORT", "MCP_PORT", "ASKDOCS_API_URL", "ASKDOCS_MCP_TOKEN"]
    assert [name for name in names if name not in PAGE] == []


def test_every_error_code_is_documented() -> None:
    codes = {code.value for code in referenced_codes([REPO / "src" / "askdocs" / "mcp"])}
    assert codes
    assert sorted(code for code in codes if f"`{code}`" not in PAGE) == []
