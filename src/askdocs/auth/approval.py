"""Approval proofs: what lets an MCP token apply a change (issue #27, defect 4).

An MCP token is what a model's host holds, so it must not be enough to apply a change:
with it alone, a model could propose through the API and apply the confirmation token the
proposal answered. A change made through MCP is applied by the MCP server only after the
person accepted it in an elicitation, and then with an *approval proof*: a short-lived
HS256 JWT the MCP server mints with a key derived from the deployment's signing key (which
the API and the MCP server share and a host never holds), naming the user and the SHA-256
of the confirmation token it approves. The API checks it on every apply by an MCP token.
The confirmation token is single-use, so the proof is too. The threat model is in
docs/user-guide/mcp.md "Approvals and the threat model".
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Iterable

import jwt as pyjwt

from askdocs.error_codes import ErrorCode
from askdocs.errors import Forbidden
from askdocs.keys import KeyRing
from askdocs.settings import Settings

ALGORITHM = "HS256"
HEADER = "X-Askdocs-Approval"
TTL_SECONDS = 120
PURPOSE = "askdocs approval proof v1"  # the derived key's purpose (KeyRing.derived)
_REQUIRED = ("sub", "cth", "iat", "exp", "iss", "aud")


def approval_audience(settings: Settings) -> str:
    return f"{settings.auth.jwt_audience}/approval"


def token_hash(confirmation_token: str) -> str:
    return hashlib.sha256(confirmation_token.encode()).hexdigest()


def mint_approval(settings: Settings, keys: KeyRing, user_id: str, confirmation_token: str) -> str:
    """The proof that ``user_id`` accepted the change ``confirmation_token`` stands for."""
    now = int(time.time())
    claims = {
        "sub": user_id,
        "cth": token_hash(confirmation_token),
        "iat": now,
        "exp": now + TTL_SECONDS,
        "iss": settings.auth.jwt_issuer,
        "aud": approval_audience(settings),
    }
    return pyjwt.encode(claims, keys.derived(PURPOSE), algorithm=ALGORITHM)


def check_approval(
    settings: Settings,
    keys: KeyRing,
    user_id: str,
    confirmation_token: object,
    proof: str | None,
) -> None:
    """Raise ``Forbidden`` unless ``proof`` approves ``confirmation_token`` for ``user_id``."""
    if not proof:
        raise Forbidden(
            "an MCP token applies a change only with the person's approval (the MCP "
            "server's elicitation); apply it on the askdocs web page instead",
            code=ErrorCode.APPROVAL_REQUIRED,
        )
    claims = _decoded(settings, keys.derived_all(PURPOSE), proof)
    token = confirmation_token if isinstance(confirmation_token, str) else ""
    same_hash = hmac.compare_digest(str(claims.get("cth", "")), token_hash(token))
    if claims.get("sub") != user_id or not same_hash:
        raise _invalid()


def _decoded(settings: Settings, keys: Iterable[bytes], proof: str) -> dict[str, object]:
    """The proof's claims, checked with the key of each verifying ``jwt`` version (a proof
    minted just before a rotation still verifies)."""
    for key in keys:
        try:
            data: dict[str, object] = pyjwt.decode(
                proof,
                key,
                algorithms=[ALGORITHM],
                audience=approval_audience(settings),
                issuer=settings.auth.jwt_issuer,
                options={"require": list(_REQUIRED)},
            )
        except pyjwt.InvalidSignatureError:
            continue
        except pyjwt.PyJWTError:
            raise _invalid() from None
        return data
    raise _invalid()


def _invalid() -> Forbidden:
    return Forbidden("the approval proof is invalid or expired", code=ErrorCode.APPROVAL_INVALID)
