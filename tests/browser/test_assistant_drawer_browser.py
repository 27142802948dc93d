"""The assistant where people read and work: the drawer, in real headless Chromium (desktop
and phone, where it is a bottom sheet), against a real ``askdocs serve`` process and a
scripted OpenAI-compatible model on 127.0.0.1.

The drawer is on every signed-in page (the reader, /admin, /account, /proposals/<id>), with
the same header trigger; openWithPrompt(prompt, { extraContext }) sends the page's extra
context with one turn; a conversation whose question has no reply shows the seed's
"has no reply yet — Open" hint and its row's "No reply yet" badge, one still being answered
reads "Still answering…", and one whose server died "Interrupted". A member signs in with
a password, opens the drawer on a reader page (button and Alt+Shift+A), asks about that
page (the request carries its ``pageContext`` and the model's system prompt names the
page), renames and deletes a thread, proposes a page edit, reloads, applies it from the
restored thread, and the file changes once. A turn still being answered when the page
reloads restores as "Still working… — Check again", and Check again shows the reply once it
has arrived; a turn whose server died restores as interrupted, with Ask again. A visitor
gets no drawer. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from tests.assistant.scripted import Call, ModelServer, Script, model_server
from tests.browser.conftest import VIEWPORTS, shot, watched_page
from tests.browser.test_assistant_browser import EMAIL, _organisation_site, expire_rows
from tests.reader.fixtures import build_tree
from tests.reader.serve import Served, serving, toml_config

pytestmark = pytest.mark.browser
PASSWORD = "drawer-password-1234"
READING = "/docs/guide/install"


@dataclass
class Reader:
    server: Served
    model: ModelServer
    page_file: Path
    data_dir: Path

    @property
    def url(self) -> str:
        return self.server.url

    def page_hash(self) -> str:
        return hashlib.sha256(self.page_file.read_bytes()).hexdigest()


def _cli(data_dir: Path, config: Path, *args: str, stdin: str | None = None) -> None:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "--config"]
    done = subprocess.run(
        [*command, str(config), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Reader]:
    base = tmp_path_factory.mktemp("assistant-drawer")
    build_tree(base)
    with model_server() as model:
        extra = f"""
[chat]
provider = "openai-compatible"
model = "scripted"
base_url = "{model.url}/v1"
idle_timeout_seconds = 180  # a held reply (Script.hold) waits longer than a reload takes
timeout_seconds = 300

