"""How long ALTCHA's proof of work takes, in real Chromium and on the server.

Serves a bare page on 127.0.0.1 (a secure context) with askdocs's copy of the ALTCHA widget
(``askdocs/web/static/vendor/altcha``) and a challenge endpoint backed by
``askdocs.guard.altcha.AltchaCheck`` with the given cost and difficulty, then, ``--runs``
times, lets the widget fetch, solve and hand over a payload, timing challenge-to-payload
in the browser. Each payload is then verified by the server's check (fast path: no key
derivation), timed too. Prints one JSON line with the medians and p90s, the settings, the
browser's worker count and the 1-minute load average at the start.

    .venv/bin/python bench/altcha_solve.py --cost 1000 --max-number 10000 --runs 10
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
from playwright.sync_api import sync_playwright

from askdocs.guard.altcha import AltchaCheck, AltchaKeys, AltchaPolicy
from askdocs.guard.store_sqlite import SQLiteLimitsStore

VENDOR = Path(str(resources.files("askdocs.web").joinpath("static/vendor/altcha")))
TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}
PAGE = b"""<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/altcha.css"><script type="module">
await import("/altcha.js");
globalThis.$altcha.algorithms.set("PBKDF2/SHA-256", () => new Worker("/pbkdf2.js"));
window.solve = () => new Promise((resolve, reject) => {
  const widget = document.createElement("altcha-widget");
  widget.setAttribute("challenge", "/challenge");
  widget.setAttribute("auto", "onload");
  const started = performance.now();
  widget.addEventListener("verified", (e) => {
    resolve({ms: performance.now() - started, payload: e.detail.payload}); widget.remove();
  });
  widget.addEventListener("statechange", (e) => {
    if (e.detail.state === "error") reject(new Error("widget error"));
  });
  document.body.append(widget);
});
window.ready = true;
</script></head><body></body></html>"""


@contextmanager
def serving(check: AltchaCheck) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/challenge":
                body, kind = json.dumps(check.challenge("ask")).encode(), "application/json"
            elif self.path == "/":
                body, kind = PAGE, "text/html"
            else:
                file = VENDOR / self.path.lstrip("/")
                if file.suffix not in TYPES or not file.is_file():
                    self.send_error(404)
                    return
                body, kind = file.read_bytes(), TYPES[file.suffix]
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


async def verify_all(check: AltchaCheck, payloads: list[str]) -> list[float]:
    """The server's check of each payload (each accepted once), in milliseconds."""
    times = []
    for payload in payloads:
        started = time.perf_counter()
        await check.verify(payload, action="ask", hostnames=(), remote_ip=None)
        times.append((time.perf_counter() - started) * 1000)
    return times


def p90(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.9 + 0.5) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cost", type=int, default=1000)
    parser.add_argument("--max-number", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    store = SQLiteLimitsStore(Path(os.environ.get("TMPDIR", "/tmp")) / f"altcha-{os.getpid()}.db")
    keys = AltchaKeys(os.urandom(32), os.urandom(32))
    check = AltchaCheck(keys, AltchaPolicy(args.cost, args.max_number, 300, 5.0), store)
    solve_ms: list[float] = []
    payloads: list[str] = []
    with serving(check) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=["--headless"])
        page = browser.new_page()
        page.goto(url + "/")
        page.wait_for_function("window.ready === true")
        workers = page.evaluate("navigator.hardwareConcurrency")
        for _ in range(args.runs):
            done = page.evaluate("window.solve()")
            solve_ms.append(done["ms"])
            payloads.append(done["payload"])
        browser.close()
    verify_ms = anyio.run(verify_all, check, payloads)
    report = {
        "cost": args.cost,
        "max_number": args.max_number,
        "runs": args.runs,
        "browser_workers": workers,
        "solve_ms_p50": round(statistics.median(solve_ms)),
        "solve_ms_p90": round(p90(solve_ms)),
        "verify_ms_p50": round(statistics.median(verify_ms), 2),
        "verify_ms_p90": round(p90(verify_ms), 2),
        "load_1m": round(load, 2),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
