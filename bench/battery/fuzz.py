"""Battery category ``schemathesis``: the server's own ``/openapi.json`` fuzzed by
schemathesis for a bounded time (30 s short, 300 s full; ``--seconds``, ``--seed``) as the
signed-in battery user.

A failure is a 5xx, a response that does not match its documented schema or content type,
or a status the schema does not declare for that operation. Every failing case is printed
to stderr with schemathesis's curl reproduction and seed (``st replay ID`` replays it), and
the first few reproductions are the category's notes: see docs/hardening.md."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench.battery.categories import Mode, Result
from bench.battery.rig import Rig

CHECKS = "all"  # every check schemathesis has (issue #27, defect 11)
# What the document promises that schemathesis's defaults would not read from it: /readyz
# answers 503 (its ReadyResponse) while a site is not ready, a readiness answer and not a
# server error; redirects are answers of their own (the OpenID routes document their 303),
# never followed into another resource.
CONFIG = """\
[[operations]]
include-path = "/readyz"
include-method = "GET"
checks.not_a_server_error.expected-statuses = ["2xx", "3xx", "4xx", "503"]

# Stateful links from Location headers only: dependency analysis pairs a thread's nullable
# siteId with /api/v1/admin/sites/{siteId} and sends its null as the text "None", a request
# the document does not allow (the site-id pattern), reported as a valid one refused.
[phases.stateful.inference]
algorithms = ["location-headers"]
"""
UNDOCUMENTED = "Undocumented status code"  # status_code_conformance (ST103)
SUMMARY = re.compile(r"❌\s+(\S+)\s+(.+?):\s+(\d+)\s*$")
RULE = re.compile(r"^_{3,} (.+?) _{3,}$")


@dataclass
class Case:
    """One failing case of the ``FAILURES`` section: its operation, checks and curl line."""

    operation: str
    checks: list[str]
    received: str
    curl: str
    text: str


def schemathesis(rig: Rig, mode: Mode) -> Result:
    result = Result("schemathesis")
    seconds = mode.seconds or (300 if mode.full else 30)
    with tempfile.TemporaryDirectory(prefix="battery-schemathesis-") as tmp:
        (Path(tmp) / "schemathesis.toml").write_text(CONFIG, encoding="utf-8")
        command = [
            sys.executable, "-m", "schemathesis.cli", "--config-file", "schemathesis.toml",
            "run", f"{rig.url}/openapi.json", "--max-redirects", "0",
            "--checks", CHECKS, "--max-time", str(seconds), "--workers", "2",
            "--request-timeout", "30", "--no-color",
            "-H", f"Authorization: {rig.headers['Authorization']}",
            *(["--seed", str(mode.seed)] if mode.seed is not None else []),
        ]  # fmt: skip
        run = subprocess.run(
            command, capture_output=True, text=True, timeout=seconds + 600, check=False,
            cwd=Path(tmp),
        )  # fmt: skip
    generated = re.findall(r"(\d+) generated", run.stdout)
    result.probes = int(generated[-1]) if generated else 0
    seed = re.findall(r"^Seed: (\d+)", run.stdout, re.MULTILINE)
    cases = failing_cases(run.stdout)
    for code, name, count in _summary(run.stdout):
        result.fail(f"{code} {name}: {count}")
    for case in cases:
        print(f"schemathesis failing case (seed {seed[-1] if seed else '?'}):\n{case.text}",
              file=sys.stderr)  # fmt: skip
    result.notes = [*(result.notes or []), *(f"{c.received} {c.curl}" for c in cases)][:6]
    if run.returncode not in (0, 1) or not generated:
        result.fail(f"schemathesis exited {run.returncode}: {run.stderr[-200:]}")
    undocumented = sum(UNDOCUMENTED in " ".join(c.checks) for c in cases)
    server_errors = sum(c.received.startswith("5") for c in cases)
    result.figure = (
        f"seconds={seconds} seed={seed[-1] if seed else '?'} cases={result.probes} "
        f"server_errors={server_errors} undocumented_statuses={undocumented}"
    )
    return result


def failing_cases(text: str) -> list[Case]:
    """The cases of the ``FAILURES`` section, one per failing case."""
    if "= FAILURES =" not in text:
        return []
    section = text.split("= FAILURES =", 1)[1].split("\n====", 1)[0]
    cases: list[Case] = []
    operation, lines = "", []
    for line in [*section.splitlines(), "____ END ____"]:
        rule = RULE.match(line.strip())
        numbered = re.match(r"^\d+\. Test Case ID:", line)
        if rule or numbered:
            if lines and operation:
                cases.append(_case(operation, lines))
            lines = []
        if rule:
            operation = rule[1]
        elif line.strip():
            lines.append(line)
    return cases


def _case(operation: str, lines: list[str]) -> Case:
    checks = [line.strip()[2:] for line in lines if line.strip().startswith("- ST")]
    received = next((ln.split(":", 1)[1].strip() for ln in lines if "Received:" in ln), "")
    if not received:
        status = next((ln for ln in lines if re.match(r"^\[\d{3}\]", ln.strip())), "")
        received = status.strip()[1:4]
    curls = [ln.strip() for ln in lines if ln.strip().startswith("curl ")]
    curl = curls[-1] if curls else ""  # a stateful case's last step is the failing one
    text = "\n".join([f"{operation}", *lines])
    return Case(operation, checks, received, curl, text)


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
