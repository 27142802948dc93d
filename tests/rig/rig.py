"""The production topology on 127.0.0.1 (issue #26): nginx terminating TLS (a self-signed
certificate made here) and balancing round-robin over N ``askdocs serve`` replicas, which
share a private PostgreSQL and a private Redis. Everything is started and stopped here.

``running_rig(base)`` yields a ``Rig``: ``rig.url`` is the https endpoint (through nginx),
``rig.replicas[i].url`` each replica alone (plain http), ``rig.replicas[i].kill()`` a kill -9
and ``.start()`` the same replica again (same port, data dir and config). Every response
through nginx names the replica that served it in ``X-Rig-Upstream`` (``upstream_of``).
Replicas share the configuration file (``rig.config``) and the secrets key file it names
(the signing keys are then stored in the database, as an install that configures none);
each has its own data dir and so its own embedded index. ``extra_toml`` adds tables, ``env`` sets
``ASKDOCS_*`` variables for every replica and for ``rig.cli`` (askdocs commands on the same
database). ``oidc=True`` also starts the Node OpenID provider with the rig's callback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.db.postgres import PostgresServer, start_postgres
from tests.guard.redis_server import RedisProcess, running_redis
from tests.rig.nginx import Nginx, running_nginx
from tests.support.oidc_provider import OidcProvider, oidc_provider
from tests.support.process import clean_env, free_port, wait_for_health

START_TIMEOUT = 120.0  # a bound, not a verdict: two replicas start at once on 2 loaded cores
READY_TIMEOUT = 180.0
ROOT_EMAIL = "root@example.com"
PASSWORD = "correct horse battery staple"
SITE_ID = "handbook"
UPSTREAM_HEADER = "x-rig-upstream"
PAGES = {
    "index.md": "# Handbook\n\nThe handbook of the rig: installing and configuring Widget.\n",
    "install.md": (
        "# Installing Widget\n\n## Requirements\n\nWidget needs Python 3.11 and 2 GB of "
        "memory.\n\n## Install with pip\n\nRun `pip install widget` and then `widget init` "
        "to create the configuration file.\n"
    ),
    "configure.md": (
        "# Configuring Widget\n\n## The configuration file\n\nWidget reads `widget.toml`; "
        "set `port` to change where it listens and `workers` for the number of workers.\n"
    ),
}


@dataclass
class Replica:
    """One ``askdocs serve`` process: its own port, data dir and log."""

    name: str
    port: int
    data_dir: Path
    command: list[str]
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def upstream(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start it (again) and wait until ``/healthz`` answers."""
        assert self.process is None or self.process.poll() is not None, "already running"
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(self.command, env=self.env, stdout=sink, stderr=sink)
        wait_for_health(self.process, self.port, self.log, timeout)

    def kill(self) -> None:
        """kill -9: no shutdown, no goodbye (what a crashed host looks like)."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()

    def wait_ready(self, site: str | None = None, timeout: float = READY_TIMEOUT) -> None:
        """Poll ``/readyz`` (``?site=`` for one site) until 200: there is no event to await."""
        params = {"site": site} if site else {}
        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.url, timeout=5) as http:
            while time.monotonic() < deadline:
                try:
                    if http.get("/readyz", params=params).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.25)
        raise RuntimeError(f"{self.name} was not ready within {timeout} s: {self.tail()}")

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:]


@dataclass
class Rig:
    url: str  # https through nginx
    replicas: list[Replica]
    nginx: Nginx
    postgres: PostgresServer
    database_url: str
    redis: RedisProcess
    config: Path
    base: Path
    env: dict[str, str]
    oidc: OidcProvider | None = None
    org_id: str = ""
    _cli_data: Path = field(init=False)

    def __post_init__(self) -> None:
        self._cli_data = self.base / "cli-data"

    def client(self, **options: object) -> httpx.Client:
        """An https client of the proxy (the certificate is self-signed: not verified)."""
        return httpx.Client(base_url=self.url, verify=False, timeout=60, **options)  # type: ignore[arg-type]

    def async_client(self, **options: object) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, verify=False, timeout=120, **options)  # type: ignore[arg-type]

    def cli(self, *args: str, stdin: str | None = None) -> str:
        """``askdocs ARGS`` on the rig's config and database; its last line of output."""
        return cli(self._cli_data, self.config, self.env, *args, stdin=stdin)

    def wait_ready(self, site: str | None = None) -> None:
        for replica in self.replicas:
            replica.wait_ready(site)

    def replica_of(self, response: httpx.Response) -> Replica:
        """The replica that served a response that came through nginx."""
        served = upstream_of(response)
        return next(r for r in self.replicas if r.upstream == served)


