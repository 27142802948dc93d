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
        "sign_in",
        "csrf",
        "sessions",
        "sso",
        "open_redirects",
        "private_sites",
        "feedback_invitations",
        "mcp",
    } <= categories


SCHEMATHESIS_FAILURES = """\
=================================== FAILURES ===================================
_______________________ GET /api/v1/admin/schemas/{operation} ______________________
1. Test Case ID: M9D3mp

- ST103 Undocumented status code

    Received: 404
    Documented: 200, 400

Reproduce with:

    curl -X GET -H 'Authorization: [Filtered]' http://127.0.0.1:1/api/v1/admin/schemas/0

    st replay M9D3mp

________________________________ Stateful tests ________________________________
1. Test Case ID: l3imZ2

- ST101 Server error

[500] Internal Server Error:

Reproduce with:

    curl -X GET http://127.0.0.1:1/api/v1/auth/me
    curl -X POST -d '{"x": 1}' http://127.0.0.1:1/api/v1/auth/sign-in

==================================== SUMMARY ===================================
"""


def test_schemathesis_failing_cases_are_attributed() -> None:
    """The unattributed ST101 of the last CI run: each failing case now names its request."""
    from bench.battery.fuzz import failing_cases

    cases = failing_cases(SCHEMATHESIS_FAILURES)
    assert [(c.operation, c.received) for c in cases] == [
        ("GET /api/v1/admin/schemas/{operation}", "404"),
        ("Stateful tests", "500"),
    ]
    assert cases[0].checks == ["ST103 Undocumented status code"]
    assert cases[1].curl.startswith("curl -X POST")  # the failing (last) step
