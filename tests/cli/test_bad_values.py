"""Every command, given bad values with ``--json``, ends with exactly one JSON object on
stdout (no traceback anywhere) and a non-zero exit; ``serve`` and ``mcp`` check their port
and address with one clear error each."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from askdocs.cli import COMMANDS, LazyGroup, main
from tests.support.process import free_port

# (command words, bad arguments, expected code); {tmp}: a scratch folder, {port}: a free port
BAD: list[tuple[str, list[str], str]] = [
    ("corpus", ["{tmp}/missing"], "config_error"),
    ("index", ["{tmp}/missing"], "config_error"),
    ("search", ["--limit", "0", "x"], "usage_error"),
    ("search", ["x"], "not_indexed"),
    ("eval", ["{tmp}/missing.jsonl"], "usage_error"),
    ("serve", ["--port", "99999"], "usage_error"),
    ("serve", ["--port", "http"], "usage_error"),
    ("serve", ["--host", "999.1.1.1", "--port", "{port}"], "host_unavailable"),
    ("serve", ["--host", "no such host", "--port", "{port}"], "host_unavailable"),
    ("serve", ["{tmp}/missing", "--port", "{port}"], "config_error"),
    ("serve", ["--site", "NOT AN ID={tmp}", "--port", "{port}"], "config_error"),
    ("init", ["{tmp}/missing"], "config_error"),
    ("sites", ["--no-such-option"], "usage_error"),
    ("users create", ["--email", "not-an-email"], "invalid_email"),
    ("users list", ["--no-such-option"], "usage_error"),
    ("users set-password", ["--email", "nobody@example.com"], "usage_error"),
    ("users end-sessions", ["--email", "nobody@example.com"], "user_not_found"),
    ("users invite", ["--email", "x"], "invalid_email"),
    ("users reset-link", ["--email", "nobody@example.com"], "user_not_found"),
    ("users link-sso", [], "usage_error"),
    ("orgs create", ["--name", "x", "--owner", "nobody@example.com"], "user_not_found"),
    ("orgs list", ["--no-such-option"], "usage_error"),
    ("orgs members", [], "usage_error"),
    ("orgs add-member", [], "usage_error"),
    ("orgs remove-member", [], "usage_error"),
    ("orgs set-role", [], "usage_error"),
    ("token create", ["--email", "nobody@example.com"], "user_not_found"),
    ("mcp", ["--transport", "bogus"], "usage_error"),
    ("mcp", ["--port", "99999"], "usage_error"),
    ("mcp", ["--transport", "http", "--host", "999.1.1.1", "--port", "{port}"], "host_unavailable"),
    ("report", ["--since", "yesterday"], "usage_error"),
    ("config check", ["--no-such-option"], "usage_error"),
]


def _commands() -> set[str]:
    names = set()
    for name in COMMANDS:
        command = LazyGroup._load(name)
        if isinstance(command, click.Group):
            names |= {f"{name} {sub}" for sub in command.commands}
        else:
            names.add(name)
    return names


def test_every_command_has_bad_values_here() -> None:
    assert _commands() <= {words for words, _, _ in BAD}


@pytest.mark.parametrize(("words", "arguments", "code"), BAD)
def test_bad_values_end_with_one_json_object(
    words: str,
    arguments: list[str],
    code: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    port = str(free_port())
    filled = (a.replace("{tmp}", str(tmp_path)).replace("{port}", port) for a in arguments)
    argv = [*words.split(), *filled]
    with pytest.raises(SystemExit) as ended:
        main([*argv, "--json", "--data-dir", str(tmp_path / "data")])
    out, err = capsys.readouterr()
    assert ended.value.code in (1, 2)
    assert out.count("\n") == 1, out
    body = json.loads(out)
    assert list(body) == ["error"]
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    assert "Traceback" not in out + err


@pytest.mark.parametrize(
    "group", [None, *sorted(n for n in COMMANDS if n in {"users", "orgs", "token", "config"})]
)
def test_help_lists_every_summary_in_full(
    group: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    main([*([group] if group else []), "--help"])
    listing = capsys.readouterr().out.split("Commands:", 1)[1].split("Environment variables")[0]
    text = " ".join(listing.split())
    assert "..." not in text.replace("PATH...", "")
    assert "…" not in text
    loaded = LazyGroup._load(group) if group else None
    commands = loaded.commands if isinstance(loaded, click.Group) else _top_commands()
    for command in commands.values():
        assert command is not None
        assert command.help
        first = " ".join(command.help.split("\n\n")[0].split())
        assert first in text, first


def _top_commands() -> dict[str, click.Command | None]:
    return {name: LazyGroup._load(name) for name in COMMANDS}
