"""Issue #19 in real headless Chromium against a real ``askdocs serve`` process and a
scripted OpenAI-compatible model on 127.0.0.1: the assistant's replies (drawer and full
screen) render through the answer view Ask AI uses (inline [n] citations of the injected
sections, copy answer / copy code, the sources collapsed, thumbs stored per user, follow-ups
that ask), reachable by Tab; and the admin area's docs-gaps report page, whose "Draft a page"
stores a WritePage proposal that applies once. Desktop and phone, light and dark.
Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from askdocs.answer.prompt import Source
from askdocs.answer.records import AskRecords, NewRecord
from askdocs.db import Database
from askdocs.db.models import MessageRow
from askdocs.settings import load_settings
from tests.assistant.scripted import ModelServer, Script, model_server
from tests.browser.conftest import VIEWPORTS, wait_ready
from tests.browser.test_assistant_browser import EMAIL, _organisation_site
from tests.browser.test_assistant_drawer_browser import _cli
from tests.reader.fixtures import build_tree
from tests.reader.serve import Served, serving, toml_config

pytestmark = pytest.mark.browser
PASSWORD = "answer-view-password-1234"
MEMBER = "member@example.com"
READING = "/docs/guide/install"
REPLY = [
    "Install it with pip [1]:\n\n",
    "```sh\npip install fixture\n```\n\n",
    "Then read the next section [2].\n\n",
    "Follow-up questions:\n- How do I upgrade it?\n- Where is the config file?",
]
GAP = ["how to export documentation as pdf", "export the docs to pdf", "how to export docs as pdf"]


@dataclass
class Install:
    server: Served
    model: ModelServer
    data_dir: Path

    @property
    def url(self) -> str:
        return self.server.url


def _seed_questions(data_dir: Path) -> None:
    """Ask AI records on the admin site ``alpha``: a gap asked three ways (no match) and
    matched questions, as visitors would have left them."""
    settings = load_settings(data_dir=data_dir)
    db = Database.open(settings)
    try:
        records = AskRecords(db, settings.ask)
        source = Source(title="Installing", url="/docs/guide/install", heading="Installing")
        for n in range(3):
            records.add(
                NewRecord("alpha", f"v{n}", "how do i install it", "en", "answer", True, [source])
            )
        for question in GAP:
            records.add(NewRecord("alpha", "v9", question, "en", "no_match", False, []))
    finally:
        db.close()


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    base = tmp_path_factory.mktemp("answer-view")
    build_tree(base)
    with model_server() as model:
        extra = f"""
