"""The signed-in assistant at /assistant in real headless Chromium, desktop and phone, against
a real ``askdocs serve`` process and a scripted OpenAI-compatible model on 127.0.0.1.

An administrator pastes a token minted with ``askdocs token create``; the model proposes a
page edit; the panel shows the summary and the diff; Apply writes the page (the file on
disk is checked) and a second click sends nothing; Discard writes nothing. A proposal left
pending across a reload is applied from the restored thread, once; an expired one says so.
Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, Request, expect
from sqlalchemy import update

from askdocs.admin.grants import ensure_first_admin_grant
from askdocs.admin.table import grantable_tools
from askdocs.db import Database
from askdocs.db.admin_models import ProposalRow, SiteRow
from askdocs.db.models import utcnow
from askdocs.settings import load_settings
from askdocs.users.service import UserService
from tests.assistant.scripted import Call, ModelServer, Script, model_server
from tests.browser.conftest import VIEWPORTS, shot, watched_page
from tests.reader.fixtures import build_tree
from tests.reader.serve import Served, serving, toml_config

pytestmark = pytest.mark.browser
EMAIL = "admin@example.com"
ORIGINAL = "# Install\n\nRun `pip install alpha`.\n\nThen start the server.\n"
PROPOSALS_PATH = "/api/v1/proposals/"


@dataclass
class Assistant:
    server: Served
    model: ModelServer
    token: str
    page_file: Path
    data_dir: Path

    @property
    def url(self) -> str:
        return self.server.url

    def page_hash(self) -> str:
        return hashlib.sha256(self.page_file.read_bytes()).hexdigest()


def _cli(data_dir: Path, config: Path, *args: str) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "--config"]
    done = subprocess.run(
        [*command, str(config), *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _organisation_site(data_dir: Path) -> Path:
    """The admin owns an organisation with one site, ``alpha``, holding install.md."""
    db = Database.open(load_settings(data_dir=data_dir))
    try:
        users = UserService(db)
        admin = users.by_email(EMAIL)
        org = users.create_organisation("Alpha Org", admin.id).id
        with db.session(write=True) as session:
            roots = [{"path": "", "audience": "user"}]
            session.add(
                SiteRow(id="alpha", organisation_id=org, name="Alpha", roots=roots, hostnames=[])
            )
        ensure_first_admin_grant(db, grantable_tools())
    finally:
        db.close()
    page_file = data_dir / "sites" / "alpha" / "install.md"
    page_file.parent.mkdir(parents=True)
    page_file.write_text(ORIGINAL, encoding="utf-8")
    return page_file


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Assistant]:
    base = tmp_path_factory.mktemp("assistant-site")
    build_tree(base)
    with model_server() as model:
        extra = f"""
[chat]
provider = "openai-compatible"
model = "scripted"
base_url = "{model.url}/v1"

