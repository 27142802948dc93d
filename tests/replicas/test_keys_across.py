"""Every secret that signs or verifies is the same on both replicas: bearer tokens, browser
sessions with their CSRF token, confirmation tokens, the visitor hash; and a key rotated with
``askdocs keys rotate`` (a third process on the same database) reaches both."""

from __future__ import annotations

from pathlib import Path

import altcha
import anyio
import pytest
from click.testing import CliRunner

from askdocs.auth.jwt import mint, verify
from askdocs.cli import cli
from askdocs.errors import AuthError
from askdocs.guard.botcheck import create_bot_check
from askdocs.guard.store_sqlite import SQLiteLimitsStore
from askdocs.keys import KeyRing
from askdocs.settings import BotCheckSettings
from askdocs.users.accounts import Accounts
from tests.replicas.conftest import Replicas
from tests.replicas.test_propagation import until
from tests.signin.conftest import PASSWORD, browser, sign_in


def rotate(replicas: Replicas, *options: str) -> str:
    settings = replicas.a.settings
    env = {
        "ASKDOCS_DATABASE_URL": str(settings.database_url),
        "ASKDOCS_ADMIN__SECRETS_KEY": settings.admin.secrets_key.get_secret_value(),
    }
    args = ["--data-dir", str(settings.data_dir.parent / "ops"), "keys", "rotate", *options]
    result = CliRunner().invoke(cli, args, env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def signs_with(keys: KeyRing) -> int | None:
    """The version the ring holds for signing; None after a re-read was asked for (never
    waits for the database)."""
    found = keys.peek("jwt")
    return found.version if found is not None else None


@pytest.mark.anyio
async def test_a_bearer_token_and_a_session_work_on_either_replica(replicas: Replicas) -> None:
    user, header = replicas.a.user("a@x.io")
    assert (
        await replicas.b.client.get("/api/v1/assistant/threads", headers=header)
    ).status_code == 200
    Accounts(replicas.a.settings, replicas.a.runtime.db).set_password(user.id, PASSWORD)
    on_a = browser(replicas.a)
    async with on_a:
        csrf = await sign_in(on_a, "a@x.io")
        on_b = browser(replicas.b)
        on_b.cookies = on_a.cookies  # the same browser, sent to the other replica
        async with on_b:
            created = await on_b.post(
                "/api/v1/assistant/threads",
                json={"title": "from B"},
                headers={"X-CSRF-Token": csrf, "Origin": "http://askdocs.test"},
            )
    assert created.status_code == 201, created.text
    assert replicas.a.app.visitor_key == replicas.b.app.visitor_key


@pytest.mark.anyio
async def test_a_rotated_signing_key_reaches_both_replicas(replicas: Replicas) -> None:
    user, old_header = replicas.a.user("a@x.io")
    a_keys, b_keys = replicas.a.app.keys, replicas.b.app.keys
    out = await anyio.to_thread.run_sync(lambda: rotate(replicas, "jwt", "--grace", "3600"))
    assert "version 2" in out
    # B signs with the new version as soon as its poll re-read the keys...
    await until(lambda: signs_with(b_keys) != 1, 30)  # its poll dropped version 1
    assert (await anyio.to_thread.run_sync(b_keys.signing, "jwt")).version == 2
    fresh = await anyio.to_thread.run_sync(lambda: mint(replicas.b.settings, user.id, keys=b_keys))
    # ...and A accepts it at once, whatever its own poll: the token names its key's version
    assert verify(fresh, replicas.a.settings, a_keys).sub == user.id
    for replica in (replicas.a, replicas.b):  # the old key verifies for its grace period
        threads = await replica.client.get("/api/v1/assistant/threads", headers=old_header)
        assert threads.status_code == 200
    await anyio.to_thread.run_sync(lambda: rotate(replicas, "jwt", "--grace", "0"))
    for replica in (replicas.a, replicas.b):
        await until(
            lambda r=replica: (
                r.app.keys.peek("jwt") is None or r.app.keys.signing("jwt").version == 3
            ),
            30,
        )
        refused = await replica.client.get("/api/v1/assistant/threads", headers=old_header)
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "invalid_token"
    with pytest.raises(AuthError):
        verify(fresh, replicas.a.settings, a_keys)


@pytest.mark.anyio
async def test_an_altcha_challenge_made_on_one_replica_is_solved_on_the_other(
    replicas: Replicas, tmp_path: Path
) -> None:
    bot = BotCheckSettings(provider="altcha", altcha_cost=10, altcha_max_number=50)
    store = SQLiteLimitsStore(tmp_path / "shared-limits.sqlite3")
    checks = [
        create_bot_check(r.settings.model_copy(update={"bot_check": bot}), store, r.app.keys)
        for r in (replicas.a, replicas.b)
    ]
    try:
        challenge = await anyio.to_thread.run_sync(checks[0].challenge, "ask")  # type: ignore[attr-defined]
        parsed = altcha.Challenge.from_dict(challenge)
        token = altcha.Payload(parsed, altcha.solve_challenge(parsed)).to_base64()
        await checks[1].verify(token, action="ask", hostnames={"docs.test"}, remote_ip=None)
    finally:
        await store.close()
