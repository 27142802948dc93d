"""Private sites for members: two organisations, each with a private site holding a canary
page. The reader, search, Ask AI and the assistant serve each site to its own organisation's
signed-in members (session cookie or bearer token), and to nobody else: not to members of
the other organisation, not to accounts without an organisation, not to visitors."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import httpx
import pytest

from askdocs.auth.jwt import mint
from askdocs.db.admin_models import SiteRow
from askdocs.users.types import User
from tests.assistant.conftest import Harness, open_harness
from tests.assistant.frames import parse_frames
from tests.assistant.scripted import Call, Script, model_server
from tests.signin.conftest import accounts, browser, person, sign_in

pytestmark = pytest.mark.anyio
CANARY = {"alpha": "zephyrquill", "beta": "thornwickle"}
HOST = {"alpha": "alpha.docs.test", "beta": "beta.docs.test"}


@dataclass
class World:
    harness: Harness
    members: dict[str, User]  # "alpha", "beta", "nobody"
    clients: list[httpx.AsyncClient] = field(default_factory=list)

    def client(self) -> httpx.AsyncClient:
        """Another browser (its own cookies), closed when the test ends."""
        self.clients.append(browser(self.harness))
        return self.clients[-1]


def _site(harness: Harness, org: str, name: str) -> None:
    with harness.runtime.db.session(write=True) as session:
        session.add(
            SiteRow(
                id=f"{name}-private",
                organisation_id=org,
                name=f"{name.title()} private",
                roots=[{"path": "", "audience": "user"}],
                hostnames=[HOST[name]],
                public=False,
            )
        )
    page = harness.admin.env.sites_dir / f"{name}-private" / "canary.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    text = f"---\ntitle: Canary\n---\n# Canary\n\nThe {name} canary word is {CANARY[name]}.\n"
    page.write_text(text, encoding="utf-8")


@pytest.fixture
async def world(tmp_path: Path, docs_root: Path) -> AsyncIterator[World]:
    with model_server() as models:
        url = f"sqlite:///{tmp_path / 'private.db'}"
        async with open_harness(tmp_path / "data", url, docs_root, models) as harness:
            users = accounts(harness).users
            members = {n: person(harness, f"{n}@example.com") for n in ("alpha", "beta", "nobody")}
            for name in ("alpha", "beta"):
                org = users.create_organisation(name.title(), members[name].id)
                _site(harness, org.id, name)
            harness.admin.sync_sites()
            for name in ("alpha", "beta"):
                await anyio.to_thread.run_sync(harness.app.engine.index, f"{name}-private")
            built = World(harness, members)
            try:
                yield built
            finally:
                for client in built.clients:
                    await client.aclose()


async def signed_in(world: World, who: str) -> tuple[httpx.AsyncClient, str]:
    client = world.client()
    return client, await sign_in(client, f"{who}@example.com")


async def test_search_and_the_reader_serve_members_only(world: World) -> None:
    alpha, _ = await signed_in(world, "alpha")
    beta, _ = await signed_in(world, "beta")
    nobody, _ = await signed_in(world, "nobody")
    visitor = world.client()
    params = {"site": "alpha-private", "q": CANARY["alpha"]}
    found = await alpha.get("/api/search", params=params)
    assert found.status_code == 200, found.text
    assert CANARY["alpha"] in found.text
    article = await alpha.get(
        "/api/docs/articles/canary", params={"site": "alpha-private", "locale": "en"}
    )
    assert article.status_code == 200, article.text
    assert CANARY["alpha"] in article.text
    page = await alpha.get("/docs/canary", params={"site": "alpha-private", "locale": "en"})
    assert page.status_code == 200
    for client in (beta, nobody, visitor):
        for path, query in (
            ("/api/search", params),
            ("/api/docs/catalog", {"site": "alpha-private", "locale": "en"}),
            ("/api/docs/articles/canary", {"site": "alpha-private", "locale": "en"}),
            ("/docs/canary", {"site": "alpha-private", "locale": "en"}),
        ):
            refused = await client.get(path, params=query)
            assert refused.status_code == 404, (path, refused.text)
            assert CANARY["alpha"] not in refused.text
            if path.startswith("/api/"):
                assert refused.json()["error"]["code"] == "site_not_found"
            else:  # the reader page: one "not available, sign in" page for every refusal
                assert "This page isn't available" in refused.text
    by_host = await beta.get(
        "/api/search", params={"q": CANARY["alpha"]}, headers={"Host": HOST["alpha"]}
    )
    assert by_host.status_code == 404
    own = await beta.get("/api/search", params={"site": "beta-private", "q": CANARY["beta"]})
    assert CANARY["beta"] in own.text


async def test_bearer_tokens_follow_the_same_rule(world: World) -> None:
    params = {"site": "alpha-private", "q": CANARY["alpha"]}
    for who, status in (("alpha", 200), ("beta", 404)):
        token = mint(world.harness.settings, world.members[who].id)
        response = await world.harness.client.get(
            "/api/search", params=params, headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code == status


async def test_removed_members_lose_access_at_once(world: World) -> None:
    alpha, _ = await signed_in(world, "alpha")
    params = {"site": "alpha-private", "q": CANARY["alpha"]}
    assert (await alpha.get("/api/search", params=params)).status_code == 200
    owner_id = world.members["alpha"].id
    with world.harness.runtime.db.session(write=True) as session:
        from askdocs.db.models import MembershipRow

        session.query(MembershipRow).filter_by(user_id=owner_id).delete()
    assert (await alpha.get("/api/search", params=params)).status_code == 404


async def test_ask_ai_answers_members_of_the_sites_organisation_only(world: World) -> None:
    world.harness.models.script(Script([f"The word is {CANARY['alpha']}."]))
    alpha, csrf = await signed_in(world, "alpha")
    beta, beta_csrf = await signed_in(world, "beta")
    question = {"token": "", "messages": [{"role": "user", "content": "canary word?"}]}
    host = {"Host": HOST["alpha"]}
    refused = await beta.post(
        "/api/ask", json=question, headers={**host, "X-CSRF-Token": beta_csrf}
    )
    assert refused.status_code == 404
    assert refused.json()["error"]["code"] == "ask_unavailable"
    anonymous = await world.harness.client.post("/api/ask", json=question, headers=host)
    assert anonymous.status_code == 404
    no_csrf = await alpha.post("/api/ask", json=question, headers=host)
    assert no_csrf.status_code == 404  # a cookie without its CSRF token reads as a visitor
    answered = await alpha.post("/api/ask", json=question, headers={**host, "X-CSRF-Token": csrf})
    assert answered.status_code == 200, answered.text
    assert CANARY["alpha"] in answered.text
    assert "canary" in answered.headers["x-ask-sources"].lower()


async def test_the_assistant_never_searches_another_organisations_site(world: World) -> None:
    models = world.harness.models
    search = Call("search_docs", {"query": CANARY["alpha"]})
    for who in ("beta", "alpha"):
        models.script(Script(calls=[search], finish="tool_calls"), Script(["Done."]))
        client, csrf = await signed_in(world, who)
        headers = {"X-CSRF-Token": csrf}
        made = await client.post(
            "/api/v1/assistant/threads", json={"siteId": "alpha-private"}, headers=headers
        )
        thread = made.json()["id"]
        detail = await client.get(f"/api/v1/assistant/threads/{thread}")
        expected_site = "alpha-private" if who == "alpha" else None
        assert detail.json().get("siteId") == expected_site
        chat = await client.post(
            "/api/v1/assistant/chat",
            json={"threadId": thread, "message": "the canary?", "siteId": "alpha-private"},
            headers=headers,
        )
        assert chat.status_code == 200
        parse_frames(chat.text)
        await world.harness.wait_idle(thread)
        tool_result = str(models.requests[-1])
        assert (CANARY["alpha"] + "." in tool_result) == (who == "alpha"), who
