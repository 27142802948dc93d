"""Battery category ``schemathesis``: the server's own ``/openapi.json`` fuzzed by
schemathesis for a bounded time (30 s short, 300 s full) as the signed-in battery user.

A failure is a 5xx, or a response that does not match its documented schema or content
type. Statuses the schema does not list (mostly 400/403/404 error answers, which the
OpenAPI document does not declare yet) are counted in the figure, not failed: see
docs/hardening.md."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.battery.categories import Mode, Result
from bench.battery.rig import Rig

CHECKS = (
    "not_a_server_error,response_schema_conformance,content_type_conformance,"
    "status_code_conformance"
)
REPORTED_ONLY = "Undocumented status code"  # status_code_conformance (ST103)
SUMMARY = re.compile(r"❌\s+(\S+)\s+(.+?):\s+(\d+)\s*$")


def schemathesis(rig: Rig, mode: Mode) -> Result:
    result = Result("schemathesis")
    seconds = 300 if mode.full else 30
    with tempfile.TemporaryDirectory(prefix="battery-schemathesis-") as tmp:
        command = [
            sys.executable, "-m", "schemathesis.cli", "run", f"{rig.url}/openapi.json",
            "--checks", CHECKS, "--max-time", str(seconds), "--workers", "2",
            "--request-timeout", "30", "--no-color",
            "-H", f"Authorization: {rig.headers['Authorization']}",
        ]  # fmt: skip
        run = subprocess.run(
            command, capture_output=True, text=True, timeout=seconds + 600, check=False,
            cwd=Path(tmp),
        )  # fmt: skip
    generated = re.findall(r"(\d+) generated", run.stdout)
    result.probes = int(generated[-1]) if generated else 0
    undocumented = 0
    for code, name, count in _summary(run.stdout):
        if name == REPORTED_ONLY:
            undocumented += count
        else:
            result.fail(f"{code} {name}: {count}")
    if run.returncode not in (0, 1) or not generated:
        result.fail(f"schemathesis exited {run.returncode}: {run.stderr[-200:]}")
    result.figure = (
        f"seconds={seconds} cases={result.probes} server_errors=0 "
        f"undocumented_statuses={undocumented}"
    )
    if result.failures:
        result.figure = f"seconds={seconds} cases={result.probes}"
    return result


def _summary(text: str) -> list[tuple[str, str, int]]:
    """The ``Failures:`` block of the run summary: (code, check name, count)."""
    block = text.split("Failures:", 1)[1] if "Failures:" in text else ""
    rows = []
    for line in block.splitlines():
        match = SUMMARY.search(line)
        if match:
            rows.append((match[1], match[2], int(match[3])))
        elif line.strip() and rows:
            break
    return rows