[chat]
provider = "openai-compatible"
model = "scripted"
base_url = "{model.url}/v1"
"""
        config = toml_config(base, index=True, extra=extra)
        data_dir = base / "data"
        data_dir.mkdir()
        admin = ("users", "create", "--email", EMAIL, "--platform-admin", "--password-stdin")
        _cli(data_dir, config, *admin, stdin=PASSWORD + "\n")
        member = ("users", "create", "--email", MEMBER, "--password-stdin")
        _cli(data_dir, config, *member, stdin=PASSWORD + "\n")
        _organisation_site(data_dir)
        _seed_questions(data_dir)
        # four layouts rate three times each within a minute: above the default 10 a minute
        env = {"ASKDOCS_ASK__FEEDBACK_PER_MINUTE": "100"}
        with serving(data_dir, config, env) as server:
            wait_ready(server.url)
            yield Install(server, model, data_dir)


@pytest.fixture(
    params=[(v, c) for v in sorted(VIEWPORTS) for c in ("light", "dark")],
    ids=lambda p: f"{p[0]}-{p[1]}",
)
def page(request: pytest.FixtureRequest, browser: Browser, install: Install) -> Iterator[Page]:
    viewport, scheme = request.param
    context = browser.new_context(viewport=VIEWPORTS[viewport], color_scheme=scheme)  # type: ignore[arg-type]
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=install.url)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.viewport_name = f"{viewport}-{scheme}"  # type: ignore[attr-defined]
    yield page
    context.close()
    assert problems == []


def shot(page: Page, artifacts: Path, name: str) -> None:
    path = artifacts / f"{page.viewport_name}-{name}.png"  # type: ignore[attr-defined]
    page.screenshot(path=str(path), animations="disabled")


def sign_in(page: Page, install: Install, next_path: str, email: str = EMAIL) -> None:
    page.goto(f"{install.url}/sign-in?next={next_path}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.locator("#email").fill(email)
    page.locator("#password").fill(PASSWORD)
    page.locator("#signin-submit").click()
    page.wait_for_url(f"{install.url}{next_path}")


def stored_feedback(install: Install, message_id: str) -> dict[str, Any] | None:
    """The rating the server stored on one assistant reply (its own database)."""
    db = Database.open(load_settings(data_dir=install.data_dir))
    try:
        with db.session() as session:
            row = session.scalars(select(MessageRow).where(MessageRow.id == message_id)).one()
            found = (row.metadata_json or {}).get("feedback")
            return found if isinstance(found, dict) else None
    finally:
        db.close()


def last_reply_id(install: Install) -> str:
    db = Database.open(load_settings(data_dir=install.data_dir))
    try:
        with db.session() as session:
            query = select(MessageRow).where(MessageRow.role == "assistant")
            return session.scalars(query.order_by(MessageRow.created_at.desc())).first().id  # type: ignore[union-attr]
    finally:
        db.close()


def test_an_assistant_reply_uses_the_answer_view(
    page: Page, install: Install, artifacts: Path
) -> None:
    sign_in(page, install, READING)
    expect(page.locator("#assistant-open")).to_be_visible()
    install.model.script(Script(REPLY), Script(["Upgrade with pip install -U fixture [1]."]))
    page.click("#assistant-open")
    drawer = page.locator("#assistant-drawer")
    page.locator("#composer-input").fill("How do I install the fixture?")
    page.locator("#composer-input").press("Enter")
    reply = drawer.locator(".turn-answer").last
    # the first search of a fresh index may take a while on a loaded machine
    expect(reply.locator(".answer-actions .copy-answer")).to_be_visible(timeout=60_000)
    expect(reply).to_have_attribute("aria-busy", "false")
    # the model was given numbered sections, and the reply's markers link to them
    system = install.model.requests[-1]["messages"][0]["content"]
    assert "[1] " in system
    assert "like [1]" in system
    cites = reply.locator(".answer-text a.cite")
    expect(cites).to_have_count(2)
    sources = reply.locator("details.ask-sources")
    expect(sources).to_be_visible()
    assert sources.get_attribute("open") is None  # collapsed to one line
    first = sources.locator("ol li a").first.get_attribute("href")
    assert cites.first.get_attribute("href") == first
    expect(reply.locator(".code-block .copy-code")).to_be_visible()
    # the model's follow-up block became buttons, not text
    expect(reply.locator(".answer-text")).not_to_contain_text("Follow-up questions")
    follow = reply.locator(".follow-ups .follow-up")
    expect(follow).to_have_count(2)
    shot(page, artifacts, "drawer-answer-view")

    # keyboard: copy, then the thumbs, by Tab; Enter rates
    reply.locator(".copy-answer").focus()
    page.keyboard.press("Enter")
    expect(reply.locator(".copy-answer")).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "pip install fixture" in copied
    assert "Follow-up questions" not in copied
    page.keyboard.press("Tab")
    expect(reply.locator(".thumb-up")).to_be_focused()
    page.keyboard.press("Tab")
    expect(reply.locator(".thumb-down")).to_be_focused()
    page.keyboard.press("Enter")
    expect(reply.locator(".feedback-reason input")).to_be_focused()
    page.keyboard.type("Missing the Windows steps")
    page.keyboard.press("Enter")
    expect(reply.locator(".feedback-status")).to_have_text("Thanks for the feedback.")
    expect(reply.locator(".thumb-down")).to_have_attribute("aria-pressed", "true")
    reply_id = last_reply_id(install)
    # the thumb is stored at once and the comment by a second send: wait for it (a bound)
    stored = stored_feedback(install, reply_id)
    for _ in range(150):
        if stored is not None and stored["comment"] is not None:
            break
        page.wait_for_timeout(200)
        stored = stored_feedback(install, reply_id)
    assert stored is not None
    assert (stored["rating"], stored["comment"]) == (-1, "Missing the Windows steps")
    shot(page, artifacts, "drawer-answer-rated")

    # a follow-up asks at once
    follow.first.click()
    expect(drawer.locator(".turn-user").last).to_contain_text("How do I upgrade it?")
    expect(drawer.locator(".turn-answer").last.locator(".copy-answer")).to_be_visible(
        timeout=60_000
    )
    asked = install.model.requests[-1]["messages"]
    assert asked[-1]["content"] == "How do I upgrade it?"

    # the full-screen page restores the thread with the same view and the stored rating
    page.goto(f"{install.url}/assistant")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    if page.locator("#threads-toggle").is_visible():
        page.click("#threads-toggle")
    page.locator(".thread-link").first.click()
    restored = page.locator(".turn-answer").first  # the rated reply, restored
    expect(restored.locator(".thumb-down")).to_have_attribute("aria-pressed", "true")
    expect(restored.locator(".thumb-up")).to_have_attribute("aria-pressed", "false")
    expect(restored.locator(".answer-text a.cite")).to_have_count(2)
    expect(restored.locator("details.ask-sources")).to_be_visible()
    restored.locator(".thumb-up").click()
    expect(restored.locator(".feedback-status")).to_have_text("Thanks for the feedback.")
    assert (stored_feedback(install, reply_id) or {}).get("rating") == 1
    shot(page, artifacts, "assistant-restored-answer-view")


def proposals_in(page: Page, install: Install) -> list[str]:
    drafts = install.data_dir / "sites" / "alpha" / "drafts"
    return sorted(p.name for p in drafts.iterdir()) if drafts.exists() else []


def test_the_docs_gaps_report_page_drafts_a_page(
    page: Page, install: Install, artifacts: Path
) -> None:
    sign_in(page, install, "/admin/report")
    body = page.locator("#report-body")
    expect(page.locator("#tab-report")).to_have_attribute("aria-selected", "true")
    expect(page.locator(".report")).to_have_attribute("data-loaded", "7d")
    expect(page.locator("#report-summary")).to_contain_text("6 questions")
    most = page.locator("#report-most-asked .report-group")
    expect(most.first).to_contain_text("how do i install it")
    expect(most.first).to_contain_text("asked 3 times")
    gaps = page.locator("#report-no-match .report-group")
    expect(gaps).to_have_count(1)
    expect(gaps.first).to_contain_text("asked 3 times")
    expect(page.locator("#report-cited")).to_contain_text("Installing")
    shot(page, artifacts, "admin-report")
    page.select_option("#report-since", "24h")
    expect(page.locator(".report")).to_have_attribute("data-loaded", "24h")
    expect(body.locator("#report-no-match .report-group")).to_have_count(1)
    if page.viewport_name != "desktop-light":  # type: ignore[attr-defined]
        return  # the draft is written once; the other layouts only show the report
    assert proposals_in(page, install) == []
    gaps.first.locator(".report-draft-button").click()
    page.wait_for_url(f"{install.url}/proposals/*")
    card = page.locator(".proposal")
    expect(card).to_have_attribute("data-state", "pending")
    expect(card).to_contain_text("drafts/")
    shot(page, artifacts, "admin-report-draft-proposal")
    card.locator(".proposal-apply").click()
    expect(card).to_have_attribute("data-state", "applied")
    written = proposals_in(page, install)
    assert len(written) == 1
    text = (install.data_dir / "sites" / "alpha" / "drafts" / written[0]).read_text("utf-8")
    assert "export" in text
    assert "pdf" in text
    # applies once: a reload shows it applied, with nothing left to apply
    page.reload()
    expect(page.locator(".proposal")).to_have_attribute("data-state", "applied")
    expect(page.locator(".proposal .proposal-apply")).to_be_hidden()
    assert proposals_in(page, install) == written


def test_the_report_page_is_for_platform_administrators(browser: Browser, install: Install) -> None:
    context = browser.new_context(viewport=VIEWPORTS["desktop"])  # type: ignore[arg-type]
    page = context.new_page()
    try:
        page.goto(f"{install.url}/admin/report")
        page.wait_for_url(f"{install.url}/sign-in?next=%2Fadmin%2Freport")
        page.viewport_name = "desktop"  # type: ignore[attr-defined]
        sign_in(page, install, "/admin/report", MEMBER)
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#admin")).to_contain_text("for platform administrators")
        expect(page.locator("#tab-report")).to_have_count(0)
        expect(page.locator("#report-body")).to_have_count(0)
    finally:
        context.close()
