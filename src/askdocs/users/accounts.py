"""Accounts: password sign-in, browser sessions and invitations over one database.

What the HTTP routes and the CLI call; every method is blocking (run it in a worker thread
from async code). Failures of sign-in are one error, ``invalid_credentials``, whether the
email is unknown, has no password or the password is wrong, and they cost the same argon2
work.
"""

from __future__ import annotations

from dataclasses import dataclass

from askdocs.db import Database
from askdocs.errors import AuthError, InvalidInput
from askdocs.keys import KeyRing
from askdocs.settings import Settings
from askdocs.users import passwords
from askdocs.users.invitations import Invitation, Invitations
from askdocs.users.service import UserService
from askdocs.users.sessions import NewSession, SessionStore
from askdocs.users.types import User


def invalid_credentials() -> AuthError:
    return AuthError("the email address or the password is wrong", code="invalid_credentials")


@dataclass(frozen=True)
class Accepted:
    user: User
    invitation: Invitation
    created: bool  # a new account (False: an existing account joined)


class Accounts:
    def __init__(self, settings: Settings, db: Database, keys: KeyRing | None = None) -> None:
        auth = settings.auth
        self.settings = settings
        self.db = db
        self.keys = keys or KeyRing(settings, lambda: db)  # bearer tokens, sign-on state
        self.users = UserService(db)
        self.sessions = SessionStore(db, auth.session_idle_seconds, auth.session_absolute_seconds)
        self.invitations = Invitations(db, auth.invitation_ttl_seconds)

    def check_password(self, email: str, password: str) -> User:
        """The user whose password this is; ``invalid_credentials`` (401) otherwise."""
        address = email.strip().lower()
        user, stored = self.users.find_email(address)
        if not passwords.verify(stored, password[: passwords.MAX_PASSWORD_CHARS]) or user is None:
            raise invalid_credentials()
        if stored is not None and passwords.needs_rehash(stored):
            self.users.store_hash(user.id, passwords.hash_password(password))
        return user

    def sign_in(self, email: str, password: str, user_agent: str = "") -> tuple[User, NewSession]:
        user = self.check_password(email, password)
        return user, self.sessions.create(user.id, "password", user_agent)

    def oidc_user(self, email: str, name: str) -> User:
        """The account single sign-on vouched for: found by email, or created when
        ``auth.oidc.create_users`` allows it (the caller checked the email's domain)."""
        user, _ = self.users.find_email(email.lower())
        if user is not None:
            return user
        if not self.settings.auth.oidc.create_users:
            raise AuthError("there is no account for this email address", code="oidc_no_account")
        return self.users.create_user(email, name)

    def set_password(self, user_id: str, password: str) -> None:
        """Set a new password and end every session of the account."""
        self.users.set_password(user_id, password, self.settings.auth.min_password_chars)
        self.sessions.revoke_all(user_id)

    def accept(
        self, token: str, *, password: str | None, name: str, signed_in: User | None
    ) -> Accepted:
        """Use an invitation: create the account (with ``password``), or, when the address
        already has an account, add that account (which must be the one signed in)."""
        invitation = self.invitations.peek(token)
        existing, _ = self.users.find_email(invitation.email)
        if existing is not None and (signed_in is None or signed_in.id != existing.id):
            raise AuthError(
                f"sign in as {invitation.email} first, then open the link again",
                code="invitation_sign_in_required",
            )
        if existing is None and not password:
            raise InvalidInput("choose a password", code="weak_password")
        if existing is None:
            passwords.check_policy(password or "", self.settings.auth.min_password_chars)
        user = existing or self.users.create_user(invitation.email, name)
        self.invitations.claim(token, user.id)
        if existing is None and password:
            self.users.set_password(user.id, password, self.settings.auth.min_password_chars)
        self._grant(user, invitation)
        fresh = self.users.get(user.id)
        assert fresh is not None
        return Accepted(fresh, invitation, existing is None)

    def _grant(self, user: User, invitation: Invitation) -> None:
        if invitation.platform_admin and not user.platform_admin:
            self.users.set_platform_admin(user.id, True)
        if invitation.organisation_id is not None and invitation.role is not None:
            current = self.users.role_in(user.id, invitation.organisation_id)
            if current != "owner":
                self.users.add_member(invitation.organisation_id, user.id, invitation.role)