[embedding]
provider = "none"
"""
        config = toml_config(base, extra=extra)
        data_dir = base / "data"
        data_dir.mkdir()
        create = ("users", "create", "--email", EMAIL, "--platform-admin", "--password-stdin")
        _cli(data_dir, config, *create, stdin=PASSWORD + "\n")
        page_file = _organisation_site(data_dir)
        with serving(data_dir, config) as server:
            yield Reader(server, model, page_file, data_dir)


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with watched_page(browser, request.param) as page:
        yield page


def sign_in(page: Page, reader: Reader) -> None:
    page.goto(f"{reader.url}/sign-in?next={READING}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.locator("#email").fill(EMAIL)
    page.locator("#password").fill(PASSWORD)
    page.locator("#signin-submit").click()
    page.wait_for_url(f"{reader.url}{READING}")
    expect(page.locator("#article h1")).to_have_text("Installing")
    expect(page.locator("#assistant-open")).to_be_visible()


def chat_requests(page: Page) -> list[Request]:
    seen: list[Request] = []
    page.on(
        "request", lambda r: seen.append(r) if r.url.endswith("/api/v1/assistant/chat") else None
    )
    return seen


def history(page: Page) -> None:
    page.click("#assistant-history")
    expect(page.locator("#assistant-drawer #threads")).to_be_visible()


def test_a_member_asks_about_the_page_in_the_drawer(
    page: Page, reader: Reader, artifacts: Path
) -> None:
    sent = chat_requests(page)
    sign_in(page, reader)
    where = page.viewport_name  # type: ignore[attr-defined]
    page.keyboard.press("Alt+Shift+A")
    drawer = page.locator("#assistant-drawer")
    expect(drawer).to_be_visible()
    expect(page.locator("#composer-input")).to_be_focused()
    chips = drawer.locator(".suggestion-chip")
    expect(chips.first).to_have_text("Summarise “Installing”")
    assert 2 <= chips.count() <= 4
    shot(page, artifacts, "drawer-welcome")
    box = drawer.bounding_box()
    assert box is not None
    if where == "phone":  # a bottom sheet: full width, anchored to the bottom
        assert box["width"] == VIEWPORTS["phone"]["width"]
        assert box["y"] > 0
    else:  # docked on the right
        assert box["x"] + box["width"] == VIEWPORTS["desktop"]["width"]
    reader.model.title = Script([f"Install page {where}"])
    reader.model.script(Script(["Run `pip install fixture`, as this page says."]))
    chips.first.click()
    expect(drawer.locator(".answer-text").last).to_contain_text("pip install fixture")
    body = sent[-1].post_data_json
    assert body is not None
    context = body["pageContext"]
    assert context["title"] == "Installing"
    assert context["path"] == READING
    assert context["url"].startswith(READING)
    system = reader.model.requests[-1]["messages"][0]["content"]
    assert "page title: Installing" in system
    assert f"path: {READING}" in system
    shot(page, artifacts, "drawer-answer")
    turn_ended(page)  # its last frames (the thread's title) re-render the history list
    # rename, then delete the thread from the drawer's history
    history(page)
    row = drawer.locator(".thread-row", has_text=f"Install page {where}")
    row.locator(".thread-menu-button").click()
    row.locator(".thread-rename-button").click()
    page.locator(".thread-rename-input").fill(f"Renamed in drawer {where}")
    page.keyboard.press("Enter")
    renamed = drawer.locator(".thread-row", has_text=f"Renamed in drawer {where}")
    expect(renamed).to_have_count(1)
    shot(page, artifacts, "drawer-history")
    renamed.locator(".thread-menu-button").click()
    renamed.locator(".thread-delete-button").click()
    page.click(".thread-delete-confirm")
    expect(renamed).to_have_count(0)
    expect(page.locator("#composer-input")).to_be_focused()  # deleting closed the history
    page.keyboard.press("Escape")  # closes the drawer; focus goes back where the person was
    expect(drawer).to_be_hidden()
    expect(page.locator("#article-title")).to_be_focused()
    page.locator("#assistant-open").click()
    expect(drawer).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#assistant-open")).to_be_focused()


def test_a_proposal_made_in_the_drawer_applies_after_a_reload(
    page: Page, reader: Reader, artifacts: Path
) -> None:
    sign_in(page, reader)
    where = page.viewport_name  # type: ignore[attr-defined]
    new = f"# Install\n\nRun `pipx install alpha` ({where}, from the drawer).\n"
    edit = {"siteId": "alpha", "path": "install.md", "content": new}
    title = f"Drawer edit {where}"
    reader.model.title = Script([title])
    reader.model.script(
        Script(["I will prepare that edit."], calls=[Call("propose_write_page", edit)]),
        Script(["The edit waits for you: press Apply."]),
    )
    page.click("#assistant-open")
    page.fill("#composer-input", "Switch the Alpha install page to pipx.")
    page.keyboard.press("Enter")
    expect(page.locator("#assistant-drawer .proposal")).to_have_count(1)
    before = reader.page_hash()
    page.reload()
    expect(page.locator("#assistant-open")).to_be_visible()
    page.click("#assistant-open")
    history(page)
    page.locator("#assistant-drawer .thread-link", has_text=title).click()
    card = page.locator("#assistant-drawer .proposal")
    expect(card).to_have_attribute("data-state", "pending")
    assert reader.page_hash() == before
    shot(page, artifacts, "drawer-restored-proposal")
    card.locator(".proposal-apply").click()
    expect(card).to_have_attribute("data-state", "applied")
    assert reader.page_file.read_text(encoding="utf-8") == new
    changed = reader.page_hash()
    page.reload()
    page.click("#assistant-open")
    history(page)
    page.locator("#assistant-drawer .thread-link", has_text=title).click()
    expect(page.locator("#assistant-drawer .proposal")).to_have_attribute("data-state", "applied")
    assert reader.page_hash() == changed


def test_other_pages_open_it_with_a_prompt(page: Page, reader: Reader) -> None:
    sign_in(page, reader)
    page.evaluate("window.askdocsAssistant.openWithPrompt('How do I configure the cache?')")
    expect(page.locator("#assistant-drawer")).to_be_visible()
    expect(page.locator("#composer-input")).to_have_value("How do I configure the cache?")
    page.click("#assistant-close")
    detail = json.dumps({"detail": {"prompt": "Where are backups kept?"}})
    page.evaluate(f"window.dispatchEvent(new CustomEvent('askdocs:assistant', {detail}))")
    expect(page.locator("#composer-input")).to_have_value("Where are backups kept?")


def test_visitors_get_no_drawer(page: Page, reader: Reader) -> None:
    page.goto(f"{reader.url}{READING}")
    expect(page.locator("#article h1")).to_have_text("Installing")
    expect(page.locator("body")).to_have_attribute("data-assistant-ready", "true")
    expect(page.locator("#assistant-open")).to_be_hidden()
    expect(page.locator("#assistant-drawer")).to_have_count(0)
    page.keyboard.press("Alt+Shift+A")
    expect(page.locator("#assistant-drawer")).to_have_count(0)


def test_an_expired_proposal_says_so_in_the_drawer(
    page: Page, reader: Reader, artifacts: Path
) -> None:
    sign_in(page, reader)
    where = page.viewport_name  # type: ignore[attr-defined]
    title = f"Late drawer edit {where}"
    edit = {"siteId": "alpha", "path": "install.md", "content": "# Install\n\nToo late.\n"}
    reader.model.title = Script([title])
    reader.model.script(
        Script(["Preparing it."], calls=[Call("propose_write_page", edit)]),
        Script(["It waits for you."]),
    )
    page.click("#assistant-open")
    page.fill("#composer-input", "Rewrite the Alpha install page.")
    page.keyboard.press("Enter")
    expect(page.locator("#assistant-drawer .proposal")).to_have_count(1)
    before = reader.page_hash()
    expire_rows(reader.data_dir)
    page.reload()
    page.click("#assistant-open")
    history(page)
    page.locator("#assistant-drawer .thread-link", has_text=title).click()
    card = page.locator("#assistant-drawer .proposal")
    expect(card).to_have_attribute("data-state", "expired")
    expect(card.locator(".proposal-status")).to_contain_text("expired")
    expect(card.locator(".proposal-apply")).to_be_hidden()
    shot(page, artifacts, "drawer-expired-proposal")
    assert reader.page_hash() == before


def _settled(page: Page, reader: Reader, thread_id: str) -> None:
    """Wait (bounded) until the server has stored the thread's reply: no turn in progress."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        detail = page.request.get(f"{reader.url}/api/v1/assistant/threads/{thread_id}").json()
        if not detail["replyInProgress"] and detail["messages"][-1]["role"] == "assistant":
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"the reply to thread {thread_id} was never stored")


