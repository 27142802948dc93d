"""A real install from an empty data dir, only through ``askdocs`` commands and HTTP:
the first platform admin, an organisation, a member by invitation, sign-in over HTTP."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.server.process import clean_env, serving

PASSWORD = "correct horse battery staple"


def askdocs(data_dir: Path, *args: str, stdin: str | None = None) -> str:
    """Run one command; its standard output's last line."""
    return run(data_dir, *args, stdin=stdin).splitlines()[-1]


def run(data_dir: Path, *args: str, stdin: str | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), *args],
        input=stdin,
        env=clean_env({"ASKDOCS_EMBEDDING__PROVIDER": "none"}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.slow
def test_the_whole_set_up_from_an_empty_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "data"
    admin_id = askdocs(
        data,
        "users",
        "create",
        "--email",
        "root@example.com",
        "--platform-admin",
        "--password-stdin",
        stdin=PASSWORD + "\n",
    )
    org_id = askdocs(data, "orgs", "create", "--name", "Docs team", "--owner", "root@example.com")
    askdocs(data, "users", "create", "--email", "ada@example.com")
    askdocs(data, "orgs", "add-member", org_id, "--email", "ada@example.com", "--role", "admin")
    link = askdocs(data, "users", "invite", "--email", "bob@example.com", "--org", org_id)
    members = run(data, "orgs", "members", org_id)
    assert "\tada@example.com\tadmin" in members
    assert "\troot@example.com\towner" in members
    with serving(data, {"ASKDOCS_EMBEDDING__PROVIDER": "none"}) as server:
        client = httpx.Client(base_url=server.url, timeout=30)
        signed = client.post(
            "/api/v1/auth/sign-in", json={"email": "root@example.com", "password": PASSWORD}
        )
        assert signed.status_code == 200, signed.text
        assert signed.json()["user"]["id"] == admin_id
        detail = client.get(f"/api/v1/orgs/{org_id}").json()
        assert detail["ownsConfiguredSites"] is True
        roles = {m["email"]: m["role"] for m in detail["members"]}
        assert roles == {"root@example.com": "owner", "ada@example.com": "admin"}
        token = link.rsplit("/", 1)[1]
        bob = httpx.Client(base_url=server.url, timeout=30)
        accepted = bob.post(
            "/api/v1/auth/invitations/accept", json={"token": token, "password": PASSWORD}
        )
        assert accepted.status_code == 200, accepted.text
        assert bob.get("/api/v1/auth/me").json()["organisations"][0]["id"] == org_id
