"""What routes read from the app: settings, the service, and Ask AI's guards.

Built once by ``create_app`` and kept on ``app.state``; tests swap parts through the
``create_app`` arguments or ``app.state``, never through globals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import anyio
from fastapi import Request

from askdocs.admin.api import org_site_ids
from askdocs.errors import NotFound
from askdocs.guard.botcheck import BotCheck
from askdocs.guard.hosts import host_name, site_for_host
from askdocs.guard.limiter import Limiter
from askdocs.guard.visitor import client_address, visitor_id
from askdocs.llm.types import ChatModel
from askdocs.service import AskDocs
from askdocs.settings import Settings, SiteConfig


@dataclass
class Runtime:
    limiter: Limiter
    bot_check: BotCheck
    chat: ChatModel | None
    visitor_key: bytes
    search_concurrency: int = 4
    _slots: anyio.CapacityLimiter | None = field(default=None, repr=False)

    def search_slots(self) -> anyio.CapacityLimiter:
        """Bounds concurrent searches (created inside the event loop, on first use)."""
        if self._slots is None:
            self._slots = anyio.CapacityLimiter(self.search_concurrency)
        return self._slots


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def service_of(request: Request) -> AskDocs:
    service: AskDocs = request.app.state.service
    return service


def runtime_of(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def request_host(request: Request) -> str:
    return host_name(request.headers.get("host"))


def host_site(request: Request) -> SiteConfig:
    """The docs site this request's host names; 404 ``site_not_found`` when none. On
    loopback, organisation sites never stand in for the configured site."""
    service = service_of(request)
    site = site_for_host(service.sites, request_host(request), org_site_ids(service))
    if site is None:
        raise NotFound("no documentation site is served on this host", code="site_not_found")
    return site


def visitor_of(request: Request) -> str:
    peer = request.client.host if request.client else None
    header = settings_of(request).server.trusted_proxy_header
    address = client_address(peer, request.headers, header)
    return visitor_id(runtime_of(request).visitor_key, address)