def test_a_turn_still_running_after_a_reload_offers_check_again(
    page: Page, reader: Reader, artifacts: Path
) -> None:
    sent = chat_requests(page)
    sign_in(page, reader)
    where = page.viewport_name  # type: ignore[attr-defined]
    question = f"Which Python does the install need ({where})?"
    title = f"Still working {where}"
    reply = "Python 3.11 or newer, as this page says."
    reader.model.title = Script([title])
    hold = threading.Event()
    reader.model.script(Script(["Python 3.11 ", "or newer, as this page says."], hold=hold))
    drawer = page.locator("#assistant-drawer")
    try:
        page.click("#assistant-open")
        page.fill("#composer-input", question)
        page.keyboard.press("Enter")
        # the first piece arrived; the model holds the rest, so the turn is still running
        expect(drawer.locator(".answer-text").last).to_contain_text("Python 3.11")
        body = sent[-1].post_data_json
        assert body is not None
        thread_id = body["threadId"]
        page.reload()
        page.click("#assistant-open")
        history(page)
        named = re.compile(f"{re.escape(title)}|{re.escape(question[:20])}")
        drawer.locator(".thread-link").filter(has_text=named).click()
        notice = drawer.locator(".turn-notice")
        expect(notice).to_contain_text("Still working on your last message.")
        check = notice.locator(".turn-notice-action")
        expect(check).to_have_text("Check again")
        expect(drawer.locator(".answer-text")).to_have_count(0)  # nothing stored yet
        shot(page, artifacts, "drawer-still-working")
        with page.expect_response(
            lambda r: r.url.endswith(f"/api/v1/assistant/threads/{thread_id}")
        ) as looked:
            check.click()  # still held: the thread is read again and still says so
        assert looked.value.json()["replyInProgress"] is True
        expect(notice).to_contain_text("Still working on your last message.")
    finally:
        hold.set()
    _settled(page, reader, thread_id)
    drawer.locator(".turn-notice-action").click()
    expect(drawer.locator(".answer-text").last).to_have_text(reply)
    expect(drawer.locator(".turn-notice")).to_have_count(0)
    expect(drawer.locator(".turn-user .turn-text", has_text=question)).to_have_count(1)
    shot(page, artifacts, "drawer-checked-again")


