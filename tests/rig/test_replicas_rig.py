"""What replicas share, over the rig (issue #26 item 2): https through nginx, round-robin over
two ``askdocs serve`` replicas on one PostgreSQL and Redis, whose signing keys come from the
database (the rig configures none), and a scripted chat model that streams slowly.

- In Chromium, a platform administrator creates an organisation on the admin page and applies
  a stored proposal that creates a site in it; whichever replica did each, both replicas
  know the organisation at once and serve the site within the change poll;
- an assistant turn streaming from one replica is resumed through the other, from its start;
- one replica is killed with -9 while 20 turns stream through the proxy: the survivor shows
  each of the dead replica's unfinished turns as interrupted within
  ``assistant.turn_lost_seconds``, every question and reply a client was acknowledged is
  stored, and asking again works; the replica then starts again.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy import select

from askdocs.db import Database
from askdocs.db.models import MessageRow
from askdocs.settings import DatabaseSettings
from tests.assistant.scripted import ModelServer, Script, model_server
from tests.browser.conftest import browser, playwright
from tests.rig.conftest import rig_page
from tests.rig.rig import PASSWORD, ROOT_EMAIL, Rig, running_rig, upstream_of
from tests.support.timing import bounded

__all__ = ["browser", "playwright"]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
]
POLL, HEARTBEAT, LOST = 0.5, 1.0, 4.0
PIECES = [f"w{n} " for n in range(40)]  # 40 pieces 0.1 s apart: a 4 s answer


@pytest.fixture(scope="module")
def models() -> Iterator[ModelServer]:
    with model_server() as server:
        server.responder = lambda body: Script(list(PIECES), delay=0.1)
        yield server


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory, models: ModelServer) -> Iterator[Rig]:
    chat = f"""
