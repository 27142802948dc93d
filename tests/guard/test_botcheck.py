"""Turnstile siteverify against a scripted server on 127.0.0.1."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from askdocs.errors import ConfigError, Forbidden, ServiceUnavailable
from askdocs.guard.botcheck import (
    NoBotCheck,
    TurnstileCheck,
    chosen_provider,
    create_bot_check,
    require_bot_check_for_public_binding,
)
from askdocs.guard.store_sqlite import SQLiteLimitsStore
from askdocs.settings import BotCheckSettings, RootConfig, Settings, SiteConfig
from tests.llm.scripted import Reply, ScriptedServer, scripted_server
from tests.support.timing import bounded

HOSTS = {"docs.acme.com", "acme.askdocs.example"}


@pytest.fixture
def siteverify() -> Iterator[ScriptedServer]:
    with scripted_server() as server:
        yield server


def verdict(**fields: Any) -> Reply:
    return Reply([json.dumps(fields).encode()], content_type="application/json")


def check(server: ScriptedServer, timeout: float = 0.5) -> TurnstileCheck:
    return TurnstileCheck("shh-secret", server.url + "/siteverify", timeout)


@pytest.mark.anyio
async def test_a_valid_token_passes_and_the_secret_is_posted(siteverify: ScriptedServer) -> None:
    siteverify.script(verdict(success=True, action="ask", hostname="docs.acme.com"))
    await check(siteverify).verify("tok", action="ask", hostnames=HOSTS, remote_ip=None)
    (received,) = siteverify.received
    assert received.path == "/siteverify"
    assert "secret=shh-secret" in received.body
    assert "response=tok" in received.body


@pytest.mark.anyio
@pytest.mark.parametrize(
    "fields",
    [
        {"success": False, "error-codes": ["invalid-input-response"]},
        {"success": True, "action": "login", "hostname": "docs.acme.com"},
        {"success": True, "action": "ask", "hostname": "evil.example"},
        {"success": "true", "action": "ask", "hostname": "docs.acme.com"},
    ],
)
async def test_refusals_are_403(siteverify: ScriptedServer, fields: dict[str, Any]) -> None:
    siteverify.script(verdict(**fields))
    with pytest.raises(Forbidden) as caught:
        await check(siteverify).verify("tok", action="ask", hostnames=HOSTS, remote_ip=None)
    assert caught.value.code == "bot_check_failed"


@pytest.mark.anyio
@pytest.mark.parametrize("token", ["", "x" * 2049])
async def test_missing_or_oversized_token_never_reaches_siteverify(
    siteverify: ScriptedServer, token: str
) -> None:
    with pytest.raises(Forbidden):
        await check(siteverify).verify(token, action="ask", hostnames=HOSTS, remote_ip=None)
    assert siteverify.received == []


@pytest.mark.anyio
async def test_hung_siteverify_is_503_within_the_timeout(siteverify: ScriptedServer) -> None:
    siteverify.script(Reply([b"{}"], hang_after=0, content_type="application/json"))
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable) as caught:
        await check(siteverify, 0.3).verify("tok", action="ask", hostnames=HOSTS, remote_ip=None)
    assert caught.value.code == "bot_check_unavailable"
    assert time.monotonic() - started < bounded(0.3)  # the server hangs for 30 s


def test_turnstile_needs_a_secret(tmp_path: Path) -> None:
    store = SQLiteLimitsStore(tmp_path / "limits.sqlite3")
    with pytest.raises(ConfigError, match="secret"):
        create_bot_check(with_bot_check(tmp_path, provider="turnstile"), store)
    made = create_bot_check(
        with_bot_check(tmp_path, provider="turnstile", secret=SecretStr("s")), store
    )
    assert made.name == "turnstile"


def with_bot_check(data: Path, host: str = "127.0.0.1", **bot_check: object) -> Settings:
    return Settings(data_dir=data, server={"host": host}, bot_check=BotCheckSettings(**bot_check))


def test_auto_picks_turnstile_altcha_or_off(tmp_path: Path) -> None:
    """The default: Turnstile with its keys, ALTCHA beyond loopback, else off."""
    keys = {"secret": SecretStr("s"), "site_key": "k"}
    assert chosen_provider(with_bot_check(tmp_path, "0.0.0.0", **keys)) == "turnstile"
    assert chosen_provider(with_bot_check(tmp_path, "0.0.0.0")) == "altcha"
    assert chosen_provider(with_bot_check(tmp_path, "127.0.0.1")) == "off"
    opted_out = with_bot_check(tmp_path, "0.0.0.0", allow_public_ask_without_bot_check=True)
    assert chosen_provider(opted_out) == "off"
    assert chosen_provider(with_bot_check(tmp_path, "127.0.0.1", provider="altcha")) == "altcha"
    require_bot_check_for_public_binding(with_bot_check(tmp_path, "0.0.0.0"), "0.0.0.0")


def test_off_is_refused_on_a_public_binding(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_check=BotCheckSettings(provider="off"))
    require_bot_check_for_public_binding(settings, "127.0.0.1")
    require_bot_check_for_public_binding(settings, "::1")
    with pytest.raises(ConfigError, match="without a bot check"):
        require_bot_check_for_public_binding(settings, "0.0.0.0")
    quiet = SiteConfig(id="s", roots=[RootConfig(path=tmp_path)], ask_enabled=False)
    off = BotCheckSettings(provider="off")
    require_bot_check_for_public_binding(
        Settings(data_dir=tmp_path, sites=[quiet], bot_check=off), "0.0.0.0"
    )
    guarded = Settings(
        data_dir=tmp_path, bot_check=BotCheckSettings(provider="turnstile", secret=SecretStr("s"))
    )
    require_bot_check_for_public_binding(guarded, "0.0.0.0")


@pytest.mark.anyio
async def test_no_bot_check_refuses_non_loopback_clients() -> None:
    check = NoBotCheck()
    await check.verify("", action="ask", hostnames=["h"], remote_ip="127.0.0.1")
    await check.verify("", action="ask", hostnames=["h"], remote_ip="::1")
    for remote in ("203.0.113.9", "10.0.0.2", None):
        with pytest.raises(Forbidden) as refused:
            await check.verify("", action="ask", hostnames=["h"], remote_ip=remote)
        assert refused.value.code == "bot_check_required"
    await NoBotCheck(allow_remote=True).verify(
        "", action="ask", hostnames=["h"], remote_ip="203.0.113.9"
    )


@pytest.mark.parametrize(
    "server",
    [{"trusted_proxies": ["127.0.0.1"]}, {"public_url": "https://docs.example"}],
)
def test_bot_check_required_behind_a_proxy_on_loopback(
    tmp_path: Path, server: dict[str, object]
) -> None:
    site = SiteConfig(id="docs", roots=[RootConfig(path=tmp_path)])
    off = {"provider": "off"}
    proxied = Settings(data_dir=tmp_path, sites=[site], server=server, bot_check=off)
    with pytest.raises(ConfigError, match="behind a proxy"):
        require_bot_check_for_public_binding(proxied, "127.0.0.1")
    local = Settings(
        data_dir=tmp_path,
        sites=[site],
        server={"public_url": "http://127.0.0.1:8000"},
        bot_check=off,
    )
    require_bot_check_for_public_binding(local, "127.0.0.1")  # its own loopback address


def test_explicit_opt_out_starts_and_warns_loudly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    site = SiteConfig(id="docs", roots=[RootConfig(path=tmp_path)])
    settings = Settings(
        data_dir=tmp_path,
        sites=[site],
        bot_check={"allow_public_ask_without_bot_check": True},
    )
    require_bot_check_for_public_binding(settings, "0.0.0.0")
    assert any("UNPROTECTED" in r.getMessage() for r in caplog.records)
