"""The rig (``tests/rig/rig.py``) as a module-scoped fixture: one topology per test module,
since starting PostgreSQL, Redis, nginx, the OpenID provider and two replicas costs
20-60 s on a loaded 2-core machine. Chromium comes from the browser tests' fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, Page, Response

from tests.browser.conftest import VIEWPORTS, browser, playwright
from tests.rig.rig import Rig, running_rig
from tests.support.oidc_provider import node_ready

__all__ = ["browser", "playwright"]
DAILY_VISITOR_LIMIT = 7  # the burst test's visitors each get exactly this many answers


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    if not node_ready():
        pytest.fail("Node or tests/node packages missing: run scripts/install-test-deps")
    env = {"ASKDOCS_ASK__DAILY_VISITOR_LIMIT": str(DAILY_VISITOR_LIMIT)}
    with running_rig(tmp_path_factory.mktemp("rig"), oidc=True, env=env) as started:
        yield started


@dataclass
class Watched:
    """A page in a fresh context that trusts the rig's self-signed certificate, and every
    API write it made (method, path, status)."""

    page: Page
    writes: list[tuple[str, str, int]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def record(self, response: Response) -> None:
        request = response.request
        if request.method not in ("GET", "HEAD") and "/api/" in request.url:
            self.writes.append((request.method, request.url, response.status))


@contextmanager
def rig_page(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(ignore_https_errors=True, viewport=VIEWPORTS["desktop"])  # type: ignore[arg-type]
    watched = Watched(context.new_page())
    watched.page.on("response", watched.record)
    watched.page.on("console", lambda m: _console(m.type, m.text, watched.problems))
    watched.page.on("pageerror", lambda error: watched.problems.append(f"page error: {error}"))
    try:
        yield watched
    finally:
        context.close()
    assert watched.problems == []


def _console(kind: str, text: str, problems: list[str]) -> None:
    if kind in ("error", "warning"):
        problems.append(f"{kind}: {text}")