def upstream_of(response: httpx.Response) -> str:
    """``127.0.0.1:PORT`` of the replica nginx passed the request to (its last try)."""
    return response.headers.get(UPSTREAM_HEADER, "").rsplit(",", 1)[-1].strip()


def cli(
    data: Path, config: Path, env: Mapping[str, str], *args: str, stdin: str | None = None
) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data), "--config", str(config)]
    done = subprocess.run(
        [*command, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=clean_env(env),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def write_docs(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in PAGES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def rig_config(
    base: Path,
    public_url: str,
    database_url: str,
    redis_url: str,
    oidc: OidcProvider | None,
    extra_toml: str,
) -> Path:
    """One TOML file every replica reads: the proxy, the shared stores and secrets key, a
    site."""
    docs = write_docs(base / "docs")
    sso = ""
    if oidc is not None:
        values = oidc.settings(["example.com"])
        sso = f"""
[auth.oidc]
issuer = "{values["issuer"]}"
client_id = "{values["client_id"]}"
client_secret = "{values["client_secret"]}"
allowed_email_domains = ["example.com"]
display_name = "Test provider"
"""
    text = f"""database_url = "{database_url}"
redis_url = "{redis_url}"

[server]
public_url = "{public_url}"
trusted_proxies = ["127.0.0.1"]

[embedding]
provider = "none"

[bot_check]
allow_public_ask_without_bot_check = true

[admin]
secrets_key_file = "{base / "provider-secrets.key"}"

[[sites]]
id = "{SITE_ID}"
name = "Handbook"

[[sites.roots]]
path = "{docs}"
{sso}
{extra_toml}
"""
    path = base / "askdocs.toml"
    path.write_text(text, encoding="utf-8")
    return path


@contextmanager
def running_rig(
    base: Path,
    *,
    replicas: int = 2,
    extra_toml: str = "",
    env: Mapping[str, str] | None = None,
    oidc: bool = False,
) -> Iterator[Rig]:
    """The whole topology until the block ends; everything stopped and removed after."""
    base.mkdir(parents=True, exist_ok=True)
    tls_port = free_port()
    public_url = f"https://127.0.0.1:{tls_port}"
    with ExitStack() as stack:
        postgres = stack.enter_context(_postgres())
        database_url = postgres.url(postgres.create_database())
        redis = stack.enter_context(running_redis(base / "redis"))
        provider = None
        if oidc:
            callback = f"{public_url}/api/v1/auth/oidc/callback"
            provider = stack.enter_context(oidc_provider(callback, base / "oidc.log"))
        config = rig_config(base, public_url, database_url, redis.url, provider, extra_toml)
        # PostgreSQL's 1 s default bound is a product timeout; on a loaded 2-core machine a
        # fresh pool's first connect outran it (tests/conftest.py gives in-process apps 10 s)
        variables = {"ASKDOCS_DATABASE__TIMEOUT_SECONDS": "10", **(env or {})}
        root = _prepare(base, config, variables)
        nodes = [_replica(base, config, variables, n) for n in range(replicas)]
        stack.callback(lambda: [node.stop() for node in nodes])
        for node in nodes:
            node.start()
        proxy = stack.enter_context(
            running_nginx(base / "nginx", tls_port, [node.upstream for node in nodes])
        )
        made = Rig(public_url, nodes, proxy, postgres, database_url, redis, config, base, variables)
        made.oidc, made.org_id = provider, root
        made.wait_ready(SITE_ID)
        yield made


@contextmanager
def _postgres() -> Iterator[PostgresServer]:
    servers = start_postgres()
    server = next(servers)
    try:
        yield server
    finally:
        next(servers, None)


def _prepare(base: Path, config: Path, env: Mapping[str, str]) -> str:
    """Migrate the database once (before any replica starts), the platform admin, an
    organisation (its id is returned)."""
    data = base / "cli-data"
    password = PASSWORD + "\n"
    cli(data, config, env, "users", "create", "--email", ROOT_EMAIL, "--platform-admin",
        "--password-stdin", stdin=password)  # fmt: skip
    return cli(data, config, env, "orgs", "create", "--name", "Docs team", "--owner", ROOT_EMAIL)


def _replica(base: Path, config: Path, env: Mapping[str, str], number: int) -> Replica:
    name = "ab"[number] if number < 2 else f"r{number}"
    port = free_port()
    data = base / f"replica-{name}"
    data.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "askdocs", "--data-dir", str(data), "--config", str(config),
        "serve", "--host", "127.0.0.1", "--port", str(port),
    ]  # fmt: skip
    log = base / f"replica-{name}.log"
    return Replica(f"replica {name}", port, data, command, clean_env(env), log)
