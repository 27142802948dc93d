"""The container files: the Dockerfile installs exactly what scripts/setup installs (one
shared script), runs as non-root with a /healthz check and a data volume; compose.yaml
wires askdocs to PostgreSQL, Redis and Qdrant through ASKDOCS_* settings that exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

from askdocs.settings_reference import env_names
from tests.conftest import REPO

INSTALL = "scripts/install-product"
# ASKDOCS_* variables read outside the settings model (docs/cli.md).
EXTRA_ENV = {"ASKDOCS_SITES", "ASKDOCS_JWT_SIGNING_KEY", "ASKDOCS_CONFIG_FILE"}


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    found = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def commands(keyword: str) -> list[str]:
    return [rest for kw, rest in instructions() if kw == keyword]


def shell_steps(script: str) -> list[list[str]]:
    """The non-comment command lines of a shell script, split into words."""
    body = (REPO / script).read_text(encoding="utf-8")
    lines = [line.strip() for line in body.splitlines()]
    return [shlex.split(line) for line in lines if line and not line.startswith("#")]


def test_the_image_installs_with_the_script_setup_runs() -> None:
    runs = " && ".join(commands("RUN"))
    installs = [step for step in runs.split("&&") if "pip" in step or INSTALL in step]
    assert [step.split()[0] for step in installs] == [INSTALL], installs
    setup_calls = [step for step in shell_steps("scripts/setup") if step[0] == INSTALL]
    assert {tuple(step[2:]) for step in setup_calls} == {("-e", ".[dev]"), ("-e", ".")}


def test_the_setup_script_installs_only_through_the_shared_script() -> None:
    pip_installs = [
        step[-1] for step in shell_steps("scripts/setup") if "pip" in step and "install" in step
    ]
    # only the test-only reference runtime (--dev) is installed outside install-product
    assert pip_installs == ["torch==2.13.0", "sentence-transformers>=3,<7"]


def test_the_build_stage_copies_everything_the_install_reads() -> None:
    copied = {word for rest in commands("COPY") for word in rest.split()[:-1]}
    needed = {"pyproject.toml", "README.md", "src", "docs", "packages", INSTALL}
    needed |= {"scripts/build-model-package"}
    assert needed <= copied
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").split()
    assert not {"src", "docs", "packages", "scripts"} & set(ignored)


def test_multi_stage_non_root_health_check_and_data_volume() -> None:
    assert len(commands("FROM")) >= 2
    assert commands("USER") == ["askdocs"]
    [health] = commands("HEALTHCHECK")
    assert "/healthz" in health
    env = " ".join(commands("ENV"))
    assert "ASKDOCS_DATA_DIR=/var/lib/askdocs" in env
    assert commands("VOLUME") == ['["/var/lib/askdocs"]']
    assert commands("CMD") == ['["askdocs", "serve"]']


def test_compose_runs_askdocs_with_postgres_redis_and_qdrant() -> None:
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"askdocs", "postgres", "redis", "qdrant", "mcp"}
    env = services["askdocs"]["environment"]
    assert env["ASKDOCS_DATABASE_URL"].startswith("postgresql://askdocs:")
    assert env["ASKDOCS_REDIS_URL"] == "redis://redis:6379/0"
    assert env["ASKDOCS_INDEX__QDRANT_URL"] == "http://qdrant:6333"
    known = set(env_names()) | EXTRA_ENV
    assert sorted(name for name in env if name not in known) == []
    assert "askdocs-data:/var/lib/askdocs" in services["askdocs"]["volumes"]


def test_compose_runs_the_mcp_server_in_server_mode_unpublished() -> None:
    """Seed 002 "In docker-compose": the MCP service over HTTP on 3002, calling the API,
    sharing its signing key, depending on its health, and not published to the host."""
    services = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))["services"]
    mcp, api = services["mcp"], services["askdocs"]
    assert mcp["command"] == ["askdocs", "mcp"]
    assert mcp["image"] == api["image"]
    env = mcp["environment"]
    assert (env["MCP_TRANSPORT"], env["MCP_PORT"]) == ("http", "3002")
    assert env["ASKDOCS_API_URL"] == "http://askdocs:8000"
    key = "ASKDOCS_AUTH__JWT_SIGNING_KEY"
    assert env[key] == api["environment"][key]
    assert env[key].startswith("${ASKDOCS_JWT_SIGNING_KEY:?")
    assert mcp["depends_on"] == {"askdocs": {"condition": "service_healthy"}}
    assert "ports" not in mcp
    assert "3002" in " ".join(mcp["healthcheck"]["test"])
    known = set(env_names()) | EXTRA_ENV | {"MCP_TRANSPORT", "MCP_PORT", "ASKDOCS_API_URL"}
    assert sorted(name for name in env if name not in known) == []


def test_env_example_names_only_settings_or_compose_variables() -> None:
    text = (REPO / ".env.example").read_text(encoding="utf-8")
    names = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", text, re.M))
    compose_vars = {"POSTGRES_PASSWORD", "QDRANT_API_KEY", "PUBLISH_ADDRESS", "DOCS_DIR"}
    known = set(env_names()) | EXTRA_ENV | compose_vars
    assert names
    assert sorted(names - known) == []
    assert Path(REPO / ".gitignore").read_text(encoding="utf-8").count(".env\n") >= 1


def test_the_replicas_compose_runs_replicas_behind_one_trusted_proxy() -> None:
    """deploy/replicas: every askdocs-N has its own data volume, the same shared stores and
    secrets, trusts exactly the proxy's fixed address, and is in nginx's upstream."""
    folder = REPO / "deploy" / "replicas"
    services = yaml.safe_load((folder / "compose.yaml").read_text(encoding="utf-8"))["services"]
    replicas = sorted(name for name in services if name.startswith("askdocs-"))
    assert replicas == ["askdocs-1", "askdocs-2"]
    envs = [services[name]["environment"] for name in replicas]
    assert all(env == envs[0] for env in envs)
    known = set(env_names()) | EXTRA_ENV
    assert sorted(name for name in envs[0] if name not in known) == []
    proxy_address = services["proxy"]["networks"]["askdocs"]["ipv4_address"]
    assert yaml.safe_load(envs[0]["ASKDOCS_SERVER__TRUSTED_PROXIES"]) == [proxy_address]
    shared = ("JWT_SIGNING_KEY", "VISITOR_HASH_KEY", "CONFIRMATION_TOKEN_KEY", "SECRETS_KEY_FILE")
    assert all(any(key.endswith(part) for key in envs[0]) for part in shared)
    volumes = [services[name]["volumes"][0] for name in replicas]
    assert volumes == [f"{name}-data:/var/lib/askdocs" for name in replicas]
    nginx = (folder / "nginx.conf").read_text(encoding="utf-8")
    assert all(f"server {name}:8000" in nginx for name in replicas)
    assert "X-Forwarded-Proto $scheme" in nginx
    assert "proxy_buffering off" in nginx
