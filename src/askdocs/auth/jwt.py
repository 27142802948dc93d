"""Mint and verify askdocs bearer tokens: HS256 only; sub, exp, iat, iss, aud required.

Claims ``email``, ``org``, ``orgRole`` and ``platformAdmin`` are informational. Minted
tokens carry ``isAdmin`` too, an alias of ``platformAdmin`` (seed 002: "isAdmin is still
emitted as an alias of platformAdmin"); verifying accepts tokens with or without either
(``platformAdmin`` wins when both are present; neither is a non-admin) and with or without
``email`` (tokens minted before it existed keep working). Authority is always re-read from
the database by the caller; a token alone never grants it. ``tokenVersion`` (absent: 0) is
the account's token version when the token was minted; the caller compares it with the
account's now (``users.principal.resolve``).

An *MCP token* (``mint(..., mcp=True)``, ``askdocs token create --mcp``) is issued for the
MCP server as well: its ``aud`` holds the API's audience and ``<audience>/mcp``. The MCP
server accepts only those, and the API lets such a token apply a change only with the
person's approval proof (``askdocs.auth.approval``): it is the token a model's host holds.

The key is the install's ``jwt`` key (``askdocs.keys``): a token signed with a stored key
names its version in the ``kid`` header, so after a rotation a token verifies with exactly
the key that signed it while that key is within its grace period. Callers that hold the
process's ``KeyRing`` pass it; without one, a ring over the configured database is opened
for the call (the CLI).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import jwt as pyjwt

from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError
from askdocs.keys import Key, KeyRing, standalone_ring
from askdocs.settings import Settings

ALGORITHM = "HS256"
REQUIRED_CLAIMS = ("sub", "exp", "iat", "iss", "aud")
_KID = re.compile(r"^[1-9][0-9]{0,8}$")


@dataclass(frozen=True)
class Claims:
    """The typed identity a verified token carries."""

    sub: str
    email: str | None
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
    email: str | None = None,
    ttl_seconds: int | None = None,
    org: str | None = None,
    org_role: str | None = None,
    platform_admin: bool = False,
    now: int | None = None,
    token_version: int = 0,
    mcp: bool = False,
    keys: KeyRing | None = None,
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
        "isAdmin": platform_admin,
        "tokenVersion": token_version,
    }
    if email is not None:
        claims["email"] = email
    if org is not None:
        claims["org"] = org
        claims["orgRole"] = org_role
    with _ring(settings, keys) as ring:
        key = ring.signing("jwt")
    headers = {"kid": str(key.version)} if key.version else None
    return pyjwt.encode(claims, key.secret, algorithm=ALGORITHM, headers=headers)


def verify(
    token: str, settings: Settings, keys: KeyRing | None = None, *, audience: str | None = None
) -> Claims:
    """Verify signature, algorithm, issuer, audience (the API's, or ``audience``) and
    expiry; raise AuthError otherwise."""
    if not token:
        raise AuthError("missing bearer token")
    with _ring(settings, keys) as ring:
        candidates = _candidates(ring, token)
    for key in candidates:
        try:
            return _claims(_decode(token, key, settings, audience), mcp_audience(settings))
        except pyjwt.InvalidSignatureError:
            continue
        except pyjwt.ExpiredSignatureError as exc:
            raise AuthError("token expired", code=ErrorCode.TOKEN_EXPIRED) from exc
        except pyjwt.PyJWTError as exc:
            raise AuthError(f"invalid token: {exc}", code=ErrorCode.INVALID_TOKEN) from exc
    raise AuthError("invalid token: signature verification failed", code=ErrorCode.INVALID_TOKEN)


def _decode(token: str, key: Key, settings: Settings, audience: str | None) -> dict[str, object]:
    data: dict[str, object] = pyjwt.decode(
        token,
        key.secret,
        algorithms=[ALGORITHM],
        audience=audience or settings.auth.jwt_audience,
        issuer=settings.auth.jwt_issuer,
        options={"require": list(REQUIRED_CLAIMS)},
    )
    return data


def _candidates(ring: KeyRing, token: str) -> tuple[Key, ...]:
    """The key the ``kid`` header names (None: no such key now), else every verifying key."""
    try:
        kid = pyjwt.get_unverified_header(token).get("kid")
    except pyjwt.PyJWTError as exc:
        raise AuthError(f"invalid token: {exc}", code=ErrorCode.INVALID_TOKEN) from exc
    if kid is None:
        return ring.verifying("jwt")
    if not isinstance(kid, str) or not _KID.match(kid):
        raise AuthError("invalid token: unknown key id", code=ErrorCode.INVALID_TOKEN)
    key = ring.version("jwt", int(kid))
    if key is None:
        raise AuthError("invalid token: its signing key was retired", code=ErrorCode.INVALID_TOKEN)
    return (key,)


@contextmanager
def _ring(settings: Settings, keys: KeyRing | None) -> Iterator[KeyRing]:
    if keys is not None:
        yield keys
        return
    with standalone_ring(settings) as opened:
        yield opened


def _claims(data: dict[str, object], mcp_aud: str) -> Claims:
    sub = data.get("sub")
    if not isinstance(sub, str) or not sub:
        raise AuthError(
            "invalid token: sub must be a non-empty string", code=ErrorCode.INVALID_TOKEN
        )
    admin = data.get("platformAdmin", data.get("isAdmin", False))
    org, role, email = data.get("org"), data.get("orgRole"), data.get("email")
    return Claims(
        sub=sub,
        email=email if isinstance(email, str) else None,
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