[embedding]
provider = "none"
"""
        config = toml_config(base, extra=extra)
        data_dir = base / "data"
        data_dir.mkdir()
        _cli(data_dir, config, "users", "create", "--email", EMAIL, "--platform-admin")
        token = _cli(data_dir, config, "token", "create", "--email", EMAIL, "--ttl", "3600")
        page_file = _organisation_site(data_dir)
        with serving(data_dir, config) as server:
            yield Assistant(server, model, token, page_file, data_dir)


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with watched_page(browser, request.param) as page:
        yield page


def sign_in(page: Page, assistant: Assistant, artifacts: Path | None = None) -> None:
    page.goto(assistant.url + "/assistant")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    field = page.locator("#signin-token")
    expect(field).to_be_focused()
    if artifacts is not None:
        shot(page, artifacts, "assistant-signin")
    field.fill(assistant.token)
    page.keyboard.press("Enter")
    expect(page.locator("#composer-input")).to_be_focused()
    assert assistant.token not in page.url
    stored = page.evaluate("window.sessionStorage.getItem('askdocs.assistant.token')")
    assert stored == assistant.token
    assert page.evaluate("window.localStorage.length") == 0


def propose_edit(page: Page, assistant: Assistant, content: str, title: str) -> None:
    """The admin asks; the scripted model proposes the page edit, then says it waits."""
    edit = {"siteId": "alpha", "path": "install.md", "content": content}
    assistant.model.title = Script([title])
    assistant.model.script(
        Script(["I will prepare that edit."], calls=[Call("propose_write_page", edit)]),
        Script(["The edit is ready: press Apply to save it, or Discard."]),
    )
    page.fill("#composer-input", "Switch the install page of Alpha to pipx.")
    page.keyboard.press("Enter")
    expect(page.locator(".proposal")).to_have_count(1)
    expect(page.locator(".turn-answer").last).to_have_attribute("aria-busy", "false")


def apply_requests(page: Page) -> list[Request]:
    seen: list[Request] = []

    def record(request: Request) -> None:
        if PROPOSALS_PATH in request.url and request.url.endswith("/apply"):
            seen.append(request)

    page.on("request", record)
    return seen


def open_thread(page: Page, title: str) -> None:
    if page.viewport_name == "phone":  # type: ignore[attr-defined]
        page.click("#threads-toggle")
    page.locator(".thread-link", has_text=title).first.click()


def expire_proposals(assistant: Assistant) -> None:
    expire_rows(assistant.data_dir)


def expire_rows(data_dir: Path) -> None:
    """Let every stored proposal outlive ``admin.proposal_ttl_seconds`` (as time would)."""
    db = Database.open(load_settings(data_dir=data_dir))
    try:
        with db.session(write=True) as session:
            past = utcnow() - timedelta(seconds=1)
            session.execute(update(ProposalRow).values(expires_at=past))
    finally:
        db.close()


def click_again(page: Page, selector: str) -> None:
    """Re-enable the button the way a stubborn user or a script could, then click it."""
    page.eval_on_selector(selector, "button => { button.disabled = false; button.click(); }")


def test_apply_writes_the_page_once(page: Page, assistant: Assistant, artifacts: Path) -> None:
    sent = apply_requests(page)
    sign_in(page, assistant, artifacts)
    where = page.viewport_name  # type: ignore[attr-defined]
    new = f"# Install\n\nRun `pipx install alpha` ({where}).\n\nThen start the server.\n"
    before = assistant.page_file.read_text(encoding="utf-8")
    propose_edit(page, assistant, new, "Install page with pipx")
    card = page.locator(".proposal")
    expect(card.locator(".proposal-title")).to_have_text("Write a page")
    expect(card.locator(".proposal-summary")).to_contain_text(
        "Replace the page install.md of the site “Alpha”"
    )
    expect(card.locator(".diff-add")).to_contain_text(["pipx install alpha"])
    expect(card.locator(".diff-del")).to_contain_text([before.splitlines()[2]])
    expect(page.locator(".answer-text").last).to_contain_text("press Apply")
    expect(page.locator("#conversation-title")).to_have_text("Install page with pipx")
    expect(page.locator(".thread-link[aria-current=true]")).to_have_count(1)
    assert assistant.page_file.read_text(encoding="utf-8") == before  # proposing wrote nothing
    card.scroll_into_view_if_needed()
    shot(page, artifacts, "assistant-proposal")
    apply_button = card.locator(".proposal-apply")
    apply_button.focus()
    page.keyboard.press("Enter")  # keyboard only
    expect(card).to_have_attribute("data-state", "applied")
    expect(card.locator(".proposal-status")).to_have_text("Applied. The change is saved.")
    assert assistant.page_file.read_text(encoding="utf-8") == new
    expect(apply_button).to_be_disabled()
    expect(card.locator(".proposal-discard")).to_be_disabled()
    click_again(page, ".proposal-apply")
    click_again(page, ".proposal-discard")
    expect(card).to_have_attribute("data-state", "applied")
    expect(apply_button).to_be_disabled()  # a spent card disables itself again
    assert len(sent) == 1
    assert sent[0].method == "POST"
    body = sent[0].post_data_json
    assert body is not None
    assert list(body) == ["confirmationToken"]
    assert len(body["confirmationToken"]) == 64
    assert assistant.token not in (sent[0].url + page.url)
    shot(page, artifacts, "assistant-applied")
    # reloaded, the tab is still signed in; the thread shows the proposal as applied, with
    # nothing left to apply
    page.reload()
    expect(page.locator("#composer-input")).to_be_focused()
    open_thread(page, "Install page with pipx")
    reopened = page.locator(".proposal")
    expect(reopened).to_have_attribute("data-state", "applied")
    expect(reopened.locator(".proposal-apply")).to_be_hidden()
    assert len(sent) == 1
    shot(page, artifacts, "assistant-reopened")


def test_a_proposal_pending_across_a_reload_applies_once(
    page: Page, assistant: Assistant, artifacts: Path
) -> None:
    sent = apply_requests(page)
    sign_in(page, assistant)
    where = page.viewport_name  # type: ignore[attr-defined]
    new = f"# Install\n\nRun `uv tool install alpha` ({where}).\n"
    title = f"Install with uv ({where})"
    propose_edit(page, assistant, new, title)
    before = assistant.page_hash()
    page.reload()  # the proposal was never decided in this page
    expect(page.locator("#composer-input")).to_be_focused()
    open_thread(page, title)
    card = page.locator(".proposal")
    expect(card).to_have_attribute("data-state", "pending")
    expect(card.locator(".diff-add")).to_contain_text(["uv tool install alpha"])
    assert assistant.page_hash() == before
    shot(page, artifacts, "assistant-restored-proposal")
    card.locator(".proposal-apply").click()
    expect(card).to_have_attribute("data-state", "applied")
    assert assistant.page_file.read_text(encoding="utf-8") == new
    changed = assistant.page_hash()
    click_again(page, ".proposal-apply")
    page.reload()
    open_thread(page, title)
    expect(page.locator(".proposal")).to_have_attribute("data-state", "applied")
    assert len(sent) == 1
    assert assistant.page_hash() == changed


def test_an_expired_proposal_says_so(page: Page, assistant: Assistant, artifacts: Path) -> None:
    sent = apply_requests(page)
    sign_in(page, assistant)
    where = page.viewport_name  # type: ignore[attr-defined]
    title = f"An edit left too long ({where})"
    before = assistant.page_hash()
    propose_edit(page, assistant, "# Install\n\nToo late.\n", title)
    expire_proposals(assistant)
    page.reload()
    open_thread(page, title)
    card = page.locator(".proposal")
    expect(card).to_have_attribute("data-state", "expired")
    expect(card.locator(".proposal-status")).to_contain_text("expired")
    expect(card.locator(".proposal-apply")).to_be_hidden()
    shot(page, artifacts, "assistant-expired-proposal")
    assert sent == []
    assert assistant.page_hash() == before


def test_discard_writes_nothing(page: Page, assistant: Assistant, artifacts: Path) -> None:
    sent = apply_requests(page)
    sign_in(page, assistant)
    before = assistant.page_hash()
    propose_edit(page, assistant, "# Install\n\nThis edit is thrown away.\n", "A rejected edit")
    card = page.locator(".proposal")
    discard = card.locator(".proposal-discard")
    discard.focus()
    page.keyboard.press("Space")
    expect(card).to_have_attribute("data-state", "discarded")
    expect(card.locator(".proposal-status")).to_have_text("Discarded. Nothing was changed.")
    click_again(page, ".proposal-apply")
    expect(card).to_have_attribute("data-state", "discarded")
    expect(card.locator(".proposal-apply")).to_be_disabled()
    assert sent == []
    assert assistant.page_hash() == before
    shot(page, artifacts, "assistant-discarded")


def test_conversations_reopen_from_the_list(
    page: Page, assistant: Assistant, artifacts: Path
) -> None:
    sign_in(page, assistant)
    assistant.model.title = Script(["What Alpha is"])
    assistant.model.script(Script(["Alpha is the organisation's handbook."]))
    page.fill("#composer-input", "What is Alpha?")
    page.keyboard.press("Enter")
    expect(page.locator(".answer-text").last).to_have_text("Alpha is the organisation's handbook.")
    # the turn has ended (its last frames may come after the text): a new conversation
    # started before that is refused with "Wait for the answer to finish"
    expect(page.locator("#composer-send")).to_have_text("Send")
    phone = page.viewport_name == "phone"  # type: ignore[attr-defined]
    if phone:  # the conversations are a drawer: open it, then start a new one by keyboard
        page.click("#threads-toggle")
        expect(page.locator("#new-thread")).to_be_focused()
        page.keyboard.press("Enter")
    else:
        page.click("#new-thread")
    expect(page.locator(".chat-intro")).to_be_visible()
    if phone:
        page.click("#threads-toggle")
        expect(page.locator("#threads")).to_be_in_viewport()
        shot(page, artifacts, "assistant-threads")
    page.locator(".thread-link", has_text="What Alpha is").first.click()
    expect(page.locator(".turn-user .turn-text").last).to_have_text("What is Alpha?")
    expect(page.locator(".answer-text").last).to_have_text("Alpha is the organisation's handbook.")
    page.click("#sign-out")
    expect(page.locator("#signin-token")).to_be_visible()
    assert page.evaluate("window.sessionStorage.length") == 0


def _ask(page: Page, assistant: Assistant, title: str, reply: str) -> None:
    assistant.model.title = Script([title])
    assistant.model.script(Script([reply]))
    page.fill("#composer-input", f"Tell me about {title}.")
    page.keyboard.press("Enter")
    expect(page.locator(".answer-text").last).to_have_text(reply)
    expect(page.locator(".turn-answer").last).to_have_attribute("aria-busy", "false")


def _threads_panel(page: Page) -> None:
    if page.viewport_name == "phone":  # type: ignore[attr-defined]
        page.click("#threads-toggle")
        expect(page.locator("#threads")).to_be_in_viewport()


def _row(page: Page, title: str) -> Locator:
    return page.locator(".thread-row", has=page.locator(".thread-link", has_text=title))


def test_threads_are_renamed_archived_and_deleted(
    page: Page, assistant: Assistant, artifacts: Path
) -> None:
    sign_in(page, assistant)
    where = page.viewport_name  # type: ignore[attr-defined]
    names = [f"Topic {n} {where}" for n in range(7)]
    for name in names:
        _ask(page, assistant, name, f"About {name}.")
        page.keyboard.press("Escape")
        if where == "phone":
            page.click("#threads-toggle")
        page.click("#new-thread")
    _threads_panel(page)
    expect(page.locator(".thread-group-title").first).to_have_text("Today")
    expect(_row(page, names[0]).locator(".thread-time")).to_have_text("just now")
    search = page.locator("#thread-search")
    expect(search).to_be_visible()  # more than six conversations
    search.fill(names[3])
    expect(page.locator(".thread-row")).to_have_count(1)
    shot(page, artifacts, "assistant-thread-search")
    search.fill("")
    # rename inline, by keyboard
    row = _row(page, names[1])
    row.locator(".thread-menu-button").click()
    row.locator(".thread-rename-button").click()
    field = page.locator(".thread-rename-input")
    expect(field).to_be_focused()
    field.fill(f"Renamed {where}")
    page.keyboard.press("Enter")
    expect(page.locator(".thread-link", has_text=f"Renamed {where}")).to_have_count(1)
    # archive, then find it on the archived shelf and restore it
    row = _row(page, names[2])
    row.locator(".thread-menu-button").click()
    row.locator(".thread-archive-button").click()
    expect(_row(page, names[2])).to_have_count(0)
    page.click("#thread-shelf")
    expect(_row(page, names[2])).to_have_count(1)
    shot(page, artifacts, "assistant-archived-shelf")
    _row(page, names[2]).locator(".thread-menu-button").click()
    _row(page, names[2]).locator(".thread-archive-button").click()
    expect(_row(page, names[2])).to_have_count(0)
    page.click("#thread-shelf")
    expect(_row(page, names[2])).to_have_count(1)
    # delete, after a confirmation; Cancel keeps it
    row = _row(page, names[4])
    row.locator(".thread-menu-button").click()
    row.locator(".thread-delete-button").click()
    expect(page.locator(".thread-delete-confirm")).to_be_focused()
    shot(page, artifacts, "assistant-delete-confirm")
    page.click(".thread-delete-cancel")
    expect(_row(page, names[4])).to_have_count(1)
    row.locator(".thread-menu-button").click()
    row.locator(".thread-delete-button").click()
    page.click(".thread-delete-confirm")
    expect(_row(page, names[4])).to_have_count(0)
    page.reload()
    expect(page.locator("#composer-input")).to_be_focused()
    _threads_panel(page)
    expect(page.locator(".thread-link", has_text=f"Renamed {where}")).to_have_count(1)
    expect(_row(page, names[4])).to_have_count(0)


def test_a_failed_turn_is_asked_again_without_retyping(
    page: Page, assistant: Assistant, artifacts: Path
) -> None:
    sign_in(page, assistant)
    where = page.viewport_name  # type: ignore[attr-defined]
    question = f"Which port does Alpha use ({where})?"
    assistant.model.script(Script(status=500))
    page.fill("#composer-input", question)
    page.keyboard.press("Enter")
    again = page.locator(".ask-again")
    expect(again).to_be_visible()
    expect(page.locator("#composer-input")).to_have_value("")
    shot(page, artifacts, "assistant-ask-again")
    assistant.model.script(Script(["Alpha listens on port 8000."]))
    again.click()
    expect(page.locator(".answer-text").last).to_have_text("Alpha listens on port 8000.")
    expect(page.locator(".turn-user .turn-text", has_text=question)).to_have_count(1)
    page.reload()
    open_thread(page, question[:20])  # the provisional title: the reply failed first
    expect(page.locator(".turn-user .turn-text", has_text=question)).to_have_count(1)
    expect(page.locator(".answer-text").last).to_have_text("Alpha listens on port 8000.")


def test_a_restored_unanswered_thread_offers_ask_again(
    page: Page, assistant: Assistant, artifacts: Path
) -> None:
    sign_in(page, assistant)
    where = page.viewport_name  # type: ignore[attr-defined]
    question = f"Is Alpha fast ({where})?"
    assistant.model.script(Script(status=500))
    page.fill("#composer-input", question)
    page.keyboard.press("Enter")
    expect(page.locator(".ask-again")).to_be_visible()
    page.reload()
    open_thread(page, question[:20])
    notice = page.locator(".turn-notice")
    expect(notice).to_contain_text("No reply yet.")
    shot(page, artifacts, "assistant-no-reply-yet")
    assistant.model.script(Script(["Yes, quite fast."]))
    notice.locator(".turn-notice-action").click()
    expect(page.locator(".answer-text").last).to_have_text("Yes, quite fast.")
    expect(page.locator(".turn-user .turn-text", has_text=question)).to_have_count(1)
