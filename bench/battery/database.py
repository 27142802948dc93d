"""Battery category ``postgres_down``: the server's PostgreSQL stopped cleanly
(``pg_ctl stop -m fast``) and crashed (SIGKILL to the postmaster and every backend), each
time restarted: while it is down every signed-in request is ``503 database_unavailable``
within 2 s, and once it is back the server answers 200 again without a restart of its
own. (The hung case is ``postgres_hang``.)"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
from bench.battery.categories import THREADS, Mode, Result
from bench.battery.rig import Rig
from tests.db.faults import server_pids
from tests.db.postgres import PostgresServer, _as_postgres

RECOVERY_LIMIT = 60.0  # seconds from restart to the first 200, a bound not a figure


def postgres_down(rig: Rig, mode: Mode) -> Result:
    result = Result("postgres_down")
    refusals: list[float] = []
    recoveries: list[float] = []
    for fault in ("stop", "crash"):
        _stop(rig.postgres) if fault == "stop" else _crash(rig.postgres)
        refusals += _refused(rig, result, fault, 20 if mode.full else 5)
        _start(rig.postgres)
        recoveries.append(_recovered(rig, result, fault))
    worst = max(refusals)
    if worst > 2.0:
        result.fail(f"slowest 503 took {worst:.2f} s")
    result.figure = (
        f"time_to_503_max_s={worst:.2f} recovery_after_restart_max_s={max(recoveries):.1f}"
    )
    return result


def _refused(rig: Rig, result: Result, fault: str, count: int) -> list[float]:
    times = []
    with httpx.Client(base_url=rig.url, timeout=30) as http:
        for _ in range(count):
            started = time.monotonic()
            response = http.get(THREADS, headers=rig.headers)
            times.append(time.monotonic() - started)
            result.probes += 1
            code = response.json().get("error", {}).get("code") if response.content else None
            if (response.status_code, code) != (503, "database_unavailable"):
                result.fail(f"{fault}: {response.status_code} {code}")
    return times


def _recovered(rig: Rig, result: Result, fault: str) -> float:
    started = time.monotonic()
    result.probes += 1
    with httpx.Client(base_url=rig.url, timeout=30) as http:
        while time.monotonic() - started < RECOVERY_LIMIT:
            if http.get(THREADS, headers=rig.headers).status_code == 200:
                return time.monotonic() - started
            time.sleep(0.25)  # polling: the gate retries after database.retry_seconds
    result.fail(f"no 200 within {RECOVERY_LIMIT:.0f} s after the restart ({fault})")
    return RECOVERY_LIMIT


def _ctl(server: PostgresServer, *args: str) -> None:
    command = [str(server.bindir / "pg_ctl"), "-D", str(server.datadir), *args]
    subprocess.run(_as_postgres(command), check=True, capture_output=True, timeout=120)


def _stop(server: PostgresServer) -> None:
    _ctl(server, "-m", "fast", "-w", "stop")


def _crash(server: PostgresServer) -> None:
    pids = server_pids(server)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)  # polling: the killed processes are reaped by their parents
    # the lock files name a dead (or zombie) postmaster: what an operator removes after a
    # crash, since PostgreSQL refuses to start while that PID still answers kill(pid, 0)
    base = server.datadir.parent
    for lock in (server.datadir / "postmaster.pid", base / f".s.PGSQL.{server.port}.lock"):
        lock.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    """Alive and not a zombie (a container's first process may never reap it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _start(server: PostgresServer) -> None:
    base = server.datadir.parent
    options = f"-h 127.0.0.1 -p {server.port} -k {base} -F -c fsync=off"
    _ctl(server, "-o", options, "-l", str(base / "log"), "-w", "start")
