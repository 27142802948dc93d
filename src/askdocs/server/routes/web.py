"""The web UI: the docs reader at ``/`` and ``/docs/{slug}``, the signed-in assistant at
``/assistant``, a stored proposal at ``/proposals/{id}``, their static files, the Ask AI
widget script (``/widget.js``) and the widget's panel page (``/widget/frame``).

Pages carry a strict Content-Security-Policy: scripts, styles, images and requests only
from this server, no inline script or style, no plugins, no ``<base>``. The reader may not
be framed; the widget panel may be framed only by the site's own hostnames (and by pages on
loopback when the server is reached on loopback). Static files are an allowlist read from
the package, never a path taken from the request.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Annotated
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.guard.botcheck import is_loopback
from askdocs.server.deps import app_of, host_of
from askdocs.server.routes.reader import reader_site
from askdocs.server.signin import SiteCallerDep
from askdocs.settings import SiteConfig
from askdocs.sites import VISITOR, SiteCaller, SiteCatalog

router = APIRouter(include_in_schema=False)
_HOSTNAME = re.compile(r"[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::[0-9]{1,5})?")
_PROPOSAL_ID = re.compile(r"[A-Za-z0-9-]{1,64}")
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; frame-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors {ancestors}"
)
# CSP host sources cannot name IPv6 literals, so [::1] pages cannot frame the widget.
LOOPBACK_ANCESTORS = ("http://127.0.0.1:*", "http://localhost:*")


@dataclass(frozen=True)
class StaticFile:
    data: bytes
    content_type: str
    etag: str


@lru_cache(maxsize=1)
def static_files() -> dict[str, StaticFile]:
    """Every file under ``askdocs/web/static``, by its ``/``-separated relative name."""
    found: dict[str, StaticFile] = {}
    base = resources.files("askdocs.web").joinpath("static")
    stack = [("", base)]
    while stack:
        prefix, folder = stack.pop()
        for entry in folder.iterdir():
            name = prefix + entry.name
            if entry.is_dir():
                stack.append((name + "/", entry))
                continue
            suffix = name[name.rfind(".") :]
            if suffix in _TYPES:
                data = entry.read_bytes()
                etag = hashlib.sha256(data).hexdigest()[:32]
                found[name] = StaticFile(data, _TYPES[suffix], etag)
    return found


@router.get("/")
def home(
    request: Request,
    caller: SiteCallerDep,
    site: Annotated[str | None, Query(max_length=63)] = None,
) -> Response:
    return _reader_page(request, site, caller)


@router.get("/docs/{slug:path}")
def docs_page(
    request: Request,
    slug: str,
    caller: SiteCallerDep,
    site: Annotated[str | None, Query(max_length=63)] = None,
) -> Response:
    return _reader_page(request, site, caller)


def _reader_page(request: Request, site: str | None, caller: SiteCaller) -> Response:
    """The reader; for a site this caller cannot read (or that does not exist: the same
    page, so nothing leaks), a page that says so and offers to sign in."""
    try:
        return _page(request, "index.html", site, "'none'", caller)
    except NotFound:
        return unavailable_page(request, signed_in=caller.signed_in)


_SAFE_PATH = re.compile(r"/(?![/\\])[^\\\x00-\x1f\x7f]{0,1999}")
UNAVAILABLE = {
    False: "It may not exist, or it may belong to private documentation that you need to "
    "sign in to read.",
    True: "It does not exist, or your account cannot read it. If you think it should, ask an "
    "administrator of your organisation.",
}


def unavailable_page(request: Request, *, signed_in: bool) -> HTMLResponse:
    """404 as a page people can act on: sign in (and come back here), or go home."""
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    back = target if _SAFE_PATH.fullmatch(target) else "/"
    sign_in = html.escape(f"/sign-in?next={quote(back, safe='')}", quote=True)
    label = "Sign in with another account" if signed_in else "Sign in"
    actions = (
        f'<a class="primary-button" href="{sign_in}">{label}</a> '
        '<a href="/">Go to the home page</a>'
    )
    page = static_files()["unavailable.html"].data.decode()
    page = page.replace("{{SITE_NAME}}", "Not available — askdocs")
    page = page.replace("{{REASON}}", html.escape(UNAVAILABLE[signed_in]))
    page = page.replace("{{ACTIONS}}", actions)
    return HTMLResponse(page, status_code=404, headers=page_headers("'none'"))


@router.get("/assistant")
def assistant_page(
    request: Request,
    caller: SiteCallerDep,
    site: Annotated[str | None, Query(max_length=63)] = None,
) -> Response:
    """The signed-in assistant. It needs no docs site; the host's site (if any) names the
    page and becomes new threads' site. Never framed: it carries Apply buttons."""
    try:
        chosen: SiteConfig | None = reader_site(_catalog(request), _host(request), site, caller)
    except NotFound:
        chosen = None
    config = {
        "site": chosen.id if chosen else None,
        "maxMessageChars": app_of(request).settings.assistant.max_message_chars,
    }
    name = (chosen.name or chosen.id) if chosen else "askdocs"
    return HTMLResponse(render("assistant.html", config, name), headers=page_headers("'none'"))


