"""Authentication at the MCP transport boundary, never as a tool argument.

Stdio in server mode reads ``ASKDOCS_MCP_TOKEN`` once at start and verifies it; the HTTP
transport verifies ``Authorization: Bearer`` on every request through the SDK's bearer
middleware, which answers 401 with ``WWW-Authenticate`` before any MCP work. In server mode
the claims are informational: the token is forwarded unchanged and the API re-checks it. In
local mode over HTTP there is no API behind the tools, so the verifier itself re-reads the
token's user from this data dir's database (``LocalUsers``): a deleted user's token is
refused at once, not when it expires, and organisation role and platform admin are the
database's values now, as on the REST API.

Server mode accepts only *MCP tokens* (``askdocs token create --mcp``: their audience
names the MCP server too, as the MCP specification wants): the API lets such a token
apply a change only with the approval proof this server mints after the person accepted
it, so the token a host holds cannot apply a change on its own (docs/user-guide/mcp.md
"Approvals and the threat model").
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import anyio
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken

from askdocs.auth.jwt import Claims, mcp_audience, verify
from askdocs.error_codes import ErrorCode
from askdocs.errors import AskDocsError, AuthError, ConfigError
from askdocs.keys import KeyRing
from askdocs.keys.specs import JWT_ENV, SPECS
from askdocs.settings import Settings
from askdocs.users.types import Principal

if TYPE_CHECKING:  # the database layer loads only when a local HTTP token is checked
    from askdocs.db import Database

TOKEN_ENV = "ASKDOCS_MCP_TOKEN"  # noqa: S105 (a variable name)
log = logging.getLogger(__name__)
PrincipalOf = Callable[[Claims], Principal]  # AuthError for a user that no longer exists


@dataclass(frozen=True)
class AuthContext:
    """Who is calling: the verified claims plus the raw token (forwarded, never logged)."""

    sub: str
    org: str | None
    org_role: str | None
    platform_admin: bool
    token: str = field(repr=False)
    email: str | None = None

    @classmethod
    def from_claims(cls, claims: Claims, token: str) -> AuthContext:
        return cls(
            claims.sub, claims.org, claims.org_role, claims.platform_admin, token, claims.email
        )

    def wire(self) -> dict[str, object]:
        """The context as the seed names it: ``sub``, ``email``, ``org``, ``orgRole``,
        ``platformAdmin``."""
        return {
            "sub": self.sub,
            "email": self.email,
            "org": self.org,
            "orgRole": self.org_role,
            "platformAdmin": self.platform_admin,
        }


def database_opener(settings: Settings) -> Callable[[], Database]:
    """This data dir's database, opened on first call and kept (for the key ring where no
    ``Core`` opens it: server mode, without a configured signing key)."""
    from functools import cache

    from askdocs.db import Database

    return cache(lambda: Database.open(settings))


class LocalUsers:
    """Local mode's user check: the token's subject as this data dir's database knows it now
    (``users.principal.resolve``). ``database`` is the ``Core``'s (``Core.database``): it
    opens on the first request."""

    def __init__(self, database: Callable[[], Database]) -> None:
        self._database = database

    def __call__(self, claims: Claims) -> Principal:
        from askdocs.users.principal import resolve
        from askdocs.users.service import UserService

        return resolve(UserService(self.database()), claims)

    def database(self) -> Database:
        return self._database()


class JwtTokenVerifier:
    """The SDK's ``TokenVerifier`` over askdocs's HS256 JWTs (issuer, audience, expiry); with
    ``principal_of`` (local mode) the user must also still exist, and its authority is
    re-read."""

    def __init__(
        self,
        settings: Settings,
        principal_of: PrincipalOf | None = None,
        keys: KeyRing | None = None,
        *,
        audience: str | None = None,
    ) -> None:
        self._settings = settings
        self._principal_of = principal_of
        # the install's keys: configured, else this data dir's (or the API's) database
        self._keys = keys or KeyRing(settings, database_opener(settings))
        self._audience = audience  # server mode: the MCP audience

    def _verify(self, token: str) -> Claims:
        return verify(token, self._settings, self._keys, audience=self._audience)

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            claims = await anyio.to_thread.run_sync(self._verify, token)
            if self._principal_of is not None:
                claims = _current(
                    await anyio.to_thread.run_sync(self._principal_of, claims), claims
                )
        except AuthError:
            return None
        except AskDocsError as exc:  # the database cannot answer: refuse, never guess
            log.warning("MCP token refused: the user check failed: %s", exc)
            return None
        return AccessToken(
            token=token,
            client_id=claims.sub,
            subject=claims.sub,
            scopes=[],
            expires_at=claims.expires_at,
            resource=self._settings.auth.jwt_audience,
            claims={
                "iss": self._settings.auth.jwt_issuer,
                "email": claims.email,
                "org": claims.org,
                "orgRole": claims.org_role,
                "platformAdmin": claims.platform_admin,
            },
        )


def _current(principal: Principal, claims: Claims) -> Claims:
    """The token's claims with the authority the database gives the user now."""
    return replace(
        claims,
        email=principal.user.email,
        org=principal.org,
        org_role=principal.org_role,
        platform_admin=principal.user.platform_admin,
    )


