"""Throughput through the TLS proxy with 1 and 2 replicas (issue #26): ``/api/search`` and
``/api/ask``, and the time an admin change takes to reach the other replica.

usage: python bench/replicas.py [--docs DIR] [--clients 8] [--seconds 10] [--rounds 2]
                                [--embedding local|none] [--propagation-wait 30] [--json]

Starts the test rig (``tests/rig``: private PostgreSQL and Redis, two ``askdocs serve``
replicas, nginx terminating TLS and balancing round-robin) over one site of ``--docs``
(default: the trimmed fastapi docs in tests/data), and a second nginx, configured alike,
in front of replica a alone. Once both replicas have indexed the site (each its own local
index), each round gives every endpoint ``--seconds`` of load through the one-replica proxy
and through the two-replica proxy (their order alternates between rounds). The load
generator keeps ``--clients`` keep-alive TLS connections and reads each response whole
(``Content-Length`` or chunked) with next to no work of its own. Ask AI answers
extractively (no chat model), with limits raised out of the way.

Reported per endpoint and topology: requests/s (median of the rounds), p50/p99 latency,
errors, and the CPU per request of each process (replica a and b with their workers, nginx,
the load generator), plus the 2/1 ratio. Both replicas share the same 2 cores as nginx,
PostgreSQL, Redis and the load generator, so a second replica on this machine can at best
use what the first left idle: the ratio shows what a second host would add only where one
process could not use both cores (the GIL). Requests/s are comparable within one run only.

The admin-change time: an organisation site is created on replica a (its own address, a
bearer token), and replica b is polled (``/readyz?site=``) until it knows the site; the
seconds (within ``server.change_poll_seconds``, 2 s, plus the re-read), or ``null`` when b
never saw it within ``--propagation-wait``. One sample; ``bench/propagation.py`` gives the
distribution over many rounds, both ways.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import ssl
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.rig.nginx import Nginx, running_nginx
from tests.rig.rig import ROOT_EMAIL, Replica, Rig, running_rig
from tests.support.process import free_port

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "tests" / "data" / "fastapi-docs"
SITE = "bench"
HOST = "bench.test"  # the bench site's host name: Ask AI picks its site by host
TICKS = os.sysconf("SC_CLK_TCK")
QUESTIONS = [
    "How do I declare a path parameter?",
    "How do I add query parameters with default values?",
    "How do I return a custom status code?",
    "How do I read the request body as a Pydantic model?",
    "How do I add a dependency to a path operation?",
    "How do I handle errors with HTTPException?",
    "How do I serve static files?",
    "How do I set up CORS?",
]
UNLIMITED = str(10**9)


@dataclass
class Cell:
    """One endpoint through one proxy, over all rounds."""

    rates: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    cpu: dict[str, float] = field(default_factory=dict)

    def summary(self) -> dict[str, object]:
        ordered = sorted(self.latencies) or [0.0]

        def pct(p: float) -> float:
            return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1)

        requests = max(len(self.latencies), 1)
        return {
            "req_per_s": round(statistics.median(self.rates), 1) if self.rates else 0.0,
            "p50_ms": pct(0.5),
            "p99_ms": pct(0.99),
            "requests": len(self.latencies),
            "errors": self.errors,
            "cpu_ms_per_req": {k: round(1000 * v / requests, 2) for k, v in self.cpu.items()},
        }


def tree(pid: int) -> list[int]:
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            children = task.read_text().split()
        except OSError:
            continue
        for child in children:
            found += tree(int(child))
    return found


def cpu_of(pid: int) -> float:
    """CPU seconds of ``pid`` and its children (workers), ended ones included."""
    total = 0.0
    for one in tree(pid):
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15]) / TICKS
    return total


def processes(rig: Rig, nginx: Nginx) -> dict[str, int]:
    found = {r.name: r.process.pid for r in rig.replicas if r.process is not None}
    found["nginx"] = nginx.process.pid
    return found


def cpu_snapshot(pids: dict[str, int]) -> dict[str, float]:
    return {name: cpu_of(pid) for name, pid in pids.items()} | {
        "load generator": time.process_time()
    }


def requests_for(endpoint: str) -> Iterator[bytes]:
    """The raw requests of one endpoint, round-robin over the questions."""
    for n in range(10**9):
        question = QUESTIONS[n % len(QUESTIONS)]
        if endpoint == "search":
            path = "/api/search?" + urlencode({"q": question})
            yield f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
            continue
        body = json.dumps({"messages": [{"role": "user", "content": question}]}).encode()
        head = (
            f"POST /api/ask HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        yield head.encode() + body


async def read_response(reader: asyncio.StreamReader) -> bytes:
    """Status line and headers, then the body by ``Content-Length`` or chunks."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.lower().split(b"\r\n")
    length = next((int(x.split(b":")[1]) for x in lines if x.startswith(b"content-length:")), None)
    if length is not None:
        await reader.readexactly(length)
    elif any(x.startswith(b"transfer-encoding:") and b"chunked" in x for x in lines):
        while (size := int((await reader.readuntil(b"\r\n")).strip(), 16)) > 0:
            await reader.readexactly(size + 2)
        await reader.readuntil(b"\r\n")
    return head


