"""Sign-in fixtures: an in-process app (real SQLite, real argon2, real limits store) and
helpers that sign people in the way a browser does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from askdocs.users.accounts import Accounts
from askdocs.users.types import User
from tests.assistant.conftest import Harness, docs_root, open_harness
from tests.assistant.scripted import model_server

__all__ = ["docs_root"]
PASSWORD = "correct horse battery staple"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def harness(tmp_path: Path, docs_root: Path) -> AsyncIterator[Harness]:
    with model_server() as models:
        url = f"sqlite:///{tmp_path / 'signin.db'}"
        overrides = {"auth": {"sign_in_attempts_per_email": 4}}
        async with open_harness(tmp_path / "data", url, docs_root, models, **overrides) as built:
            yield built


def accounts(harness: Harness) -> Accounts:
    return Accounts(harness.settings, harness.runtime.db)


def person(harness: Harness, email: str, *, admin: bool = False) -> User:
    user = accounts(harness).users.create_user(email, email.split("@")[0], platform_admin=admin)
    accounts(harness).set_password(user.id, PASSWORD)
    return user


def browser(harness: Harness, base: str = "http://askdocs.test") -> httpx.AsyncClient:
    """A second client on the same app, with its own cookie jar (another browser)."""
    transport = harness.client._transport
    return httpx.AsyncClient(transport=transport, base_url=base)


async def sign_in(client: httpx.AsyncClient, email: str, password: str = PASSWORD) -> str:
    """Sign in; the CSRF token to send on changes."""
    response = await client.post(
        "/api/v1/auth/sign-in", json={"email": email, "password": password}
    )
    assert response.status_code == 200, response.text
    token = response.json()["csrfToken"]
    assert isinstance(token, str)
    return token
