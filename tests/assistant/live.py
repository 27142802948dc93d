"""A real askdocs server (uvicorn in a subprocess) and the real CLI, for end-to-end tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.process import free_port, running

REPO = Path(__file__).resolve().parents[2]
NODE_DIR = REPO / "tests" / "node"
ASKDOCS = [sys.executable, "-m", "askdocs"]
START_SECONDS = 60.0


def toml_value(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, bool) else str(value).lower()


def write_config(
    path: Path, sections: dict[str, dict[str, Any]], sites: list[dict[str, Any]]
) -> None:
    """A TOML config file (flat sections plus ``[[sites]]`` with ``[[sites.roots]]``)."""
    lines: list[str] = []
    for name, values in sections.items():
        lines.append(f"[{name}]")
        lines += [f"{key} = {toml_value(value)}" for key, value in values.items()]
    for site in sites:
        lines.append("[[sites]]")
        lines += [f"{k} = {toml_value(v)}" for k, v in site.items() if k != "roots"]
        for root in site["roots"]:
            lines.append("[[sites.roots]]")
            lines += [f"{k} = {toml_value(v)}" for k, v in root.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@dataclass
class Live:
    url: str
    env: dict[str, str]
    data_dir: Path

    def cli(self, *args: str) -> str:
        """Run ``askdocs --data-dir DIR <args>``; returns stdout (fails on a non-zero exit)."""
        command = [*ASKDOCS, "--data-dir", str(self.data_dir), *args]
        done = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def token_for(self, email: str) -> str:
        self.cli("users", "create", "--email", email, "--name", "Live User")
        return (
            self.cli("token", "create", "--email", email, "--ttl", "900").strip().splitlines()[-1]
        )


def environment(data_dir: Path, config: Path, database_url: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKDOCS_")}
    env.update({"ASKDOCS_DATA_DIR": str(data_dir), "ASKDOCS_CONFIG_FILE": str(config)})
    if database_url:
        env["ASKDOCS_DATABASE_URL"] = database_url
    env["PYTHONPATH"] = str(REPO / "src")
    return env


@contextmanager
def live_server(data_dir: Path, config: Path, database_url: str | None = None) -> Iterator[Live]:
    env = environment(data_dir, config, database_url)
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "askdocs.server.app:create_app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    url = f"http://127.0.0.1:{port}"
    with running(command, env, port, data_dir.parent / "server.log", START_SECONDS):
        yield Live(url, env, data_dir)


@contextmanager
def scripted_live(tmp_path: Path, docs_root: Path, models_url: str) -> Iterator[Live]:
    """A live server over the fixture user guide whose chat model is the scripted one."""
    config = tmp_path / "askdocs.toml"
    sites = [{"id": "docs", "name": "Docs", "roots": [{"path": str(docs_root / "user-guide")}]}]
    chat = {"provider": "openai-compatible", "model": "scripted", "base_url": models_url}
    write_config(config, {"chat": chat, "embedding": {"provider": "none"}}, sites)
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    with live_server(data_dir, config) as server:
        yield server


def node_parse(sdk: str, url: str, token: str, thread: str, message: str) -> dict[str, Any]:
    """Run one turn through the real ``ai`` package (``sdk`` = ai7 | ai6)."""
    script = NODE_DIR / "parse-stream.mjs"
    command = [
        "node",
        str(script),
        "--sdk",
        sdk,
        "--url",
        f"{url}/api/v1/assistant/chat",
        "--token",
        token,
        "--thread",
        thread,
        "--message",
        message,
    ]
    done = subprocess.run(command, cwd=NODE_DIR, capture_output=True, text=True, timeout=120)
    lines = done.stdout.strip().splitlines()
    assert lines, f"node printed nothing; stderr: {done.stderr}"
    result: dict[str, Any] = json.loads(lines[-1])
    assert done.returncode == 0, result
    return result