[chat]
provider = "openai-compatible"
model = "scripted"
base_url = "{models.url}"
"""
    env = {
        "ASKDOCS_SERVER__CHANGE_POLL_SECONDS": str(POLL),
        "ASKDOCS_ASSISTANT__TURN_HEARTBEAT_SECONDS": str(HEARTBEAT),
        "ASKDOCS_ASSISTANT__TURN_LOST_SECONDS": str(LOST),
    }
    with running_rig(tmp_path_factory.mktemp("replicas-rig"), extra_toml=chat, env=env) as made:
        yield made


@pytest.fixture(scope="module")
def auth(rig: Rig) -> dict[str, str]:
    return {"Authorization": f"Bearer {rig.cli('token', 'create', '--email', ROOT_EMAIL)}"}


def known(url: str, site: str) -> bool:
    """Whether the replica at ``url`` serves ``site`` (``/readyz?site=`` is 404 otherwise)."""
    return httpx.get(f"{url}/readyz", params={"site": site}, timeout=10).status_code != 404


def seconds_until_known(rig: Rig, site: str, limit: float) -> dict[str, float]:
    started, waited = time.monotonic(), {}
    while len(waited) < len(rig.replicas):
        for replica in rig.replicas:
            if replica.name not in waited and known(replica.url, site):
                waited[replica.name] = time.monotonic() - started
        assert time.monotonic() - started < limit, (site, waited)
        time.sleep(0.05)
    return waited


def test_an_organisation_and_a_site_made_through_one_replica_are_served_by_both(
    rig: Rig, browser: Browser, auth: dict[str, str]
) -> None:
    with rig_page(browser) as watched:
        page = watched.page
        page.goto(f"{rig.url}/sign-in?next=/admin")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.locator("#email").fill(ROOT_EMAIL)
        page.locator("#password").fill(PASSWORD)
        page.locator("#signin-submit").click()
        page.wait_for_url(f"{rig.url}/admin")
        page.locator("#new-org-name").fill("Replica team")
        with page.expect_response(lambda r: r.url.endswith("/api/v1/orgs")) as made:
            page.locator("#new-org-name").press("Enter")
        assert made.value.status == 201
        org = made.value.json()["id"]
        for replica in rig.replicas:  # organisations are read per request: both know it now
            found = httpx.get(f"{replica.url}/api/v1/orgs/{org}", headers=auth, timeout=30)
            assert found.status_code == 200, (replica.name, found.text)
        me = page.request.get(f"{rig.url}/api/v1/auth/me")
        csrf = {"X-CSRF-Token": me.json()["csrfToken"]}
        args = {"organisationId": org, "id": "replicated", "name": "Replicated"}
        stored = page.request.post(
            f"{rig.url}/api/v1/proposals",
            data=json.dumps({"operation": "create-site", "arguments": args}),
            headers={**csrf, "Content-Type": "application/json"},
        )
        assert stored.status == 201, stored.text()
        page.goto(f"{rig.url}/proposals/{stored.json()['id']}")
        with page.expect_response(lambda r: r.url.endswith("/apply")) as applied:
            page.locator(".proposal-apply").click()
        assert applied.value.status == 200, applied.value.text()
        creator = applied.value.headers.get("x-rig-upstream", "")
        waited = seconds_until_known(rig, "replicated", 60)
    other = next(r for r in rig.replicas if r.upstream != creator.rsplit(",", 1)[-1].strip())
    assert waited[other.name] < bounded(POLL)
    assert [w for w in watched.writes if w[2] >= 400] == []


def new_thread(url: str, auth: dict[str, str]) -> str:
    created = httpx.post(f"{url}/api/v1/assistant/threads", json={}, headers=auth, timeout=60)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


@dataclass
class Turn:
    thread: str
    acknowledged: bool = False
    streaming: threading.Event = field(default_factory=threading.Event)
    text: str = ""
    ended: bool = False
    served_by: str = ""


def stream_turn(client: httpx.Client, auth: dict[str, str], turn: Turn, message: str) -> None:
    body = {"threadId": turn.thread, "message": message}
    try:
        with client.stream("POST", "/api/v1/assistant/chat", json=body, headers=auth) as answer:
            turn.served_by = upstream_of(answer)
            if answer.status_code != 200:
                return
            turn.acknowledged = True
            for line in answer.iter_lines():
                frame = json.loads(line[6:]) if line.startswith("data: {") else {}
                if frame.get("type") == "text-delta":
                    turn.text += str(frame["delta"])
                    turn.streaming.set()
                elif frame.get("type") == "text-end":
                    turn.ended = True
    except httpx.HTTPError:
        pass
    finally:
        turn.streaming.set()


def test_a_turn_streaming_from_one_replica_is_resumed_through_the_other(
    rig: Rig, auth: dict[str, str]
) -> None:
    a, b = rig.replicas
    thread = new_thread(a.url, auth)
    turn = Turn(thread)
    with httpx.Client(base_url=a.url, timeout=120) as direct:
        sender = threading.Thread(target=stream_turn, args=(direct, auth, turn, "a question"))
        sender.start()
        assert turn.streaming.wait(60)
        with httpx.stream(
            "GET", f"{b.url}/api/v1/assistant/chat/{thread}/stream", headers=auth, timeout=120
        ) as resumed:
            assert resumed.status_code == 200
            frames = [json.loads(x[6:]) for x in resumed.iter_lines() if x.startswith("data: {")]
        sender.join(120)
    assert frames[0]["type"] == "start"
    assert "".join(f["delta"] for f in frames if f["type"] == "text-delta") == "".join(PIECES)
    assert turn.text == "".join(PIECES)


def test_killing_a_replica_during_20_streaming_turns(rig: Rig, auth: dict[str, str]) -> None:
    victim, survivor = rig.replicas
    turns = [Turn(new_thread(survivor.url, auth)) for _ in range(20)]
    with rig.client(limits=httpx.Limits(max_connections=40)) as proxied:
        senders = [
            threading.Thread(target=stream_turn, args=(proxied, auth, t, f"question {n}"))
            for n, t in enumerate(turns)
        ]
        for sender in senders:
            sender.start()
        for turn in turns:
            assert turn.streaming.wait(120)
        victim.kill()
        killed = time.monotonic()
        for sender in senders:
            sender.join(180)
        states = settled_states(survivor.url, auth, turns)
        settled = time.monotonic() - killed
    try:
        assert settled < bounded(LOST)
        on_victim = [t for t in turns if t.served_by == victim.upstream]
        assert 0 < len(on_victim) < 20  # round-robin spread the turns
        lost_ones = [t for t in on_victim if not t.ended]
        assert lost_ones  # the kill came while the victim was still answering
        assert {states[t.thread] for t in lost_ones} == {"interrupted"}
        assert {states[t.thread] for t in turns if t not in lost_ones} == {"answered"}
        stored = messages(rig, [t.thread for t in turns])
        for n, turn in enumerate(turns):
            assert turn.acknowledged
            assert stored[turn.thread][0] == ("user", f"question {n}")  # never lost
            if turn.ended:
                assert stored[turn.thread][1] == ("assistant", turn.text)  # never lost
        again = Turn(lost_ones[0].thread)
        with httpx.Client(base_url=survivor.url, timeout=120) as direct:
            stream_turn(direct, auth, again, f"question {turns.index(lost_ones[0])}")
        assert again.ended
        assert [role for role, _ in messages(rig, [again.thread])[again.thread]] == [
            "user",
            "assistant",
        ]
    finally:
        victim.start()
        victim.wait_ready()


def settled_states(url: str, auth: dict[str, str], turns: list[Turn]) -> dict[str, str]:
    """Each thread's state on the replica at ``url``, once none is in progress any more."""
    deadline = time.monotonic() + 180
    with httpx.Client(base_url=url, headers=auth, timeout=30) as http:
        while True:
            states = {t.thread: state(http.get(f"/api/v1/assistant/threads/{t.thread}").json())
                      for t in turns}  # fmt: skip
            if "running" not in states.values():
                return states
            assert time.monotonic() < deadline, states
            time.sleep(0.1)


def state(detail: dict[str, Any]) -> str:
    if detail["replyInProgress"]:
        return "running"
    if detail["replyInterrupted"]:
        return "interrupted"
    return "answered" if detail["messages"][-1]["role"] == "assistant" else "waiting"


def messages(rig: Rig, threads: list[str]) -> dict[str, list[tuple[str, str]]]:
    db = Database.from_url(rig.database_url, DatabaseSettings(timeout_seconds=10))
    query = select(MessageRow).where(MessageRow.thread_id.in_(threads))
    try:
        with db.session() as session:
            rows = sorted(session.scalars(query), key=lambda r: (r.thread_id, r.sequence))
    finally:
        db.close()
    found: dict[str, list[tuple[str, str]]] = {thread: [] for thread in threads}
    for row in rows:
        found[row.thread_id].append((row.role, row.content))
    return found
