"""The hardening battery's short mode, in CI: every category against a real server, zero
failures (``python -m bench.battery``; the full mode is documented in docs/hardening.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.browser
def test_battery_short_mode_has_no_failures() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bench.battery"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    lines = run.stdout.strip().splitlines()
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    assert lines[-1].startswith("total")
    assert "failures=0" in lines[-1]
    categories = {line.split()[0] for line in lines[:-1]}
    assert {
        "body_limit",
        "jwt",
        "postgres_hang",
        "pathological",
        "resume",
        "ownership",
        "kill9_rebuild",
        "redis",
        "shutdown",
        "xss_browser",
        "authz_matrix",
        "token_tampering",
        "schemathesis",
        "postgres_down",
    } <= categories
