"""Time to first byte of /api/ask (extractive) and /api/search under concurrent clients.

Starts a real ``askdocs serve`` on a free loopback port over askdocs's own docs (limits raised
through the environment, no chat model: extractive answers), waits for the background index,
then runs ``--clients`` concurrent clients for ``--requests`` requests per endpoint.

    .venv/bin/python bench/ask_load.py [--clients 20] [--requests 400] [--data-dir DIR]

Prints p50/p99 time to first byte, errors and throughput per endpoint, and a JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

QUESTIONS = [
    "How do I add a second documentation site?",
    "How does Ask AI decide which sources to cite?",
    "What happens when Redis is down?",
    "How do I configure a chat model provider?",
    "How do I run askdocs behind a reverse proxy?",
    "Which settings control the daily limits?",
    "How do I index a folder of Markdown?",
    "How does hybrid search combine keyword and semantic results?",
    "How do I turn on the Turnstile bot check?",
    "What does the readyz endpoint report?",
]
LIMITS = {
    "ASKDOCS_ASK__BURST_PER_MINUTE": "100000000",
    "ASKDOCS_ASK__DAILY_VISITOR_LIMIT": "100000000",
    "ASKDOCS_ASK__DAILY_SITE_LIMIT": "100000000",
    "ASKDOCS_ASK__DAILY_GLOBAL_LIMIT": "100000000",
}


@dataclass
class Run:
    ttfb: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self, name: str) -> dict[str, object]:
        ordered = sorted(self.ttfb)

        def pct(p: float) -> float:
            return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1)

        return {
            "endpoint": name,
            "ok": len(ordered),
            "errors": self.errors,
            "ttfb_p50_ms": pct(0.50) if ordered else None,
            "ttfb_p99_ms": pct(0.99) if ordered else None,
            "ttfb_mean_ms": round(1000 * statistics.fmean(ordered), 1) if ordered else None,
            "requests_per_second": round(len(ordered) / self.seconds, 1) if self.seconds else None,
        }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKDOCS_")}
    env |= LIMITS | {"ASKDOCS_CHAT__PROVIDER": "none"}
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "serve"]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(command, env=env)


def wait_ready(base: str, process: subprocess.Popen[bytes], timeout: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if process.poll() is not None:
            raise SystemExit(f"askdocs serve exited with {process.returncode}")
        try:
            if httpx.get(base + "/readyz", timeout=2).status_code == 200:
                return time.monotonic() - started
        except httpx.TransportError:
            pass
        time.sleep(0.25)
    raise SystemExit("the server did not become ready in time")


async def one(client: httpx.AsyncClient, method: str, url: str, run: Run, **kw: object) -> None:
    started = time.perf_counter()
    async with client.stream(method, url, **kw) as response:  # type: ignore[arg-type]
        first = None
        async for _ in response.aiter_raw():
            first = first or time.perf_counter()
        if response.status_code != 200:
            key = str(response.status_code)
            run.errors[key] = run.errors.get(key, 0) + 1
            return
        run.ttfb.append((first or time.perf_counter()) - started)


async def load(base: str, clients: int, requests: int, kind: str) -> Run:
    run = Run()
    queue: asyncio.Queue[int] = asyncio.Queue()
    for index in range(requests):
        queue.put_nowait(index)

    async def worker(client: httpx.AsyncClient) -> None:
        while not queue.empty():
            index = queue.get_nowait()
            question = QUESTIONS[index % len(QUESTIONS)]
            if kind == "ask":
                body = {"token": "", "messages": [{"role": "user", "content": question}]}
                await one(client, "POST", base + "/api/ask", run, json=body)
            else:
                await one(client, "GET", base + "/api/search", run, params={"q": question})

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        started = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(clients)))
        run.seconds = time.perf_counter() - started
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--ready-timeout", type=float, default=600.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = args.data_dir or Path(tmp) / "data"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        process = start_server(data_dir, port)
        try:
            ready = wait_ready(base, process, args.ready_timeout)
            print(f"ready after {ready:.1f} s (background index of askdocs's docs)")
            asyncio.run(load(base, args.clients, 40, "search"))  # warm-up
            results = [
                asyncio.run(load(base, args.clients, args.requests, kind)).summary(name)
                for kind, name in (("ask", "/api/ask (extractive)"), ("search", "/api/search"))
            ]
        finally:
            process.terminate()
            process.wait(30)
    for result in results:
        print(
            f"{result['endpoint']:<24} p50 {result['ttfb_p50_ms']} ms  p99 "
            f"{result['ttfb_p99_ms']} ms  ok {result['ok']}  errors {result['errors']}  "
            f"{result['requests_per_second']} req/s"
        )
    print(json.dumps({"clients": args.clients, "results": results}))


if __name__ == "__main__":
    main()
