"""People for the battery's sign-in categories: accounts with passwords in the rig's
database, and browsers (an httpx client with its own cookie jar, optionally from another
loopback address, so the server sees another client)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
from bench.battery.rig import Rig

from askdocs.auth.jwt import mint
from askdocs.db import Database
from askdocs.settings import Settings
from askdocs.users.accounts import Accounts
from askdocs.users.service import UserService

PASSWORD = "battery passphrase 0123"
CSRF_HEADER = "X-CSRF-Token"
_worlds: dict[str, World] = {}


@dataclass
class World:
    settings: Settings
    db: Database

    @property
    def accounts(self) -> Accounts:
        return Accounts(self.settings, self.db)

    @property
    def users(self) -> UserService:
        return UserService(self.db)

    def person(self, email: str, *, platform_admin: bool = False) -> str:
        """The account ``email`` with ``PASSWORD`` (created once); its user id."""
        found, _ = self.users.find_email(email)
        user = found or self.users.create_user(
            email, email.split("@")[0], platform_admin=platform_admin
        )
        self.accounts.set_password(user.id, PASSWORD)
        return user.id

    def version(self, user_id: str) -> int:
        """The account's token version now (a password change bumps it)."""
        user = self.users.get(user_id)
        return user.token_version if user is not None else 0

    def bearer(self, user_id: str, **claims: Any) -> dict[str, str]:
        token = mint(self.settings, user_id, token_version=self.version(user_id), **claims)
        return {"Authorization": f"Bearer {token}"}


def world(rig: Rig) -> World:
    if rig.url not in _worlds:
        settings = Settings.model_validate(
            {"data_dir": rig.data_dir, "database_url": rig.env["ASKDOCS_DATABASE_URL"]}
        )
        _worlds[rig.url] = World(settings, Database.open(settings))
    return _worlds[rig.url]


class Browser:
    """One browser: its cookies, its CSRF token once signed in, its source address."""

    def __init__(self, rig: Rig, source: str = "127.0.0.1") -> None:
        transport = httpx.HTTPTransport(local_address=source)
        self.http = httpx.Client(base_url=rig.url, transport=transport, timeout=60)
        self.csrf = ""

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()

    def sign_in(self, email: str, password: str = PASSWORD) -> httpx.Response:
        answer = self.http.post("/api/v1/auth/sign-in", json={"email": email, "password": password})
        if answer.status_code == 200:
            self.csrf = str(answer.json().get("csrfToken", ""))
        return answer

    def send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """A change as the page sends it: with the session's CSRF token."""
        headers = {CSRF_HEADER: self.csrf, **kwargs.pop("headers", {})}
        return self.http.request(method, path, headers=headers, **kwargs)


def code_of(response: httpx.Response) -> str | None:
    try:
        error = response.json().get("error")
    except ValueError:
        return None
    return str(error.get("code")) if isinstance(error, dict) else None
