"""The account pages: ``/sign-in``, ``/invite/{token}``, the signed-in person's ``/account``
and the admin area ``/admin`` (its docs-gaps report at ``/admin/report``).

One template (``account.html``) and one script decide what to show from the page kind; all
data comes from the REST API with the caller's session, so these pages carry no secrets and
are never framed. The invitation token stays in the path: the page reads it from there.
The sign-in page's ``next`` is judged here, by the one redirect rule
(``askdocs.auth.redirects``), and handed to the page in its config; the page's script goes
where the config says and never reads ``next`` from the address itself.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from askdocs.auth.redirects import safe_next
from askdocs.server.deps import app_of
from askdocs.server.origin import request_origin
from askdocs.server.routes.web import page_headers, render

router = APIRouter(include_in_schema=False)
TITLES = {
    "sign-in": "Sign in",
    "invite": "Invitation",
    "reset": "New password",
    "admin": "Admin",
    "account": "Account",
}
SIGNED_IN = frozenset({"admin", "account"})  # pages that carry the assistant
AFTER_SIGN_IN = "/assistant"


def account_page(
    request: Request, kind: str, tab: str | None = None, extra: dict[str, object] | None = None
) -> HTMLResponse:
    oidc = app_of(request).settings.auth.oidc
    config: dict[str, object] = {
        "page": kind,
        "oidc": bool(oidc.issuer),
        "oidcName": oidc.display_name,
        **(extra or {}),
    }
    if tab is not None:
        config["tab"] = tab
    title = f"{TITLES[kind]} — askdocs"
    headers = {**page_headers("'none'"), "Referrer-Policy": "no-referrer"}
    page = render("account.html", config, title, assistant=kind in SIGNED_IN)
    return HTMLResponse(page, headers=headers)


@router.get("/sign-in")
def sign_in_page(request: Request) -> HTMLResponse:
    wanted = request.query_params.get("next")
    after = safe_next(wanted, request_origin(request), AFTER_SIGN_IN)
    return account_page(request, "sign-in", extra={"next": after})


@router.get("/invite/{token}")
def invite_page(request: Request, token: str) -> HTMLResponse:
    return account_page(request, "invite")


@router.get("/reset/{token}")
def reset_page(request: Request, token: str) -> HTMLResponse:
    return account_page(request, "reset")


@router.get("/account")
def own_account_page(request: Request) -> HTMLResponse:
    """The signed-in person's account: who they are, their organisations, sign out."""
    return account_page(request, "account")


@router.get("/admin")
def admin_page(request: Request) -> HTMLResponse:
    return account_page(request, "admin")


@router.get("/admin/report")
def admin_report_page(request: Request) -> HTMLResponse:
    """The admin area opened on its docs-gaps report (the data comes from
    ``GET /api/v1/admin/ask-report``, platform administrators only)."""
    return account_page(request, "admin", tab="report")
