"""The origins of a request: where the visitor sent it, and askdocs's public origin.

By the time a route runs, ``askdocs.middleware.Forwarded`` has taken the scheme and ``Host``
from a trusted proxy's headers into the request. On top of that:

- ``request_origin``: ``server.public_url`` when the request came for its host (so a TLS
  proxy that does not say the scheme still counts as https), else ``scheme://host`` as the
  request arrived;
- ``public_origin``: ``server.public_url`` when set, else ``request_origin``: the one origin
  for absolute links (the OIDC redirect URI, invitation links) and for a redirect rule;
- ``allowed_origins``: the two together, the origins a signed-in browser's write may come
  from (CSRF); any other ``Origin`` is refused;
- ``is_https``: whether the visitor's connection is https (``auth.cookie_secure = auto``).
"""

from __future__ import annotations

from fastapi import Request

from askdocs.guard.proxies import host_key
from askdocs.server.deps import app_of


def _public_url(request: Request) -> str | None:
    return app_of(request).settings.server.public_url


def seen_origin(request: Request) -> str:
    """``scheme://host`` as the request arrived (after a trusted proxy's headers)."""
    host = request.headers.get("host") or request.url.netloc
    return f"{request.url.scheme}://{host}"


def request_origin(request: Request) -> str:
    public = _public_url(request)
    if public is None:
        return seen_origin(request)
    scheme, _, public_host = public.partition("://")
    host = request.headers.get("host") or request.url.netloc
    return (
        public if host_key(host, scheme) == host_key(public_host, scheme) else seen_origin(request)
    )


def public_origin(request: Request) -> str:
    """askdocs's public origin: ``server.public_url``, else this request's own origin."""
    return _public_url(request) or request_origin(request)


def allowed_origins(request: Request) -> tuple[str, ...]:
    own = request_origin(request)
    public = public_origin(request)
    return (own,) if own == public else (own, public)


def is_https(request: Request) -> bool:
    return request_origin(request).startswith("https://")
