"""Users, organisations and memberships as the rest of askdocs sees them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

OrgRole = Literal["owner", "admin", "member"]
ORG_ROLES: tuple[OrgRole, ...] = ("owner", "admin", "member")


@dataclass(frozen=True)
class User:
    id: str
    email: str
    display_name: str
    platform_admin: bool
    token_version: int = 0  # bumped by a password change: older tokens and sessions end


@dataclass(frozen=True)
class Organisation:
    id: str
    name: str


@dataclass(frozen=True)
class Principal:
    """Who is calling, re-read from the database for this request (never from the token alone).

    ``org``/``org_role`` are set only when the token names an organisation the user is
    still a member of; ``platform_admin`` is the database's value. ``mcp``: signed in with
    an MCP token, which applies a change only with the person's approval proof.
    """

    user: User
    org: str | None
    org_role: OrgRole | None
    mcp: bool = False

    @property
    def user_id(self) -> str:
        return self.user.id

    @property
    def platform_admin(self) -> bool:
        return self.user.platform_admin