def turn_ended(page: Page) -> None:
    """The turn's last frames are in (Send is back): under load the answer's text shows
    while they are still on their way, and a message sent then is refused as busy."""
    expect(page.locator("#assistant-drawer #composer-send")).to_have_text("Send")


def _stored_proposal(page: Page, reader: Reader) -> str:
    """A proposal stored for the signed-in person (as an MCP client's would be); its id."""
    session = page.request.get(f"{reader.url}/api/v1/auth/session").json()
    content = "# Install\n\nRun `pipx install alpha` (a stored proposal).\n"
    arguments = {"siteId": "alpha", "path": "install.md", "content": content}
    created = page.request.post(
        f"{reader.url}/api/v1/proposals",
        data={"operation": "write-page", "arguments": arguments},
        headers={"X-CSRF-Token": session["me"]["csrfToken"]},
    )
    assert created.status == 201, created.text()
    return str(created.json()["id"])


@pytest.mark.parametrize("path", ["/admin", "/account", "/proposals/{id}"])
def test_the_drawer_is_on_every_signed_in_page(
    page: Page, reader: Reader, artifacts: Path, path: str
) -> None:
    """Seed 002: one assistant "reachable from every authenticated page", not only the
    reader: the same trigger in the header and the same drawer."""
    sent = chat_requests(page)
    sign_in(page, reader)
    if "{id}" in path:
        path = path.format(id=_stored_proposal(page, reader))
    page.goto(f"{reader.url}{path}")
    trigger = page.locator("header #assistant-open")
    expect(trigger).to_be_visible()
    expect(trigger).to_have_attribute("aria-expanded", "false")
    trigger.click()
    drawer = page.locator("#assistant-drawer")
    expect(drawer).to_be_visible()
    expect(trigger).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#composer-input")).to_be_focused()
    chips = drawer.locator(".suggestion-chip")
    expect(chips.first).to_be_visible()
    assert 2 <= chips.count() <= 4
    name = path.strip("/").split("/")[0]
    shot(page, artifacts, f"drawer-on-{name}")
    reader.model.title = Script([f"On {name} {page.viewport_name}"])  # type: ignore[attr-defined]
    reader.model.script(Script([f"Answered on {name}."]))
    page.fill("#composer-input", f"What can I do on this page ({name})?")
    page.keyboard.press("Enter")
    expect(drawer.locator(".answer-text").last).to_have_text(f"Answered on {name}.")
    turn_ended(page)
    body = sent[-1].post_data_json
    assert body is not None
    assert body["pageContext"]["path"] == path
    system = reader.model.requests[-1]["messages"][0]["content"]
    assert f"path: {path}" in system
    assert "platform administrator: yes" in system  # the identity block, from the account
    page.keyboard.press("Alt+Shift+A")
    expect(drawer).to_be_hidden()


def test_open_with_a_prompt_and_extra_context(page: Page, reader: Reader) -> None:
    sent = chat_requests(page)
    sign_in(page, reader)
    page.goto(f"{reader.url}/admin")
    expect(page.locator("#assistant-open")).to_be_visible()
    where = page.viewport_name  # type: ignore[attr-defined]
    reader.model.title = Script([f"Extra {where}"])
    reader.model.script(Script(["Backups are the first gap."]), Script(["Seed form."]))
    extra = f"Docs gaps report ({where}): 3 unanswered questions about backups"
    page.evaluate(
        "([text, extra]) => window.askdocsAssistant.openWithPrompt(text, "
        "{ extraContext: extra, send: true })",
        ["What should I write first?", extra],
    )
    drawer = page.locator("#assistant-drawer")
    expect(drawer.locator(".answer-text").last).to_have_text("Backups are the first gap.")
    turn_ended(page)
    body = sent[-1].post_data_json
    assert body is not None
    assert body["pageContext"]["extra"] == extra
    assert f"from the page: {extra}" in reader.model.requests[-1]["messages"][0]["content"]
    # the extra context goes with that one turn only
    page.fill("#composer-input", "And then?")
    page.keyboard.press("Enter")
    expect(drawer.locator(".answer-text").last).to_have_text("Seed form.")
    turn_ended(page)
    follow = sent[-1].post_data_json
    assert follow is not None
    assert "extra" not in follow["pageContext"]
    # seed 002's own signature: openWithPrompt(prompt, extraContext, { send })
    page.click("#assistant-close")
    page.evaluate(
        "window.askdocsAssistant.openWithPrompt('Prefilled only', 'Seen on the admin page')"
    )
    expect(page.locator("#composer-input")).to_have_value("Prefilled only")


