"""Wire schemas of sign-in, users and organisations (camelCase on the wire)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from askdocs.users.types import OrgRole
from askdocs.wire import Wire

MAX_PASSWORD_FIELD = 1024


class SignInIn(Wire):
    email: str = Field(min_length=1, max_length=320)
    password: str = Field(min_length=1, max_length=MAX_PASSWORD_FIELD)


class UserOut(Wire):
    id: str
    email: str
    display_name: str
    platform_admin: bool


class MembershipOut(Wire):
    id: str
    name: str
    role: OrgRole | None
    members: int


class MeOut(Wire):
    user: UserOut
    organisations: list[MembershipOut]
    csrf_token: str | None  # present for cookie sessions: send it as X-CSRF-Token
    method: str  # password | oidc | invitation | token


class SessionStateOut(Wire):
    signed_in: bool
    me: MeOut | None


class SessionOut(Wire):
    id: str
    method: str
    created_at: datetime
    last_seen_at: datetime
    expires_at: datetime
    current: bool


class SessionListOut(Wire):
    sessions: list[SessionOut]


class AuthConfigOut(Wire):
    password: bool
    oidc: bool
    oidc_name: str


class PasswordIn(Wire):
    current_password: str = Field(min_length=1, max_length=MAX_PASSWORD_FIELD)
    new_password: str = Field(min_length=1, max_length=MAX_PASSWORD_FIELD)


class InvitationOut(Wire):
    email: str
    organisation_id: str | None
    organisation_name: str | None
    role: OrgRole | None
    platform_admin: bool
    expires_at: datetime
    for_you: bool  # the caller is signed in as the invited address (never: whether it exists)


class AcceptIn(Wire):
    token: str = Field(min_length=10, max_length=200)
    password: str | None = Field(default=None, max_length=MAX_PASSWORD_FIELD)
    name: str = Field(default="", max_length=200)


class InviteIn(Wire):
    email: str = Field(min_length=3, max_length=320)
    organisation_id: str | None = Field(default=None, max_length=36)
    role: OrgRole | None = None
    platform_admin: bool = False


class ResetOut(Wire):
    email: str
    expires_at: datetime


class ResetIn(Wire):
    token: str = Field(min_length=10, max_length=200)
    password: str = Field(min_length=1, max_length=MAX_PASSWORD_FIELD)


class InviteOut(Wire):
    link: str
    email: str
    expires_at: datetime


class UserCreateIn(Wire):
    email: str = Field(min_length=3, max_length=320)
    name: str = Field(default="", max_length=200)
    password: str | None = Field(default=None, max_length=MAX_PASSWORD_FIELD)
    platform_admin: bool = False


class UserListOut(Wire):
    users: list[UserOut]


class OrgCreateIn(Wire):
    name: str = Field(min_length=1, max_length=200)
    owner_email: str | None = Field(default=None, max_length=320)


class OrgListOut(Wire):
    organisations: list[MembershipOut]


class MemberOut(Wire):
    user_id: str
    email: str
    display_name: str
    role: OrgRole


class OrgOut(Wire):
    id: str
    name: str
    members: list[MemberOut]
    owns_configured_sites: bool  # the bundled docs and the config file's sites


class MemberIn(Wire):
    email: str = Field(min_length=3, max_length=320)
    role: OrgRole = "member"


class RoleIn(Wire):
    role: OrgRole