def context_from_access_token(token: AccessToken) -> AuthContext:
    claims = token.claims or {}
    org, role, email = claims.get("org"), claims.get("orgRole"), claims.get("email")
    return AuthContext(
        sub=token.subject or token.client_id,
        org=org if isinstance(org, str) else None,
        org_role=role if isinstance(role, str) else None,
        platform_admin=claims.get("platformAdmin") is True,
        token=token.token,
        email=email if isinstance(email, str) else None,
    )


def current_auth(fixed: AuthContext | None) -> AuthContext | None:
    """The caller of this request: the HTTP bearer when there is one, else the stdio token."""
    token = get_access_token()
    return context_from_access_token(token) if token is not None else fixed


def stdio_token(env: Mapping[str, str] | None = None) -> str:
    """``ASKDOCS_MCP_TOKEN``, read once at start; AuthError when it is not set."""
    token = (env if env is not None else os.environ).get(TOKEN_ENV, "").strip()
    if not token:
        raise AuthError(
            f"{TOKEN_ENV} is not set: server mode needs a bearer token "
            "(mint one with `askdocs token create --mcp --email YOU`)",
            code=ErrorCode.MISSING_TOKEN,
        )
    return token


def stdio_auth(settings: Settings, token: str) -> AuthContext:
    """Verify the stdio token (server mode: an MCP token); AuthError says what was wrong
    and what to do."""
    try:
        claims = verify(token, settings, audience=mcp_audience(settings))
    except AuthError as exc:
        raise AuthError(
            f"{TOKEN_ENV} was refused: {exc}; mint an MCP token with "
            "`askdocs token create --mcp --email YOU`",
            code=exc.code,
        ) from exc
    return AuthContext.from_claims(claims, token)


def require_shared_key(settings: Settings, env: Mapping[str, str] | None = None) -> None:
    """Server mode verifies with the API's key: refuse to invent a fresh one silently."""
    environ = env if env is not None else os.environ
    if settings.auth.jwt_signing_key is not None or environ.get(JWT_ENV):
        return
    if (settings.data_dir / SPECS["jwt"].legacy_file).is_file() or _stored_jwt_key(settings):
        return
    raise ConfigError(
        "server mode verifies tokens with the API's signing key: set "
        "ASKDOCS_AUTH__JWT_SIGNING_KEY to the API's key, or point --data-dir (or "
        "ASKDOCS_DATABASE_URL) at the API's database"
    )


def _stored_jwt_key(settings: Settings) -> bool:
    """Whether the API's database (this data dir's, or ``database_url``) holds a ``jwt`` key;
    a data dir with no database is not opened (nor created)."""
    from askdocs.db import Database
    from askdocs.db.engine import SQLITE_FILE

    if not settings.database_url and not (settings.data_dir / SQLITE_FILE).is_file():
        return False
    db = Database.open(settings)
    try:
        with db.session() as session:
            from sqlalchemy import select

            from askdocs.db.replica_models import InstallKeyRow

            found = session.scalar(select(InstallKeyRow.version).where(InstallKeyRow.name == "jwt"))
        return found is not None
    finally:
        db.close()
