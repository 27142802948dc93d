"""From a verified token to the caller: identity and authority re-read from the database.

A token carries the account's token version when it was minted (``tokenVersion``; absent:
0); a password change bumps the account's, so every older token is refused here, on the
REST API and in MCP local mode alike (``mcp.auth.LocalUsers`` calls ``resolve``).
"""

from __future__ import annotations

from askdocs.auth.jwt import Claims, verify
from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError
from askdocs.keys import KeyRing
from askdocs.settings import Settings
from askdocs.users.service import UserService
from askdocs.users.types import Principal


def bearer_token(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; AuthError otherwise."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthError("a bearer token is required", code=ErrorCode.MISSING_TOKEN)
    return token.strip()


def resolve(users: UserService, claims: Claims) -> Principal:
    """The token's subject as the database knows it now; a deleted user is 401."""
    user = users.get(claims.sub)
    if user is None:
        raise AuthError("the token's user no longer exists", code=ErrorCode.UNKNOWN_USER)
    if claims.token_version != user.token_version:
        raise AuthError(
            "this token was issued before the account's password changed or its sign-ins "
            "were ended: mint a new one",
            code=ErrorCode.TOKEN_REVOKED,
        )
    role = users.role_in(user.id, claims.org) if claims.org else None
    return Principal(user=user, org=claims.org if role else None, org_role=role, mcp=claims.mcp)


def authenticate(
    settings: Settings, users: UserService, authorization: str | None, keys: KeyRing | None = None
) -> Principal:
    return resolve(users, verify(bearer_token(authorization), settings, keys))
