"""``askdocs keys``: list (never a key), rotate, rewrap, and refusing to rotate a configured
key, in-process (CliRunner) over a data dir's database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from askdocs.cli import cli
from askdocs.errors import ConfigError
from askdocs.keys import standalone_ring
from askdocs.settings import load_settings


def run(data_dir: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], env=env)
    return result.exit_code, result.output


def test_list_rotate_and_rewrap(tmp_path: Path) -> None:
    code, out = run(tmp_path, "--json", "keys", "list")
    assert code == 0, out
    listed = [json.loads(line) for line in out.splitlines()]
    assert [(k["name"], k["version"], k["retireAt"]) for k in listed] == [
        ("confirmation", 1, None),
        ("jwt", 1, None),
        ("visitor", 1, None),
    ]
    with standalone_ring(load_settings(data_dir=tmp_path)) as ring:
        secrets = [ring.signing(name).secret for name in ("jwt", "confirmation", "visitor")]
    for secret in secrets:
        assert secret.decode("latin-1") not in out
        assert secret.hex() not in out
    code, out = run(tmp_path, "keys", "rotate", "jwt", "--grace", "0")
    assert code == 0, out
    assert "version 2" in out
    code, out = run(tmp_path, "keys", "list")
    assert [line.split("\t")[:2] for line in out.splitlines()] == [
        ["confirmation", "1"],
        ["jwt", "1"],
        ["jwt", "2"],
        ["visitor", "1"],
    ]
    code, out = run(tmp_path, "keys", "rewrap")
    assert code == 0, out
    assert "4 stored secret(s)" in out


def test_a_configured_key_is_not_rotated_here(tmp_path: Path) -> None:
    env = {"ASKDOCS_AUTH__JWT_SIGNING_KEY": "c" * 40}
    args = ["--data-dir", str(tmp_path), "keys", "rotate", "jwt"]
    with pytest.raises(ConfigError) as refused:
        CliRunner().invoke(cli, args, env=env, catch_exceptions=False)
    assert refused.value.code == "key_configured"
    assert "changing the configuration" in refused.value.message
