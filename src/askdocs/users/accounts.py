"""Accounts: password sign-in, browser sessions and invitations over one database.

What the HTTP routes and the CLI call; every method is blocking (run it in a worker thread
from async code). Failures of sign-in are one error, ``invalid_credentials``, whether the
email is unknown, has no password or the password is wrong, and they cost the same argon2
work.
"""

from __future__ import annotations

from dataclasses import dataclass

from askdocs.db import Database
from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError, InvalidInput, NotFound
from askdocs.keys import KeyRing
from askdocs.settings import Settings
from askdocs.users import passwords
from askdocs.users.invitations import Invitation, Invitations, NewInvitation, invalid_link
from askdocs.users.oidc_links import OidcLinks
from askdocs.users.service import UserService
from askdocs.users.sessions import NewSession, SessionStore
from askdocs.users.types import User


def invalid_credentials() -> AuthError:
    return AuthError(
        "the email address or the password is wrong", code=ErrorCode.INVALID_CREDENTIALS
    )


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
        self.oidc_links = OidcLinks(db)

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

    def oidc_user(self, issuer: str, subject: str, email: str, name: str) -> User:
        """The account single sign-on vouched for (the caller checked the email is verified
        and its domain allowed): the one linked to this subject; an account with this email
        only when an administrator allowed the link (``oidc_not_linked`` otherwise); else a
        new, linked account when ``auth.oidc.create_users`` allows it."""
        linked = self.oidc_links.user_for(issuer, subject)
        found = self.users.get(linked) if linked is not None else None
        if found is not None:
            return found
        user, _ = self.users.find_email(email.lower())
        if user is not None:
            if self.oidc_links.claim(user.id, issuer, subject):
                return user
            raise AuthError(
                "an account with this email address exists but is not linked to single "
                "sign-on: sign in with its password, or ask an administrator to link it",
                code=ErrorCode.OIDC_NOT_LINKED,
            )
        if not self.settings.auth.oidc.create_users:
            raise AuthError(
                "there is no account for this email address", code=ErrorCode.OIDC_NO_ACCOUNT
            )
        created = self.users.create_user(email, name)
        self.oidc_links.add(created.id, issuer, subject)
        return created

    def set_password(self, user_id: str, password: str) -> None:
        """Set a new password and end every session of the account; replacing a password
        bumps its token version, so every bearer token minted before ends too."""
        self.users.set_password(user_id, password, self.settings.auth.min_password_chars)
        self.sessions.revoke_all(user_id)

    def reset_link(self, user_id: str, created_by: str | None = None) -> NewInvitation:
        """A one-time password-reset link for the account (an administrator hands it over):
        the lockout bypass for a browser the account never signed in from."""
        user = self.users.get(user_id)
        if user is None:
            raise NotFound("no such user", code=ErrorCode.USER_NOT_FOUND)
        ttl = self.settings.auth.reset_link_ttl_seconds
        return self.invitations.create(
            user.email, created_by=created_by, purpose="reset", ttl_seconds=ttl
        )

    def reset_password(
        self, token: str, password: str, user_agent: str = ""
    ) -> tuple[User, NewSession]:
        """Use a reset link: set the new password (every session and token ends) and sign
        in. The sign-in limits do not apply: the link is the proof."""
        link = self.invitations.peek(token, "reset")
        user, _ = self.users.find_email(link.email)
        if user is None:
            raise invalid_link("reset")
        passwords.check_policy(password, self.settings.auth.min_password_chars)
        self.invitations.claim(token, user.id, "reset")
        self.users.set_password(user.id, password, self.settings.auth.min_password_chars)
        self.users.bump_token_version(user.id)  # even when the account had no password
        self.sessions.revoke_all(user.id)
        return user, self.sessions.create(user.id, "reset", user_agent)

    def end_sign_ins(self, user_id: str) -> int:
        """End every session and every bearer token of the account; the sessions ended."""
        self.users.bump_token_version(user_id)
        return self.sessions.revoke_all(user_id)

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
                code=ErrorCode.INVITATION_SIGN_IN_REQUIRED,
            )
        if existing is None and not password:
            raise InvalidInput("choose a password", code=ErrorCode.WEAK_PASSWORD)
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
