"""``GET /askdocs-turnstile?origin=...``: the Turnstile widget for sites on custom domains.

A custom domain cannot run the Turnstile widget registered for the default address, so it
frames this page from the default address. The page runs the widget for action ``ask`` and
hands the token to the parent with ``postMessage``, addressed to ``origin`` only. ``origin``
must be one of the site's hostnames, and the page may be framed by that origin only
(``Content-Security-Policy: frame-ancestors <origin>``).
"""

from __future__ import annotations

import html
import json
import re
import secrets
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput, NotFound
from askdocs.guard.botcheck import is_loopback
from askdocs.guard.hosts import site_hosts
from askdocs.server.deps import CatalogDep, HostDep, SettingsDep, host_site
from askdocs.settings import SiteConfig

ERROR_BODY = {"$ref": "#/components/schemas/ErrorBody"}  # JSON errors of an HTML page
router = APIRouter()
_HOST = re.compile(r"^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$")
TURNSTILE_ORIGIN = "https://challenges.cloudflare.com"
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>askdocs bot check</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>html,body{{margin:0;background:transparent}}</style>
<script nonce="{nonce}">
var ORIGIN = {origin_js};
function askdocsSend(message) {{ window.parent.postMessage(message, ORIGIN); }}
function askdocsToken(token) {{ askdocsSend({{type: "askdocs-turnstile", token: token}}); }}
function askdocsExpired() {{ askdocsSend({{type: "askdocs-turnstile-expired"}}); }}
function askdocsFailed() {{ askdocsSend({{type: "askdocs-turnstile-error"}}); }}
</script>
<script nonce="{nonce}" src="{turnstile}/turnstile/v0/api.js" async defer></script>
</head><body>
<div class="cf-turnstile" data-sitekey="{site_key}" data-action="ask"
 data-callback="askdocsToken" data-expired-callback="askdocsExpired"
 data-error-callback="askdocsFailed"></div>
</body></html>
"""


@router.get(
    "/askdocs-turnstile",
    response_class=HTMLResponse,
    responses={  # the errors are JSON, the page HTML
        code: {"content": {"application/json": {"schema": ERROR_BODY}}} for code in (400, 404)
    },
)
async def turnstile_page(
    settings: SettingsDep,
    catalog: CatalogDep,
    host: HostDep,
    origin: Annotated[str, Query(max_length=300)],
) -> HTMLResponse:
    bot_check = settings.bot_check
    if bot_check.provider != "turnstile" or not bot_check.site_key:
        raise NotFound("the Turnstile bot check is not configured", code=ErrorCode.BOT_CHECK_OFF)
    allowed = allowed_origin(origin, host_site(catalog, host))
    nonce = secrets.token_urlsafe(16)
    page = PAGE.format(
        nonce=nonce,
        origin_js=json.dumps(allowed),
        turnstile=TURNSTILE_ORIGIN,
        site_key=html.escape(bot_check.site_key, quote=True),
    )
    return HTMLResponse(page, headers=_headers(nonce, allowed))


def allowed_origin(origin: str, site: SiteConfig) -> str:
    """The canonical ``scheme://host[:port]`` of ``origin`` if it is one of the site's hosts."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        raise _invalid() from None
    host = (parts.hostname or "").rstrip(".")
    plain = not (parts.username or parts.password or parts.query or parts.fragment)
    secure = parts.scheme == "https" or (parts.scheme == "http" and is_loopback(host))
    if not (plain and secure and parts.path in ("", "/") and _HOST.match(host)):
        raise _invalid()
    if host not in site_hosts(site):
        raise _invalid()
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


def _headers(nonce: str, origin: str) -> dict[str, str]:
    policy = (
        f"default-src 'none'; script-src 'nonce-{nonce}' {TURNSTILE_ORIGIN}; "
        f"frame-src {TURNSTILE_ORIGIN}; connect-src {TURNSTILE_ORIGIN}; "
        f"style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; "
        f"frame-ancestors {origin}"
    )
    return {
        "Content-Security-Policy": policy,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


def _invalid() -> InvalidInput:
    return InvalidInput(
        "origin must be https://<one of this site's hostnames>", code=ErrorCode.INVALID_ORIGIN
    )
