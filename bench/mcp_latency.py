"""Latency of ``askdocs mcp`` in local mode, measured through the official MCP stdio client.

Starts ``askdocs mcp --docs DOCS`` exactly as an MCP host would (a fresh data dir unless
``--data-dir`` is given), then reports:

- handshake: spawn + initialize + tools/list;
- first call: from the handshake to the first successful ``search_docs`` (a cold index
  answers keyword-only from BM25 while the vectors are built; retried while the server
  answers ``index_building``), with its mode and note;
- hybrid: from the handshake until a search answers in ``hybrid`` mode (polled every
  ``--poll`` seconds);
- warm calls: p50 / max of ``--warm`` more searches (hybrid);
- restart: a second process on the same data dir, handshake to first answer (incremental);
- server_cpu_s: CPU (user + system) of the server process and its workers over the whole
  session, start to exit, with the 1-minute load average at its start (the machine's other
  work slows wall times, not CPU). With ``--first-only`` the session ends right after the
  first answer, so this is about the CPU the first answer cost.

It also checks that the question cites the expected page, and exits 1 when it does not.

    .venv/bin/python bench/mcp_latency.py --docs ../shared/corpora/fastapi-docs
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp.client.stdio import StdioServerParameters

from mcp import Client

QUERY = "How do I allow credentialed cross-origin requests (cookies) from a browser?"
EXPECTED = "tutorial/cors.md"


def server(docs: Path, data_dir: Path) -> Client:
    keep = ("PATH", "HOME", "LANG", "PYTHONPATH")  # PYTHONPATH: measure this checkout's src
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env["ASKDOCS_DATA_DIR"] = str(data_dir)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "askdocs", "mcp", "--docs", str(docs)], env=env
    )
    return Client(params, read_timeout_seconds=120)


async def search(client: Client) -> dict[str, Any] | None:
    result = await client.call_tool("search_docs", {"query": QUERY, "limit": 5})
    if result.is_error:
        text = result.content[0].text  # type: ignore[union-attr]
        if "[index_building]" not in text:
            raise RuntimeError(text)
        print(f"  still indexing: {text.split(': ', 1)[-1][:80]}", file=sys.stderr)
        return None
    found: dict[str, Any] | None = result.structured_content
    assert found is not None
    return found


async def first_answer(client: Client, limit_s: float) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    while time.perf_counter() - started < limit_s:
        found = await search(client)
        if found is not None:
            return time.perf_counter() - started, found
    raise RuntimeError(f"no answer within {limit_s} s")


async def until_hybrid(
    client: Client, found: dict[str, Any], limit_s: float, poll_s: float
) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    while found["mode"] != "hybrid":
        if time.perf_counter() - started > limit_s:
            raise RuntimeError(f"still {found['mode']} after {limit_s} s")
        await anyio.sleep(poll_s)
        found = await search(client) or found
    return time.perf_counter() - started, found


async def run_once(
    docs: Path, data_dir: Path, warm: int, limit_s: float, poll_s: float = 5.0
) -> dict[str, Any]:
    """``poll_s`` 0: stop after the first answer (no wait for hybrid, no warm calls)."""
    started = time.perf_counter()
    load = os.getloadavg()[0]
    children = _children_cpu()
    async with server(docs, data_dir) as client:
        tools = [tool.name for tool in (await client.list_tools()).tools]
        handshake = time.perf_counter() - started
        first, found = await first_answer(client, limit_s)
        first_mode, first_note = found["mode"], found.get("note")
        first_paths = [hit["citation"]["path"] for hit in found["hits"]]
        waited, found = (
            await until_hybrid(client, found, limit_s, poll_s) if poll_s else (0.0, found)
        )
        times = []
        for _ in range(warm if poll_s else 0):
            begun = time.perf_counter()
            await search(client)
            times.append(time.perf_counter() - begun)
    paths = [hit["citation"]["path"] for hit in found["hits"]]
    return {
        "load_1min": round(load, 1),
        "server_cpu_s": round(_children_cpu() - children, 2),
        "tools": tools,
        "handshake_s": round(handshake, 2),
        "first_call_s": round(first, 2),
        "first_mode": first_mode,
        "first_note": first_note,
        "first_top_paths": first_paths,
        "hybrid_after_s": round(first + waited, 1) if found["mode"] == "hybrid" else None,
        "warm_p50_ms": round(1000 * statistics.median(times), 1) if times else None,
        "warm_max_ms": round(1000 * max(times), 1) if times else None,
        "top_paths": paths,
        "top_citation": found["hits"][0]["citation"] if found["hits"] else None,
    }


def _children_cpu() -> float:
    """User + system CPU of the ended server processes (and their workers)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--warm", type=int, default=10)
    parser.add_argument("--limit", type=float, default=900.0, help="give up after (s)")
    parser.add_argument(
        "--first-only",
        action="store_true",
        help="measure the cold first call only (no wait for the vectors, no restart)",
    )
    args = parser.parse_args()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="askdocs-mcp-bench-"))
    if args.first_only:
        first = anyio.run(run_once, args.docs.resolve(), data_dir, 0, args.limit, 0.0)
        print(json.dumps({"query": QUERY, "cold": first}, indent=2))
        sys.exit(0 if EXPECTED in first["first_top_paths"][:3] else 1)
    cold = anyio.run(run_once, args.docs.resolve(), data_dir, args.warm, args.limit)
    restart = anyio.run(run_once, args.docs.resolve(), data_dir, 3, args.limit)
    report = {"query": QUERY, "data_dir": str(data_dir), "cold": cold, "restart": restart}
    print(json.dumps(report, indent=2))
    cited = all(
        EXPECTED in paths[:3]
        for paths in (cold["first_top_paths"], cold["top_paths"], restart["top_paths"])
    )
    print(f"{EXPECTED} cited in the top 3: {cited}", file=sys.stderr)
    sys.exit(0 if cited else 1)


if __name__ == "__main__":
    main()
