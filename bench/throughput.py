"""``/api/search`` throughput and latency of two servers side by side, interleaved in one run.

usage: python bench/throughput.py --before-src SRC --before-data DIR --before-site ID
                                  --after-data DIR --after-site ID
                                  [--clients 1 8] [--seconds 8] [--rounds 3] [--json]

Starts two real ``askdocs serve`` processes on free loopback ports: *before* runs the source
tree ``--before-src`` (a ``src`` folder of an older commit, put first on ``PYTHONPATH``),
*after* runs this checkout (or ``--after-src``); ``--before-env`` / ``--after-env`` add
settings (``KEY=VALUE``). Each serves its own data dir, already indexed (background indexing
is off, so nothing but searches runs). The query cache is off in both
(``embedding.query_cache_size = 0``): the loop repeats the fastapi dev-set questions, and
every request must pay for its query embedding.

Then, ``--rounds`` times, for each client count, each server gets ``--seconds`` of load
(the order of the two servers alternates between rounds, so a change in the machine's load
hits both alike). The load generator (``--client raw``, the default) keeps one HTTP/1.1
connection per client and reads each response by its ``Content-Length``: it costs a fraction
of a millisecond per request, where ``--client httpx`` costs some 10 ms of the same two
cores and caps what either server can show. Reported per server and client count:
requests/s (median of the rounds),
p50 and p99 latency over all rounds, the CPU per request of the server and its worker
processes (``/proc/PID/stat``) and of the load generator,
the load average during the runs, and the after/before ratios. The CPU per request is the
figure that survives a busy machine; requests/s and latencies are only comparable within
one run.

Also reported per server: the first search after ``/readyz`` said ready (ms) and the
server's resident memory (``VmRSS``) and peak (``VmHWM``) after all the load, i.e. after
far more than 200 searches (MB).

``--in-process`` also times ``AskDocs.search`` on the after data dir in this process (CPU
per search), so the HTTP overhead is the ratio of the two CPU figures.
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
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import httpx

from askdocs.search.evalset import parse_questions
from shared_data import require, shared

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = shared("eval", "fastapi-docs-dev.jsonl")
DOCS = shared("corpora", "fastapi-docs")
TICKS = os.sysconf("SC_CLK_TCK")
ENV = {
    "ASKDOCS_CHAT__PROVIDER": "none",
    "ASKDOCS_SERVER__INDEX_IN_BACKGROUND": "false",
    "ASKDOCS_EMBEDDING__QUERY_CACHE_SIZE": "0",
}


@dataclass
class Server:
    name: str
    site: str
    process: subprocess.Popen[bytes]
    base: str

    def memory_mb(self) -> dict[str, float]:
        return memory_of(self.process.pid)

    def cpu_seconds(self) -> float:
        """CPU of the server and its worker processes (search, parse and render workers;
        ended children count through ``cutime`` + ``cstime``)."""
        return sum(_cpu(pid) for pid in _tree(self.process.pid))


def memory_of(pid: int) -> dict[str, float]:
    """``VmRSS`` and ``VmHWM`` of a server process, and ``VmRSS`` of it with its worker
    processes (``tree_VmRSS``), in MB."""
    found: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = round(int(value.split()[0]) / 1024, 1)
    found["tree_VmRSS"] = round(sum(_rss_kb(child) for child in _tree(pid)) / 1024, 1)
    return found


def _tree(pid: int) -> list[int]:
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in task.read_text().split():
            found += _tree(int(child))
    return found


def _rss_kb(pid: int) -> int:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except FileNotFoundError:
        return 0
    return next((int(line.split()[1]) for line in lines if line.startswith("VmRSS:")), 0)


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / TICKS  # utime stime cutime cstime


@dataclass
class Cell:
    """One server at one client count, over all rounds."""

    rates: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    cpu: float = 0.0
    client_cpu: float = 0.0
    requests: int = 0
    errors: int = 0
    loads: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, float | int]:
        ordered = sorted(self.latencies)

        def pct(p: float) -> float:
            return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1)

        return {
            "req_per_s": round(statistics.median(self.rates), 1),
            "p50_ms": pct(0.50),
            "p99_ms": pct(0.99),
            "cpu_ms_per_req": round(1000 * self.cpu / max(self.requests, 1), 2),
            "client_cpu_ms_per_req": round(1000 * self.client_cpu / max(self.requests, 1), 2),
            "requests": self.requests,
            "errors": self.errors,
            "load_avg": round(statistics.fmean(self.loads), 1),
        }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def site_json(site: str, docs: Path) -> str:
    return json.dumps([{"id": site, "roots": [{"path": str(docs.resolve())}]}])


def start(name: str, src: Path, data_dir: Path, site: str, docs: Path, extra: list[str]) -> Server:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKDOCS_")} | ENV
    env |= dict(pair.split("=", 1) for pair in extra)
    env["ASKDOCS_SITES"] = site_json(site, docs)  # the site as each data dir indexed it
    env["PYTHONPATH"] = str(src)
    port = free_port()
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "serve"]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    return Server(name, site, process, f"http://127.0.0.1:{port}")


def wait_ready(server: Server, timeout: float = 300.0) -> None:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if server.process.poll() is not None:
            raise SystemExit(
                f"{server.name}: askdocs serve exited with {server.process.returncode}"
            )
        try:
            if httpx.get(server.base + "/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"{server.name}: not ready after {timeout} s")


async def load(
    server: Server, clients: int, seconds: float, questions: list[str], raw: bool = True
) -> Cell:
    cell = Cell()
    deadline = time.perf_counter() + seconds
    counter = iter(range(10**9))
    paths = [
        "/api/search?" + urlencode({"q": question, "site": server.site}) for question in questions
    ]
    cpu, mine = server.cpu_seconds(), time.process_time()
    began = time.perf_counter()
    if raw:
        await asyncio.gather(
            *(raw_worker(server, paths, counter, deadline, cell) for _ in range(clients))
        )
    else:
        limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
        async with httpx.AsyncClient(timeout=60, limits=limits) as client:
            await asyncio.gather(
                *(
                    httpx_worker(client, server, paths, counter, deadline, cell)
                    for _ in range(clients)
                )
            )
    elapsed = time.perf_counter() - began
    cell.cpu = server.cpu_seconds() - cpu
    cell.client_cpu = time.process_time() - mine
    cell.requests = len(cell.latencies)
    cell.rates.append(cell.requests / elapsed)
    cell.loads.append(os.getloadavg()[0])
    return cell


async def httpx_worker(
    client: httpx.AsyncClient,
    server: Server,
    paths: list[str],
    counter: Iterator[int],
    deadline: float,
    cell: Cell,
) -> None:
    while time.perf_counter() < deadline:
        path = paths[next(counter) % len(paths)]
        began = time.perf_counter()
        response = await client.get(server.base + path)
        if response.status_code != 200:
            cell.errors += 1
            continue
        cell.latencies.append(time.perf_counter() - began)


async def raw_worker(
    server: Server, paths: list[str], counter: Iterator[int], deadline: float, cell: Cell
) -> None:
    """One keep-alive HTTP/1.1 connection that sends GETs and reads each whole response
    (status line, headers, ``Content-Length`` body) with next to no client-side work, so
    the load generator takes little of the CPU the server is measured on."""
    host, port = server.base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        while time.perf_counter() < deadline:
            path = paths[next(counter) % len(paths)]
            began = time.perf_counter()
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
            if not head.startswith(b"HTTP/1.1 200"):
                cell.errors += 1
                continue
            cell.latencies.append(time.perf_counter() - began)
    finally:
        writer.close()


def first_search_ms(server: Server, question: str) -> float:
    """The first ``/api/search`` right after ``/readyz`` said ready."""
    began = time.perf_counter()
    response = httpx.get(
        server.base + "/api/search", params={"q": question, "site": server.site}, timeout=60
    )
    response.raise_for_status()
    return round(1000 * (time.perf_counter() - began), 1)


def merge(into: Cell, one: Cell) -> None:
    into.rates += one.rates
    into.latencies += one.latencies
    into.cpu += one.cpu
    into.client_cpu += one.client_cpu
    into.requests += one.requests
    into.errors += one.errors
    into.loads += one.loads


def in_process(data_dir: Path, site: str, docs: Path, questions: list[str], count: int) -> float:
    """Median CPU ms per ``AskDocs.search`` in this process (the after code)."""
    from askdocs.service import AskDocs
    from askdocs.settings import SiteConfig, load_settings

    settings = load_settings(data_dir=data_dir, embedding={"query_cache_size": 0})
    config = SiteConfig.model_validate(json.loads(site_json(site, docs))[0])
    service = AskDocs(settings, [config])
    try:
        service.search(questions[0], site=site)  # loads the model
        times = []
        for index in range(count):
            began = time.process_time()
            service.search(questions[index % len(questions)], site=site)
            times.append(time.process_time() - began)
    finally:
        service.close()
    return round(1000 * statistics.median(times), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before-src", type=Path, required=True)
    parser.add_argument("--before-data", type=Path, required=True)
    parser.add_argument("--before-site", required=True)
    parser.add_argument("--after-data", type=Path, required=True)
    parser.add_argument("--after-site", required=True)
    parser.add_argument("--before-env", nargs="*", default=[], help="KEY=VALUE for before")
    parser.add_argument("--after-env", nargs="*", default=[], help="KEY=VALUE for after")
    parser.add_argument("--after-src", type=Path, default=REPO / "src")
    parser.add_argument("--docs", type=Path, default=DOCS, help="the docs both data dirs index")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--in-process", type=int, default=0, help="searches timed in-process")
    parser.add_argument(
        "--client",
        choices=["raw", "httpx"],
        default="raw",
        help="load generator: raw keep-alive HTTP/1.1 (little client CPU) or httpx",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    require(QUESTIONS, args.docs)
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    questions = [q.question for q in parse_questions(lines, str(QUESTIONS))]
    servers = [
        start(
            "before",
            args.before_src,
            args.before_data,
            args.before_site,
            args.docs,
            args.before_env,
        ),
        start("after", args.after_src, args.after_data, args.after_site, args.docs, args.after_env),
    ]
    cells: dict[tuple[str, int], Cell] = {}
    first: dict[str, float] = {}
    memory: dict[str, dict[str, float]] = {}
    try:
        for server in servers:
            wait_ready(server)
            first[server.name] = first_search_ms(server, questions[0])
            asyncio.run(
                load(server, 2, 3.0, questions, args.client == "raw")
            )  # warm-up: model loaded, caches hot
        for round_ in range(args.rounds):
            order = servers if round_ % 2 == 0 else servers[::-1]
            for clients in args.clients:
                for server in order:
                    one = asyncio.run(
                        load(server, clients, args.seconds, questions, args.client == "raw")
                    )
                    merge(cells.setdefault((server.name, clients), Cell()), one)
        memory = {server.name: server.memory_mb() for server in servers}
    finally:
        for server in servers:
            server.process.terminate()
            server.process.wait(30)
    report = summarize(cells, args.clients)
    report["first_search_ms"] = first
    report["memory_mb_after_load"] = memory
    if args.in_process:
        cpu = in_process(args.after_data, args.after_site, args.docs, questions, args.in_process)
        report["in_process_cpu_ms_per_search"] = cpu
    print(json.dumps(report, indent=2) if args.json else text(report, args.clients))


def summarize(cells: dict[tuple[str, int], Cell], counts: list[int]) -> dict[str, object]:
    rows = {f"{name}/{n}": cells[(name, n)].summary() for name, n in sorted(cells)}
    ratios = {}
    for n in counts:
        before, after = rows[f"before/{n}"], rows[f"after/{n}"]
        ratios[str(n)] = {
            key: round(float(after[key]) / float(before[key]), 2)
            for key in ("req_per_s", "p50_ms", "p99_ms", "cpu_ms_per_req")
        }
    return {"cpus": os.cpu_count(), "rows": rows, "after_over_before": ratios}


def text(report: dict[str, object], counts: list[int]) -> str:
    rows = report["rows"]
    assert isinstance(rows, dict)
    head = "server/clients   req/s    p50 ms   p99 ms  p99/p50  CPU ms/req  client ms/req"
    lines = [head + "  load  errors"]
    for key, row in rows.items():
        lines.append(
            f"{key:<14} {row['req_per_s']:>7} {row['p50_ms']:>9} {row['p99_ms']:>8} "
            f"{row['p99_ms'] / row['p50_ms']:>8.2f} {row['cpu_ms_per_req']:>11} "
            f"{row['client_cpu_ms_per_req']:>14} {row['load_avg']:>5} {row['errors']:>7}"
        )
    lines.append("after/before: " + json.dumps(report["after_over_before"]))
    lines.append(f"first search after /readyz (ms): {json.dumps(report['first_search_ms'])}")
    lines.append(f"memory after load (MB): {json.dumps(report['memory_mb_after_load'])}")
    if "in_process_cpu_ms_per_search" in report:
        lines.append(f"in-process CPU ms/search (after): {report['in_process_cpu_ms_per_search']}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
