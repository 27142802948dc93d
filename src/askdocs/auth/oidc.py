"""Single sign-on with one OpenID Connect provider: authorization code flow with PKCE (S256),
``state`` and ``nonce``, through Authlib's OAuth 2 client; the id token is verified with
joserfc (Authlib's JOSE successor) against the provider's published keys.

Checks on the way back, in order: the callback's ``state`` equals the sealed one; the code
is exchanged with the PKCE verifier and the client secret; the id token's signature, ``iss``
(the configured issuer), ``aud`` (the client id), ``exp``/``iat`` and ``nonce`` hold; the
``email`` parses as one address, is verified (``email_verified`` is JSON ``true``; absent
only for an address in one of ``auth.oidc.trusted_email_domains``), and its parsed domain
is allowed. An email from userinfo comes with userinfo's own ``email_verified``, never the
id token's. Each failure is an ``AuthError`` with its own code (docs/sign-in.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx
from authlib.integrations.httpx_client import AsyncOAuth2Client  # type: ignore[import-untyped]
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

from askdocs.auth.emails import normalise_email
from askdocs.auth.oidc_state import FlowState
from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError, ConfigError, InvalidInput, ServiceUnavailable
from askdocs.settings import OidcSettings

ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA")
EMAIL_CLAIMS = ("email", "email_verified")  # they travel together, from one source
CLOCK_SKEW_SECONDS = 60


@dataclass(frozen=True)
class Metadata:
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    userinfo_endpoint: str | None


@dataclass(frozen=True)
class Identity:
    issuer: str
    subject: str
    email: str
    name: str


def refused(message: str, code: ErrorCode) -> AuthError:
    return AuthError(message, code=code)


def _id_token(token: dict[str, Any]) -> str:
    value = token.get("id_token")
    if not isinstance(value, str):
        raise refused("the provider sent no id token", code=ErrorCode.OIDC_INVALID_TOKEN)
    return value


def _domains(names: list[str]) -> set[str]:
    return {d.strip().lower().lstrip("@") for d in names}


def email_allowed(domain: str, allowed: list[str]) -> bool:
    """``domain``: the parsed address's (``auth.emails.normalise_email``)."""
    wanted = _domains(allowed)
    return "*" in wanted or domain in wanted


def email_verified(claims: dict[str, Any], domain: str, trusted: list[str]) -> bool:
    """JSON ``true``; or no claim at all for an address in a domain the provider owns."""
    if "email_verified" not in claims:
        return domain in _domains(trusted) - {"*"}
    return claims["email_verified"] is True


