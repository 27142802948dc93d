"""How long an admin change made through one replica takes to reach another.

usage: python -m bench.propagation [--rounds 10] [--poll 2.0] [--json]

Starts a private PostgreSQL and two ``askdocs serve`` replicas on it (keyword-only, no
model), each with ``server.change_poll_seconds = --poll``. Each round creates an
organisation site through replica a (propose, then apply, over REST) and times, from the
moment the apply answered, until replica b serves the site (``/api/search?site=`` stops
answering ``404 site_not_found``; polled every 20 ms), then deletes it through b and times
until a stops serving it. The expected figure is uniform over [0, poll] plus the re-read:
the report gives the median, p90 and maximum of both directions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
from cryptography.fernet import Fernet
from tests.db.postgres import start_postgres
from tests.support.process import clean_env, free_port, running

EMAIL = "bench@example.com"
POLL_EVERY = 0.02


@contextmanager
def replicas(base: Path, poll: float) -> Iterator[tuple[list[str], dict[str, str], str]]:
    """Two replicas' URLs, an owner's bearer header, and the owner's organisation id."""
    with ExitStack() as stack:
        postgres = stack.enter_context(contextmanager(start_postgres)())
        env = clean_env(
            {
                "ASKDOCS_DATABASE_URL": postgres.url(postgres.create_database()),
                "ASKDOCS_DATABASE__TIMEOUT_SECONDS": "10",
                "ASKDOCS_ADMIN__SECRETS_KEY": Fernet.generate_key().decode(),
                "ASKDOCS_EMBEDDING__PROVIDER": "none",
                "ASKDOCS_SERVER__CHANGE_POLL_SECONDS": str(poll),
            }
        )
        urls = []
        for name in ("a", "b"):
            port = free_port()
            command = [sys.executable, "-m", "askdocs", "--data-dir", str(base / name), "serve"]
            command += ["--host", "127.0.0.1", "--port", str(port)]
            stack.enter_context(running(command, env, port, base / f"{name}.log"))
            urls.append(f"http://127.0.0.1:{port}")
        cli = _cli(env, base / "ops")
        cli("users", "create", "--email", EMAIL, "--platform-admin")  # holds every admin tool
        org = cli("orgs", "create", "--name", "Bench", "--owner", EMAIL)
        token = cli("token", "create", "--email", EMAIL, "--org", org)
        yield urls, {"Authorization": f"Bearer {token}"}, org


def _cli(env: dict[str, str], data_dir: Path) -> Callable[..., str]:
    def run(*args: str) -> str:
        command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), *args]
        out = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
        return out.stdout.strip().splitlines()[-1]

    return run


def change(url: str, headers: dict[str, str], operation: str, body: dict[str, object]) -> None:
    with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
        proposed = http.post(f"/api/v1/admin/proposals/{operation}", json=body)
        proposed.raise_for_status()
        token = proposed.json()["confirmationToken"]
        applied = http.post(
            f"/api/v1/admin/apply/{operation}", json={**body, "confirmationToken": token}
        )
        applied.raise_for_status()


def seconds_until(url: str, site: str, known: bool, limit: float = 60.0) -> float:
    started = time.monotonic()
    with httpx.Client(base_url=url, timeout=10) as http:
        while time.monotonic() - started < limit:
            found = http.get("/api/search", params={"q": "x", "site": site})
            code = found.json().get("error", {}).get("code") if found.status_code != 200 else None
            if (code != "site_not_found") == known:
                return time.monotonic() - started
            time.sleep(POLL_EVERY)
    raise TimeoutError(f"{url} did not {'learn of' if known else 'forget'} {site} in {limit} s")


def measure(rounds: int, poll: float) -> dict[str, object]:
    created, deleted = [], []
    with tempfile.TemporaryDirectory() as tmp, replicas(Path(tmp), poll) as (urls, headers, org):
        for n in range(rounds):
            site = f"bench{n}"
            body = {"organisationId": org, "id": site, "name": site}
            change(urls[0], headers, "create-site", body)
            created.append(seconds_until(urls[1], site, known=True))
            change(urls[1], headers, "delete-site", {"organisationId": org, "siteId": site})
            deleted.append(seconds_until(urls[0], site, known=False))
    return {
        "poll_seconds": poll,
        "rounds": rounds,
        "a_to_b": _stats(created),
        "b_to_a": _stats(deleted),
    }


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median_s": round(statistics.median(ordered), 3),
        "p90_s": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
        "max_s": round(ordered[-1], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--poll", type=float, default=2.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.rounds, args.poll)
    if args.json:
        print(json.dumps(result))
        return
    for direction in ("a_to_b", "b_to_a"):
        stats = result[direction]
        assert isinstance(stats, dict)
        print(f"{direction}: median {stats['median_s']} s, p90 {stats['p90_s']} s, "
              f"max {stats['max_s']} s (poll {args.poll} s, {args.rounds} rounds)")  # fmt: skip


if __name__ == "__main__":
    main()
