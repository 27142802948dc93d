"""Which sites a request may read: the caller's organisations as the database says now.

Anonymous visitors (no cookie, no bearer token) are ``VISITOR``: public, live sites only.
A signed-in caller is ``SiteCaller.member(<their organisations>)``: those organisations'
private sites too, and nobody else's; members of the organisation that owns the configured
sites read those when they are private. A cookie request that changes state and fails the
CSRF check, an ended session, or a bearer token this server does not accept (an MCP server
forwarding its own token, a stale script) all read like a visitor: public pages never
answer 401.
"""

from __future__ import annotations

from askdocs.assistant.site_access import member_caller
from askdocs.errors import AuthError, Forbidden
from askdocs.sites import VISITOR, SiteCaller
from askdocs.users.accounts import Accounts
from askdocs.users.web import RequestFacts, optional_identify


def has_credentials(facts: RequestFacts, cookie: str) -> bool:
    return facts.headers.get("authorization") is not None or bool(facts.cookies.get(cookie))


def site_caller(accounts: Accounts, facts: RequestFacts) -> SiteCaller:
    """The caller's site standing for this one request (blocking: reads the database)."""
    try:
        found = optional_identify(accounts.settings, accounts, facts)
    except (Forbidden, AuthError):
        return VISITOR
    if found is None:
        return VISITOR
    with accounts.db.session() as session:
        return member_caller(session, found.principal.user_id)
