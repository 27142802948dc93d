"""Mint and verify askdocs bearer tokens: HS256 only; sub, exp, iat, iss, aud required.

Claims ``org``, ``orgRole`` and ``platformAdmin`` are informational (``isAdmin`` is accepted
as an alias; ``platformAdmin`` wins). Authority is always re-read from the database by the
caller; a token alone never grants it. ``tokenVersion`` (absent: 0) is the account's token
version when the token was minted; the caller compares it with the account's now
(``users.principal.resolve``).

An *MCP token* (``mint(..., mcp=True)``, ``askdocs token create --mcp``) is issued for the
MCP server as well: its ``aud`` holds the API's audience and ``<audience>/mcp``. The MCP
server accepts only those, and the API lets such a token apply a change only with the
person's approval proof (``askdocs.auth.approval``): it is the token a model's host holds.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import jwt as pyjwt

from askdocs.auth.keys import signing_key
from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError
from askdocs.settings import Settings

ALGORITHM = "HS256"
REQUIRED_CLAIMS = ("sub", "exp", "iat", "iss", "aud")


@dataclass(frozen=True)
class Claims:
    """The typed identity a verified token carries."""

    sub: str
    org: str | None
    org_role: str | None
    platform_admin: bool
    issued_at: int
    expires_at: int
    token_version: int = 0
    mcp: bool = False  # issued for the MCP server too (its ``aud`` holds the MCP audience)


def mcp_audience(settings: Settings) -> str:
    """The audience that marks a token as issued for the MCP server."""
    return f"{settings.auth.jwt_audience}/mcp"


def mint(
    settings: Settings,
    sub: str,
    *,
    ttl_seconds: int | None = None,
    org: str | None = None,
    org_role: str | None = None,
    platform_admin: bool = False,
    now: int | None = None,
    token_version: int = 0,
    mcp: bool = False,
) -> str:
    issued = int(time.time()) if now is None else now
    ttl = ttl_seconds or settings.auth.default_token_ttl_seconds
    audience = settings.auth.jwt_audience
    claims: dict[str, object] = {
        "sub": sub,
        "iat": issued,
        "exp": issued + ttl,
        "iss": settings.auth.jwt_issuer,
        "aud": [audience, mcp_audience(settings)] if mcp else audience,
        "platformAdmin": platform_admin,
        "tokenVersion": token_version,
    }
    if org is not None:
        claims["org"] = org
        claims["orgRole"] = org_role
    return pyjwt.encode(claims, signing_key(settings), algorithm=ALGORITHM)


def verify(token: str, settings: Settings, *, audience: str | None = None) -> Claims:
    """Verify signature, algorithm, issuer, audience (the API's, or ``audience``) and
    expiry; raise AuthError otherwise."""
    if not token:
        raise AuthError("missing bearer token")
    try:
        data = pyjwt.decode(
            token,
            signing_key(settings),
            algorithms=[ALGORITHM],
            audience=audience or settings.auth.jwt_audience,
            issuer=settings.auth.jwt_issuer,
            options={"require": list(REQUIRED_CLAIMS)},
        )
    except pyjwt.ExpiredSignatureError as exc:
        raise AuthError("token expired", code=ErrorCode.TOKEN_EXPIRED) from exc
    except pyjwt.PyJWTError as exc:
        raise AuthError(f"invalid token: {exc}", code=ErrorCode.INVALID_TOKEN) from exc
    return _claims(data, mcp_audience(settings))


def _claims(data: dict[str, object], mcp_aud: str) -> Claims:
    sub = data.get("sub")
    if not isinstance(sub, str) or not sub:
        raise AuthError(
            "invalid token: sub must be a non-empty string", code=ErrorCode.INVALID_TOKEN
        )
    admin = data.get("platformAdmin", data.get("isAdmin", False))
    org, role = data.get("org"), data.get("orgRole")
    return Claims(
        sub=sub,
        org=org if isinstance(org, str) else None,
        org_role=role if isinstance(role, str) else None,
        platform_admin=admin is True,
        issued_at=_numeric_date(data, "iat"),
        expires_at=_numeric_date(data, "exp"),
        token_version=_version(data),
        mcp=_holds(data.get("aud"), mcp_aud),
    )


def _holds(audience: object, wanted: str) -> bool:
    return audience == wanted or (isinstance(audience, list) and wanted in audience)


def _version(data: dict[str, object]) -> int:
    value = data.get("tokenVersion", 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AuthError(
            "invalid token: tokenVersion must be a whole number", code=ErrorCode.INVALID_TOKEN
        )
    return value


def _numeric_date(data: dict[str, object], name: str) -> int:
    """RFC 7519 NumericDate: a JSON number (fractions allowed, floored); a string, a
    boolean or a non-finite number is an invalid token, never a 500."""
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise AuthError(f"invalid token: {name} must be a number", code=ErrorCode.INVALID_TOKEN)
    return math.floor(value)