async def worker(port: int, endpoint: str, deadline: float, cell: Cell) -> None:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # self-signed
    reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context)
    sends = requests_for(endpoint)
    try:
        while time.perf_counter() < deadline:
            began = time.perf_counter()
            writer.write(next(sends))
            head = await read_response(reader)
            if not head.startswith(b"HTTP/1.1 200"):
                cell.errors += 1
                continue
            cell.latencies.append(time.perf_counter() - began)
    finally:
        writer.close()


async def load(port: int, endpoint: str, clients: int, seconds: float, cell: Cell) -> None:
    deadline = time.perf_counter() + seconds
    before = len(cell.latencies)
    began = time.perf_counter()
    await asyncio.gather(*(worker(port, endpoint, deadline, cell) for _ in range(clients)))
    cell.rates.append((len(cell.latencies) - before) / (time.perf_counter() - began))


def measure(
    pids: dict[str, int], port: int, endpoint: str, args: argparse.Namespace, cell: Cell
) -> None:
    start = cpu_snapshot(pids)
    asyncio.run(load(port, endpoint, args.clients, args.seconds, cell))
    end = cpu_snapshot(pids)
    for name, value in end.items():
        cell.cpu[name] = cell.cpu.get(name, 0.0) + value - start[name]


def propagation_seconds(rig: Rig, wait: float) -> float | None:
    """Create an organisation site on replica a and time until replica b knows it (the
    change poll, ``askdocs.replicas``); ``None`` when it did not within ``wait``."""
    a, b = rig.replicas[:2]
    token = rig.cli("token", "create", "--email", ROOT_EMAIL, "--org", rig.org_id)
    site = f"prop{int(time.time())}"
    body = {"id": site, "name": "Propagation", "public": True}
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=a.url, headers=headers, timeout=30) as http:
        proposed = http.post("/api/v1/admin/proposals/create-site", json=body)
        proposed.raise_for_status()
        confirm = {**body, "confirmationToken": proposed.json()["confirmationToken"]}
        http.post("/api/v1/admin/apply/create-site", json=confirm).raise_for_status()
    applied = time.monotonic()
    return _seen(b, site, applied, wait)


def _seen(replica: Replica, site: str, since: float, wait: float) -> float | None:
    with httpx.Client(base_url=replica.url, timeout=10) as http:
        while time.monotonic() - since < wait:
            if http.get("/readyz", params={"site": site}).status_code != 404:
                return round(time.monotonic() - since, 2)
            time.sleep(0.05)
    return None


def settled(replica: Replica, embedding: str, timeout: float = 1800.0) -> None:
    """Wait until the replica's index is complete (vectors too with a model: a replica is
    ready on its keyword-only index, then embeds in the background, which would count)."""
    wanted = "hybrid" if embedding != "none" else "keyword"
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=replica.url, headers={"Host": HOST}, timeout=60) as http:
        while time.monotonic() < deadline:
            [status] = http.get("/readyz", params={"site": SITE}).json()["sites"]
            mode = http.get("/api/search", params={"q": QUESTIONS[0]}).json().get("mode")
            if status["ready"] and not status["building"] and mode == wanted:
                return
            time.sleep(1.0)
    raise SystemExit(f"{replica.name}: the index was not complete within {timeout} s")


