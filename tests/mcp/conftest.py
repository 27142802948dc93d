"""MCP test fixtures: a fixed signing key, token makers, and real ``askdocs mcp`` processes."""

from __future__ import annotations

import base64
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import jwt as pyjwt
import pytest

from askdocs.auth.jwt import mcp_audience, mint
from askdocs.db import Database
from askdocs.settings import Settings, load_settings
from askdocs.users import UserService

FIXTURE_DOCS = Path(__file__).resolve().parent / "fixture_docs"
KEY = "mcp-test-signing-key-0123456789abcdefghijklmnop"
# The tool-call bound of in-process servers: a bound, not a verdict. The first call compiles
# and loads the model; at load 13 on 2 cores that outran the product's 30 s once in CI.
BOUND = 180.0
START_SECONDS = 60.0  # a cold interpreter plus imports on a busy 2-core machine


def make_settings(data_dir: Path) -> Settings:
    return load_settings(data_dir=data_dir, auth={"jwt_signing_key": KEY})


def process_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """A clean environment for a child ``askdocs mcp``: only what it needs, plus ``extra``."""
    kept = ("PATH", "HOME", "LANG", "PYTHONPATH")  # PYTHONPATH: a worktree tests its own src
    env = {key: os.environ[key] for key in kept if key in os.environ}
    env.update(
        ASKDOCS_DATA_DIR=str(data_dir),
        ASKDOCS_AUTH__JWT_SIGNING_KEY=KEY,
        ASKDOCS_EMBEDDING__THREADS="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def _b64(obj: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


@dataclass(frozen=True)
class Tokens:
    settings: Settings
    sub: str = "user-1"
    org: str = "org-1"

    def valid(self, **claims: object) -> str:
        """An MCP token (server mode accepts no other; local mode accepts both kinds)."""
        return mint(self.settings, self.sub, org=self.org, org_role="admin", mcp=True, **claims)  # type: ignore[arg-type]

    def api_only(self) -> str:
        """An ordinary bearer token, not issued for the MCP server."""
        return mint(self.settings, self.sub, org=self.org, org_role="admin")

    def expired(self) -> str:
        return mint(self.settings, self.sub, ttl_seconds=60, now=int(time.time()) - 3600, mcp=True)

    def _claims(self, **changes: object) -> dict[str, object]:
        now = int(time.time())
        claims: dict[str, object] = {
            "sub": self.sub,
            "iat": now,
            "exp": now + 600,
            "iss": self.settings.auth.jwt_issuer,
            "aud": [self.settings.auth.jwt_audience, mcp_audience(self.settings)],
        }
        claims.update(changes)
        return claims

    def wrong_audience(self) -> str:
        return pyjwt.encode(self._claims(aud="someone-else"), KEY, algorithm="HS256")

    def alg_none(self) -> str:
        return f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(self._claims())}."

    def legacy_admin(self) -> str:
        return pyjwt.encode(self._claims(isAdmin=True), KEY, algorithm="HS256")

    def bad(self, kind: str) -> str:
        return {
            "missing": "",
            "expired": self.expired(),
            "wrong-audience": self.wrong_audience(),
            "alg-none": self.alg_none(),
        }[kind]


BAD_TOKENS = ("missing", "expired", "wrong-audience", "alg-none")


@pytest.fixture
def tokens(tmp_path: Path) -> Tokens:
    return Tokens(make_settings(tmp_path / "data"))


def askdocs_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "askdocs", "mcp", *args]


@dataclass
class McpProcess:
    """A running ``askdocs mcp --transport http``; ``url`` is what it announced."""

    proc: subprocess.Popen[str]
    url: str
    lines: list[str] = field(default_factory=list)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def start_http(args: list[str], env: dict[str, str]) -> McpProcess:
    """Spawn and wait (bounded) for the 'listening on URL' line on stderr."""
    proc = subprocess.Popen(
        askdocs_command("--transport", "http", "--port", "0", *args),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    seen: list[str] = []

    def pump() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + START_SECONDS
    while True:
        line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        if line is None:
            raise AssertionError(f"askdocs mcp exited early: {''.join(seen)}")
        seen.append(line)
        if "listening on " in line:
            return McpProcess(proc, line.rsplit("listening on ", 1)[1].strip(), seen)


@pytest.fixture(scope="module")
def module_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp-data")


def seeded_tokens(data_dir: Path, email: str = "mcp@example.com") -> Tokens:
    """Tokens of a real user of ``data_dir``'s database, admin of an organisation there:
    local mode over HTTP refuses tokens of users its database does not know."""
    settings = make_settings(data_dir)
    db = Database.open(settings)
    try:
        users = UserService(db)
        user = users.create_user(email)
        org = users.create_organisation("MCP tests", user.id)
        users.add_member(org.id, user.id, "admin")
    finally:
        db.close()
    return Tokens(settings, sub=user.id, org=org.id)


@pytest.fixture(scope="module")
def local_tokens(module_data: Path) -> Tokens:
    return seeded_tokens(module_data)


@pytest.fixture(scope="module")
def local_http(module_data: Path, local_tokens: Tokens) -> Iterator[McpProcess]:
    """One local-mode HTTP server over the fixture docs, shared by a test module."""
    server = start_http(["--docs", str(FIXTURE_DOCS)], process_env(module_data))
    yield server
    server.stop()
