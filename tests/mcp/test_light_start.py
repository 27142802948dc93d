"""MCP local mode over stdio starts without the stored parts (issue #18: the first answer
of a cold start waits for every import before it)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("sqlalchemy", "alembic", "psycopg", "askdocs.admin.api", "askdocs.db")


def test_local_stdio_mode_imports_no_database_layer() -> None:
    script = (
        "import sys; import askdocs.cli.mcp, askdocs.mcp.local, askdocs.core; "
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_users_package_still_offers_its_service() -> None:
    from askdocs.users import UserService
    from askdocs.users.service import UserService as Direct

    assert UserService is Direct