def test_a_waiting_conversation_shows_the_hint_and_the_badges(
    page: Page, reader: Reader, artifacts: Path
) -> None:
    sent = chat_requests(page)
    sign_in(page, reader)
    where = page.viewport_name  # type: ignore[attr-defined]
    question = f"Nobody answers this ({where})"
    page.goto(f"{reader.url}/account")
    page.click("#assistant-open")
    reader.model.script(Script(status=500))  # the model fails: the question stays open
    page.fill("#composer-input", question)
    page.keyboard.press("Enter")
    drawer = page.locator("#assistant-drawer")
    expect(drawer.locator(".turn-answer").last).to_contain_text("could not answer")
    turn_ended(page)
    page.reload()
    page.click("#assistant-open")
    hint = drawer.locator("#waiting-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(f"“{question}” has no reply yet — Open")
    shot(page, artifacts, "drawer-waiting-hint")
    history(page)
    row = drawer.locator(".thread-row", has_text=question)
    expect(row.locator(".thread-badge")).to_have_text("No reply yet")
    shot(page, artifacts, "drawer-badge-no-reply")
    page.keyboard.press("Escape")
    hint.locator(".waiting-open").click()
    expect(drawer.locator(".turn-notice")).to_contain_text("No reply yet.")
    expect(hint).to_be_hidden()
    # a reply still being written: the row says so
    held_question = f"Answer slowly ({where})"
    hold = threading.Event()
    reader.model.script(Script(["Slowly ", "but surely."], hold=hold))
    try:
        history(page)
        page.click("#assistant-drawer #new-thread")
        page.fill("#composer-input", held_question)
        page.keyboard.press("Enter")
        expect(drawer.locator(".answer-text").last).to_contain_text("Slowly")
        body = sent[-1].post_data_json
        assert body is not None
        page.reload()
        page.click("#assistant-open")
        history(page)
        running = drawer.locator(".thread-row", has_text=held_question)
        expect(running.locator(".thread-badge")).to_have_text("Still answering…")
        shot(page, artifacts, "drawer-badge-answering")
    finally:
        hold.set()
    _settled(page, reader, body["threadId"])


def _dead_replicas_turn(reader: Reader, question: str) -> str:
    """What a replica killed mid-answer leaves: the person's message and a running turn whose
    heartbeat stopped long ago (written as that replica wrote them); the thread's id."""
    from datetime import timedelta

    from sqlalchemy import select

    from askdocs.db import Database
    from askdocs.db.models import MessageRow, ThreadRow, UserRow, new_id, utcnow
    from askdocs.db.replica_models import TurnRow

    db = Database.from_url(f"sqlite:///{reader.data_dir / 'askdocs.db'}")
    try:
        with db.session(write=True) as session:
            user = session.scalars(select(UserRow).where(UserRow.email == EMAIL)).one()
            thread = ThreadRow(user_id=user.id, title=question)
            session.add(thread)
            session.flush()
            session.add(MessageRow(thread_id=thread.id, role="user", content=question, sequence=1))
            stale = utcnow() - timedelta(minutes=5)
            session.add(
                TurnRow(
                    id=new_id(),
                    thread_id=thread.id,
                    user_sequence=1,
                    replica="killed-replica",
                    state="running",
                    started_at=stale,
                    heartbeat_at=stale,
                )
            )
            return thread.id
    finally:
        db.close()


def test_a_turn_whose_server_died_shows_interrupted_and_asks_again(
    page: Page, reader: Reader, artifacts: Path
) -> None:
    where = page.viewport_name  # type: ignore[attr-defined]
    question = f"Which Python does the fixture need? ({where}, killed)"
    thread_id = _dead_replicas_turn(reader, question)
    sign_in(page, reader)
    page.click("#assistant-open")
    history(page)
    drawer = page.locator("#assistant-drawer")
    row = drawer.locator(".thread-row", has_text=question)
    expect(row.locator(".thread-badge")).to_have_text("Interrupted")
    row.locator(".thread-link").click()
    notice = drawer.locator(".turn-notice")
    expect(notice).to_contain_text("The answer was interrupted")
    expect(notice.locator(".turn-notice-action")).to_have_text("Ask again")
    shot(page, artifacts, "drawer-interrupted")
    reader.model.script(Script(["Python 3.11 or newer."]))
    notice.locator(".turn-notice-action").click()
    expect(drawer.locator(".answer-text").last).to_have_text("Python 3.11 or newer.")
    _settled(page, reader, thread_id)
    expect(drawer.locator(".turn-user .turn-text", has_text=question)).to_have_count(1)
