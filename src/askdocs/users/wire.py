"""Wire schemas of sign-in, users and organisations (camelCase on the wire)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field

from askdocs.auth.emails import EMAIL_PATTERN
from askdocs.guard.validation import CleanText
from askdocs.users.types import OrgRole
from askdocs.wire import Wire

MAX_PASSWORD_FIELD = 1024
# an address ``normalise_email`` accepts (it refuses others: 400 invalid_email)
Email = Annotated[
    str, Field(min_length=3, max_length=320, json_schema_extra={"pattern": EMAIL_PATTERN})
]


class SignInIn(Wire):
    email: CleanText = Field(min_length=1, max_length=320)  # a NUL is 400, not a 500
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
    email: Email
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
    email: Email
    name: str = Field(default="", max_length=200)
    password: str | None = Field(default=None, max_length=MAX_PASSWORD_FIELD)
    platform_admin: bool = False


class UserListOut(Wire):
    users: list[UserOut]


class OrgCreateIn(Wire):
    name: str = Field(min_length=1, max_length=200)
    owner_email: Email | None = None


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
    email: Email
    role: OrgRole = "member"


class RoleIn(Wire):
    role: OrgRole
