"""``/readyz`` answers for the service, not for every site (issue #26, item 3): its own
dependencies (database, limits store), the operator's sites, the warm-up; an organisation's
new or empty site never makes it unready, and ``?site=`` tells that site's state. Its 503
body is the ``ReadyResponse`` ``/openapi.json`` declares."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from askdocs.app import App
from askdocs.server.app import create_app
from askdocs.server.schemas import ReadyResponse
from askdocs.settings import RootConfig, Settings, SiteConfig
from tests.guard.redis_server import closed_port_url

pytestmark = pytest.mark.anyio
ORG = "org-1"


def settings(tmp_path: Path, **extra: Any) -> Settings:
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "index.md").write_text("# Handbook\n\nInstall with pip.\n", encoding="utf-8")
    values: dict[str, Any] = {
        "data_dir": tmp_path / "data",
        "sites": [SiteConfig(id="handbook", roots=[RootConfig(path=docs)])],
        "server": {"index_in_background": False},
        "embedding": {"provider": "none"},
        **extra,
    }
    return Settings.model_validate(values)


def org_site(tmp_path: Path, site_id: str, public: bool = True) -> tuple[SiteConfig, str]:
    folder = tmp_path / "org" / site_id
    folder.mkdir(parents=True, exist_ok=True)
    return SiteConfig(id=site_id, roots=[RootConfig(path=folder)], public=public), ORG


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    built = App(settings(tmp_path))
    built.engine.ensure_indexed()  # the operator's site: indexed
    built.stored()  # the database is open (its admin sites synced) before the test's own
    built.catalog.set_admin_sites(
        [org_site(tmp_path, "fresh"), org_site(tmp_path, "hidden", False)]
    )
    yield built
    await built.aclose()


def client(app: App) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=create_app(app=app))
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")


async def test_a_new_organisation_site_never_holds_readiness(app: App) -> None:
    async with client(app) as http:
        ready = await http.get("/readyz")
        fresh = await http.get("/readyz", params={"site": "fresh"})
        own = await http.get("/readyz", params={"site": "handbook"})
    assert ready.status_code == 200, ready.text
    body = ReadyResponse.model_validate(ready.json())
    assert body.checks.model_dump() == {"database": "ok", "limits": "ok"}
    states = {s.site: (s.ready, s.holds_readiness) for s in body.sites}
    assert states == {"handbook": (True, True), "fresh": (False, False)}  # no private site
    assert fresh.status_code == 503  # that site alone: not built yet
    assert [s["site"] for s in fresh.json()["sites"]] == ["fresh"]
    assert own.status_code == 200


async def test_once_indexed_an_empty_organisation_site_is_ready_and_empty(app: App) -> None:
    app.engine.ensure_indexed()  # every site of the catalog, the new one included
    async with client(app) as http:
        fresh = await http.get("/readyz", params={"site": "fresh"})
    assert fresh.status_code == 200
    [state] = fresh.json()["sites"]
    assert (state["ready"], state["empty"], state["holds_readiness"]) == (True, True, False)


@pytest.mark.parametrize("site", ["hidden", "nosuch"])
async def test_a_private_site_is_not_found_like_an_unknown_one(app: App, site: str) -> None:
    async with client(app) as http:
        response = await http.get("/readyz", params={"site": site})
    assert response.status_code == 404
    assert response.json() == {
        "error": {"code": "site_not_found", "message": "no such public documentation site"}
    }


async def test_an_operator_site_still_building_holds_readiness(tmp_path: Path) -> None:
    built = App(settings(tmp_path))
    async with client(built) as http:
        response = await http.get("/readyz")
    await built.aclose()
    assert response.status_code == 503
    assert ReadyResponse.model_validate(response.json()).sites[0].building is False


async def test_an_unreachable_limits_store_is_503_with_the_declared_body(tmp_path: Path) -> None:
    built = App(settings(tmp_path, redis_url=closed_port_url()))
    built.engine.ensure_indexed()
    http_app = create_app(app=built)
    async with client(built) as http:
        response = await http.get("/readyz")
    await built.aclose()
    assert response.status_code == 503
    body = ReadyResponse.model_validate(response.json())
    assert body.checks.model_dump() == {"database": "ok", "limits": "unavailable"}
    assert body.sites[0].ready is True
    declared = http_app.openapi()["paths"]["/readyz"]["get"]["responses"]["503"]
    assert declared["content"]["application/json"]["schema"]["$ref"].endswith("/ReadyResponse")