@router.get("/proposals/{proposal_id}")
def proposal_page(request: Request, proposal_id: str) -> Response:
    """Where a person reviews and applies a stored proposal (the link an MCP client that
    cannot ask the person shows). The page reads it for the signed-in owner only."""
    if not _PROPOSAL_ID.fullmatch(proposal_id):
        raise NotFound("no such proposal", code=ErrorCode.PROPOSAL_NOT_FOUND)
    config = {"proposalId": proposal_id}
    page = render("proposal.html", config, "askdocs", assistant=True)
    return HTMLResponse(page, headers=page_headers("'none'"))


@router.get("/widget/frame")
def widget_frame(
    request: Request, site: Annotated[str | None, Query(max_length=63)] = None
) -> Response:
    chosen = reader_site(_catalog(request), _host(request), site)
    return _page(request, "frame.html", chosen.id, frame_ancestors(chosen, _host(request)))


@router.get("/widget.js")
def widget_script(request: Request) -> Response:
    return _static(request, "widget.js", extra={"Cross-Origin-Resource-Policy": "cross-origin"})


@router.get("/static/{name:path}")
def static(request: Request, name: str) -> Response:
    if name.endswith(".html"):
        raise NotFound("no such file")
    return _static(request, name)


def _static(request: Request, name: str, extra: dict[str, str] | None = None) -> Response:
    found = static_files().get(name)
    if found is None:
        raise NotFound("no such file")
    headers = {
        "ETag": f'"{found.etag}"',
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        **(extra or {}),
    }
    if f'"{found.etag}"' in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(found.data, media_type=found.content_type, headers=headers)


def _page(
    request: Request,
    template: str,
    site_id: str | None,
    ancestors: str,
    caller: SiteCaller = VISITOR,
) -> Response:
    site = reader_site(_catalog(request), _host(request), site_id, caller)
    settings = app_of(request).settings
    config = {
        "site": site.id,
        "siteName": site.name or site.id,
        "locales": list(settings.corpus.locales),
        "defaultLocale": site.default_locale,
        "botCheck": app_of(request).bot_check.name,
        "askEnabled": site.ask_enabled,
    }
    page = render(template, config, site.name or site.id, assistant=template == "index.html")
    return HTMLResponse(page, headers=page_headers(ancestors))


def _catalog(request: Request) -> SiteCatalog:
    return app_of(request).catalog


def _host(request: Request) -> str:
    return host_of(request)


def render(
    template: str, config: Mapping[str, object], site_name: str, *, assistant: bool = False
) -> str:
    """The page with its config and name filled in. ``assistant``: a page signed-in people
    use (the reader, /admin, /account, /proposals): the assistant shell is included, the
    same way on every such page, whatever its template (``with_assistant``)."""
    text = static_files()[template].data.decode()
    page = text.replace("{{CONFIG}}", html.escape(json.dumps(config), quote=True))
    page = page.replace("{{SITE_NAME}}", html.escape(site_name))
    return with_assistant(page) if assistant else page


ASSISTANT_SHELL = '<script type="module" src="/static/js/assistant-drawer.js"></script>'


def with_assistant(page: str) -> str:
    """The assistant shell (seed 002: "one assistant, mounted once for the whole
    application"): its script, before ``</head>``. The script adds the header trigger and
    the drawer for a signed-in person and nothing for anyone else."""
    if ASSISTANT_SHELL in page:
        return page
    return page.replace("</head>", f"{ASSISTANT_SHELL}\n</head>", 1)


def page_headers(ancestors: str) -> dict[str, str]:
    headers = {
        "Content-Security-Policy": POLICY.format(ancestors=ancestors),
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    }
    if ancestors == "'none'":
        headers["X-Frame-Options"] = "DENY"
    return headers


def frame_ancestors(site: SiteConfig, host: str) -> str:
    """Who may frame the widget panel: this server, the site's hostnames and default
    address, and (when the server is reached on loopback) any loopback page."""
    sources = ["'self'"]
    for name in site.hostnames:
        cleaned = name.strip().lower().rstrip(".")
        if _HOSTNAME.fullmatch(cleaned):
            scheme = "http" if is_loopback(cleaned.rsplit(":", 1)[0]) else "https"
            sources.append(f"{scheme}://{cleaned}")
    if site.default_address:
        parts = urlsplit(site.default_address)
        if parts.scheme in ("http", "https") and _HOSTNAME.fullmatch(parts.netloc.lower()):
            sources.append(f"{parts.scheme}://{parts.netloc.lower()}")
    if is_loopback(host):
        sources.extend(LOOPBACK_ANCESTORS)
    return " ".join(dict.fromkeys(sources))
