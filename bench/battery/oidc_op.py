"""A scripted OpenID provider for the battery's ``sso`` category, on 127.0.0.1.

It speaks the protocol askdocs's relying party uses (discovery, JWKS, an authorization
endpoint that redirects straight back with a code, a token endpoint that checks the PKCE
verifier, userinfo), and signs each id token with its RS256 key, so a claim it is told to
get wrong (``iss``, ``aud``, ``exp``, ``nonce``, ``email_verified``, the algorithm) is what
askdocs has to catch: the signature always verifies unless the case is about the signature.
``next_flow(...)`` scripts the next sign-in.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt as pyjwt
from cryptography.hazmat.primitives.asymmetric import rsa
from tests.support.http_server import serving

CLIENT_ID = "askdocs-battery"
CLIENT_SECRET = "askdocs-battery-secret-0123456789abcdef"
KID = "battery-key"


@dataclass
class Flow:
    """How the next id token (and userinfo) is made: claims to set or drop, header changes."""

    email: str
    claims: dict[str, Any] = field(default_factory=dict)  # merged over the defaults
    drop: tuple[str, ...] = ()  # claims left out (email_verified, email, ...)
    alg: str = "RS256"  # "none" and "HS256" (signed with the public key's PEM) are attacks
    userinfo: dict[str, Any] | None = None  # None: the id token's own claims


@dataclass
class _Pending:
    flow: Flow
    nonce: str
    challenge: str
    redirect_uri: str


class ScriptedProvider:
    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.issuer = ""
        self._next: Flow | None = None
        self._codes: dict[str, _Pending] = {}
        self._tokens: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def next_flow(self, flow: Flow) -> None:
        with self._lock:
            self._next = flow

    # -- endpoints -----------------------------------------------------------------------

    def discovery(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "userinfo_endpoint": f"{self.issuer}/userinfo",
            "jwks_uri": f"{self.issuer}/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"],
        }

    def jwks(self) -> dict[str, Any]:
        numbers = self.key.public_key().public_numbers()
        return {
            "keys": [
                {
                    "kty": "RSA",
                    "kid": KID,
                    "use": "sig",
                    "alg": "RS256",
                    "n": _b64int(numbers.n),
                    "e": _b64int(numbers.e),
                }
            ]
        }

    def authorize(self, query: dict[str, str]) -> str:
        """Where the browser goes next: back to the relying party with a code."""
        with self._lock:
            flow, self._next = self._next, None
        code = secrets.token_urlsafe(24)
        if flow is not None:
            self._codes[code] = _Pending(
                flow,
                query.get("nonce", ""),
                query.get("code_challenge", ""),
                query.get("redirect_uri", ""),
            )
        back = {"code": code, "state": query.get("state", "")}
        return f"{query.get('redirect_uri', '')}?{urlencode(back)}"

    def token(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        pending = self._codes.pop(form.get("code", ""), None)
        if pending is None:
            return 400, {"error": "invalid_grant"}
        verifier = form.get("code_verifier", "")
        digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
        if digest.rstrip(b"=").decode() != pending.challenge:
            return 400, {"error": "invalid_grant", "error_description": "PKCE"}
        claims = self._claims(pending)
        access = secrets.token_urlsafe(24)
        self._tokens[access] = pending.flow.userinfo or claims
        return 200, {
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": 300,
            "id_token": self._sign(claims, pending.flow.alg),
        }

    def userinfo(self, authorization: str) -> tuple[int, dict[str, Any]]:
        found = self._tokens.get(authorization.removeprefix("Bearer ").strip())
        return (200, found) if found is not None else (401, {"error": "invalid_token"})

    def _claims(self, pending: _Pending) -> dict[str, Any]:
        now = int(time.time())
        flow = pending.flow
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "sub": f"sub-{flow.email}",
            "aud": CLIENT_ID,
            "iat": now,
            "exp": now + 300,
            "nonce": pending.nonce,
            "email": flow.email,
            "email_verified": True,
            "name": flow.email.split("@")[0],
        }
        claims.update(flow.claims)
        for name in flow.drop:
            claims.pop(name, None)
        return claims

    def _sign(self, claims: dict[str, Any], alg: str) -> str:
        if alg == "none":
            head = _b64json({"alg": "none", "typ": "JWT"})
            return f"{head}.{_b64json(claims)}."
        if alg == "HS256":  # key confusion: the public key as an HMAC secret
            public = self.key.public_key().public_numbers()
            return pyjwt.encode(claims, str(public.n).encode(), algorithm="HS256")
        return pyjwt.encode(claims, self.key, algorithm="RS256", headers={"kid": KID})


def _b64int(value: int) -> str:
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _b64json(value: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def _handler(provider: ScriptedProvider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def _json(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            if parts.path == "/.well-known/openid-configuration":
                self._json(200, provider.discovery())
            elif parts.path == "/jwks":
                self._json(200, provider.jwks())
            elif parts.path == "/authorize":
                self.send_response(302)
                self.send_header("Location", provider.authorize(query))
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif parts.path == "/userinfo":
                self._json(*provider.userinfo(self.headers.get("Authorization", "")))
            else:
                self._json(404, {"error": "not_found"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
            if urlsplit(self.path).path == "/token":
                self._json(*provider.token(form))
            else:
                self._json(404, {"error": "not_found"})

    return Handler


@contextmanager
def scripted_provider() -> Iterator[ScriptedProvider]:
    provider = ScriptedProvider()
    with serving(_handler(provider)) as server:
        provider.issuer = f"http://127.0.0.1:{server.server_address[1]}"
        yield provider