def with_userinfo(claims: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    """The id token's claims with userinfo's email and its verification flag (both, or
    neither: an address is never judged by another source's flag)."""
    kept = {k: v for k, v in claims.items() if k not in EMAIL_CLAIMS}
    return {**info, **kept, **{k: info[k] for k in EMAIL_CLAIMS if k in info}}


class OidcClient:
    def __init__(self, config: OidcSettings) -> None:
        if not (config.issuer and config.client_id and config.client_secret):
            raise ConfigError("single sign-on needs auth.oidc.issuer, client_id and client_secret")
        self.config = config
        self.issuer = config.issuer.rstrip("/")
        self.client_id = config.client_id
        self._secret = config.client_secret.get_secret_value()

    def _oauth(self, redirect_uri: str) -> AsyncOAuth2Client:
        return AsyncOAuth2Client(
            client_id=self.client_id,
            client_secret=self._secret,
            scope=" ".join(self.config.scopes),
            redirect_uri=redirect_uri,
            code_challenge_method="S256",
            timeout=self.config.timeout_seconds,
        )

    async def _get(self, url: str) -> dict[str, Any]:
        try:
            async with httpx.AsyncClient(timeout=self.config.timeout_seconds) as http:
                response = await http.get(url)
                response.raise_for_status()
                data = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise ServiceUnavailable(
                "the sign-on provider cannot be reached", code=ErrorCode.OIDC_UNAVAILABLE
            ) from exc
        if not isinstance(data, dict):
            raise ServiceUnavailable(
                "the sign-on provider answered oddly", code=ErrorCode.OIDC_UNAVAILABLE
            )
        return data

    async def metadata(self) -> Metadata:
        data = await self._get(self.issuer + "/.well-known/openid-configuration")
        if str(data.get("issuer", "")).rstrip("/") != self.issuer:
            raise ServiceUnavailable(
                "the provider names another issuer", code=ErrorCode.OIDC_UNAVAILABLE
            )
        try:
            userinfo = data.get("userinfo_endpoint")
            return Metadata(
                str(data["authorization_endpoint"]),
                str(data["token_endpoint"]),
                str(data["jwks_uri"]),
                str(userinfo) if userinfo else None,
            )
        except KeyError as exc:
            raise ServiceUnavailable(
                "the provider's metadata is incomplete", code=ErrorCode.OIDC_UNAVAILABLE
            ) from exc

    async def authorization_url(self, flow: FlowState, redirect_uri: str) -> str:
        meta = await self.metadata()
        async with self._oauth(redirect_uri) as client:
            url, _ = client.create_authorization_url(
                meta.authorization_endpoint,
                state=flow.state,
                nonce=flow.nonce,
                code_verifier=flow.verifier,
            )
        return str(url)

    async def finish(self, flow: FlowState, code: str, redirect_uri: str) -> Identity:
        meta = await self.metadata()
        token = await self._exchange(meta, flow, code, redirect_uri)
        keys = KeySet.import_key_set(await self._get(meta.jwks_uri))  # type: ignore[arg-type]
        claims = self._verify(_id_token(token), keys, flow.nonce)
        if "email" not in claims and meta.userinfo_endpoint:
            info = await self._userinfo(meta.userinfo_endpoint, token, claims)
            claims = with_userinfo(claims, info)
        return self._identity(claims)

    async def _exchange(
        self, meta: Metadata, flow: FlowState, code: str, redirect_uri: str
    ) -> dict[str, Any]:
        try:
            async with self._oauth(redirect_uri) as client:
                token = await client.fetch_token(
                    meta.token_endpoint, code=code, code_verifier=flow.verifier
                )
        except Exception as exc:  # Authlib raises OAuthError and httpx errors alike
            raise refused(
                "the sign-on provider refused the code", code=ErrorCode.OIDC_EXCHANGE_FAILED
            ) from exc
        return dict(token)

    async def _userinfo(
        self, url: str, token: dict[str, Any], claims: dict[str, Any]
    ) -> dict[str, Any]:
        """The provider's userinfo for this token; it must be about the id token's subject."""
        try:
            async with AsyncOAuth2Client(
                client_id=self.client_id, token=token, timeout=self.config.timeout_seconds
            ) as client:
                response = await client.get(url)
                response.raise_for_status()
                data = response.json()
        except Exception as exc:
            raise refused(
                "the provider's userinfo failed", code=ErrorCode.OIDC_EXCHANGE_FAILED
            ) from exc
        if not isinstance(data, dict) or data.get("sub") != claims.get("sub"):
            raise refused(
                "the provider's userinfo is about someone else", code=ErrorCode.OIDC_INVALID_TOKEN
            )
        return data

    def _verify(self, id_token: str, keys: KeySet, nonce: str) -> dict[str, Any]:
        try:
            token = jwt.decode(id_token, keys, algorithms=list(ALGORITHMS))
        except (JoseError, ValueError) as exc:
            raise refused(
                "the id token's signature does not verify", code=ErrorCode.OIDC_INVALID_TOKEN
            ) from exc
        claims = dict(token.claims)
        registry = jwt.JWTClaimsRegistry(
            now=int(time.time()),
            leeway=CLOCK_SKEW_SECONDS,
            iss={"essential": True, "value": self.issuer},
            aud={"essential": True, "value": self.client_id},
            sub={"essential": True},
            exp={"essential": True},
            nonce={"essential": True, "value": nonce},
        )
        try:
            registry.validate(claims)
        except JoseError as exc:
            expired = "exp" in str(exc)
            message = f"the id token is not acceptable: {exc}"
            if expired:
                raise refused(message, code=ErrorCode.OIDC_TOKEN_EXPIRED) from exc
            raise refused(message, code=ErrorCode.OIDC_INVALID_TOKEN) from exc
        return claims

    def _identity(self, claims: dict[str, Any]) -> Identity:
        email = claims.get("email")
        try:
            address = normalise_email(email) if isinstance(email, str) else ""
        except InvalidInput:
            address = ""
        if not address:
            raise refused(
                "the provider did not share an email address", code=ErrorCode.OIDC_NO_EMAIL
            )
        domain = address.rpartition("@")[2]
        if not email_verified(claims, domain, self.config.trusted_email_domains):
            raise refused(
                "the provider has not verified this email address", code=ErrorCode.OIDC_NO_EMAIL
            )
        if not email_allowed(domain, self.config.allowed_email_domains):
            raise refused(
                "this email domain may not sign in here", code=ErrorCode.OIDC_DOMAIN_NOT_ALLOWED
            )
        name = claims.get("name")
        shown = name if isinstance(name, str) else ""
        return Identity(self.issuer, str(claims["sub"]), address, shown)
