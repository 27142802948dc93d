"""``python -m bench.battery [--full]``: run every category, one line each, exit 1 on any
failure. See the package docstring and docs/hardening.md."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import traceback
from pathlib import Path

from bench.battery.authz import AUTHZ_CATEGORIES
from bench.battery.browser import xss_browser
from bench.battery.categories import SERVER_CATEGORIES, Mode, Result
from bench.battery.database import postgres_down
from bench.battery.fuzz import schemathesis
from bench.battery.mcp import mcp
from bench.battery.offline import OFFLINE_CATEGORIES
from bench.battery.pathological import pathological
from bench.battery.private import feedback_invitations, private_sites
from bench.battery.rig import started
from bench.battery.signin import csrf, sessions, sign_in
from bench.battery.sso import open_redirects, sso

# issue #27: the new surfaces (sign-in, single sign-on, sessions, organisations, MCP)
SURFACE_CATEGORIES = [
    pathological, sign_in, csrf, sessions, sso, open_redirects, private_sites,
    feedback_invitations, mcp,
]  # fmt: skip


def run(mode: Mode, only: set[str] | None = None) -> list[Result]:
    results: list[Result] = []

    def report(result: Result) -> None:
        results.append(result)
        print(result.line(), flush=True)

    for offline in OFFLINE_CATEGORIES:
        if only is None or offline.__name__ in only:
            report(_safely(offline.__name__, lambda run=offline: run(mode)))
    with tempfile.TemporaryDirectory(prefix="askdocs-battery-") as tmp, started(Path(tmp)) as rig:
        last = [xss_browser, *AUTHZ_CATEGORIES, schemathesis, postgres_down]  # this one stops it
        for category in [*SERVER_CATEGORIES, *SURFACE_CATEGORIES, *last]:
            if only is None or category.__name__ in only:
                report(_safely(category.__name__, lambda run=category: run(rig, mode)))
    return results


def _safely(name: str, call) -> Result:  # type: ignore[no-untyped-def]
    try:
        result: Result = call()
    except Exception as exc:  # a crashed category is a failed category
        traceback.print_exc(file=sys.stderr)
        result = Result(name)
        result.fail(f"crashed: {type(exc).__name__}: {exc}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.battery", description=__doc__)
    parser.add_argument("--full", action="store_true", help="full sizes (see docs/hardening.md)")
    parser.add_argument("--only", action="append", help="run only this category (repeatable)")
    parser.add_argument("--json", action="store_true", help="also print a JSON summary line")
    parser.add_argument("--seconds", type=int, help="schemathesis's time (30 short, 300 full)")
    parser.add_argument("--seed", type=int, help="schemathesis's seed (random by default)")
    args = parser.parse_args(argv)
    mode = Mode(full=args.full, seconds=args.seconds, seed=args.seed)
    results = run(mode, set(args.only) if args.only else None)
    failures = sum(r.failures for r in results)
    print(f"{'total':<14} probes={sum(r.probes for r in results):<5} failures={failures}")
    if args.json:
        print(json.dumps({r.category: {"probes": r.probes, "failures": r.failures,
                                       "figure": r.figure} for r in results}))  # fmt: skip
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