def bench_site(docs: Path) -> str:
    site = f'[[sites]]\nid = "{SITE}"\nname = "Bench"\nhostnames = ["{HOST}"]\n'
    return f'\n{site}\n[[sites.roots]]\npath = "{docs}"\n'


def run(args: argparse.Namespace) -> dict[str, object]:
    env = {
        "ASKDOCS_EMBEDDING__PROVIDER": args.embedding,
        "ASKDOCS_ASK__BURST_PER_MINUTE": UNLIMITED,
        "ASKDOCS_ASK__DAILY_VISITOR_LIMIT": UNLIMITED,
        "ASKDOCS_ASK__DAILY_SITE_LIMIT": UNLIMITED,
        "ASKDOCS_ASK__DAILY_GLOBAL_LIMIT": UNLIMITED,
        "ASKDOCS_ASK__RECORD_QUESTIONS": "false",
    }
    base = Path(tempfile.mkdtemp(prefix="askdocs-bench-replicas-"))
    with ExitStack() as stack:
        rig = stack.enter_context(
            running_rig(base, extra_toml=bench_site(args.docs.resolve()), env=env)
        )
        rig.wait_ready(SITE)
        for replica in rig.replicas:
            settled(replica, args.embedding)
        one_port = free_port()
        one = stack.enter_context(
            running_nginx(base / "nginx-one", one_port, [rig.replicas[0].upstream])
        )
        topologies = {"1 replica": (one_port, one), "2 replicas": (rig.nginx.port, rig.nginx)}
        cells = {(e, t): Cell() for e in ("search", "ask") for t in topologies}
        for round_number in range(args.rounds):
            order = list(topologies) if round_number % 2 == 0 else list(reversed(topologies))
            for endpoint in ("search", "ask"):
                for name in order:
                    port, proxy = topologies[name]
                    measure(processes(rig, proxy), port, endpoint, args, cells[endpoint, name])
        propagation = propagation_seconds(rig, args.propagation_wait)
    return report(cells, propagation, args)


def report(
    cells: dict[tuple[str, str], Cell], propagation: float | None, args: argparse.Namespace
) -> dict[str, object]:
    out: dict[str, object] = {
        "clients": args.clients,
        "seconds": args.seconds,
        "rounds": args.rounds,
        "embedding": args.embedding,
        "cores": os.cpu_count(),
        "load_avg": round(os.getloadavg()[0], 1),
        "admin_change_to_other_replica_s": propagation,
    }
    for endpoint in ("search", "ask"):
        one, two = cells[endpoint, "1 replica"].summary(), cells[endpoint, "2 replicas"].summary()
        rate_one = float(one["req_per_s"])  # type: ignore[arg-type]
        rate_two = float(two["req_per_s"])  # type: ignore[arg-type]
        ratio = round(rate_two / rate_one, 2) if rate_one else None
        out[endpoint] = {"1 replica": one, "2 replicas": two, "ratio_2_to_1": ratio}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=DOCS)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--embedding", choices=["local", "none"], default="local")
    parser.add_argument("--propagation-wait", type=float, default=30.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args)
    print(json.dumps(result, indent=2) if args.json else table(result))


def table(result: dict[str, object]) -> str:
    """The figures as text: one line per endpoint and topology, CPU ms per request."""
    lines = [f"{k}: {v}" for k, v in result.items() if k not in ("search", "ask")]
    for endpoint in ("search", "ask"):
        cells = result[endpoint]
        assert isinstance(cells, dict)
        for name in ("1 replica", "2 replicas"):
            cell = cells[name]
            cpu = ", ".join(f"{k} {v}" for k, v in cell["cpu_ms_per_req"].items())
            lines.append(
                f"{endpoint:6} {name:10} {cell['req_per_s']:7} req/s  p50 {cell['p50_ms']} ms"
                f"  p99 {cell['p99_ms']} ms  errors {cell['errors']}  CPU ms/req: {cpu}"
            )
        lines.append(f"{endpoint:6} 2/1 ratio {cells['ratio_2_to_1']}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
