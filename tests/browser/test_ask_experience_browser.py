"""The Ask AI experience in real headless Chromium (issue #19), desktop and phone, light and
dark: an answer with inline citations, copy buttons and follow-ups; the model-down fallback
with the sources and a retry; the daily limit with its reset time and a disabled input.
Each test is its own visitor (its own X-Forwarded-For address, trusted by this server).
Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from askdocs.db import Database
from askdocs.db.ask_models import AskRecordRow
from askdocs.settings import Settings
from tests.browser.conftest import VIEWPORTS, Site, chat_config, wait_ready
from tests.llm.scripted import Reply, openai_text, scripted_server
from tests.reader.fixtures import build_tree
from tests.reader.serve import serving, toml_config

pytestmark = pytest.mark.browser
DAILY_LIMIT = 2
ANSWER = [
    "Install it with pip [1]:\n\n",
    "```sh\npip install fixture\n```\n\n",
    "Then configure it [2].",
]
FOLLOW_UP_ANSWER = "Run pip install fixture [1].\n\n| key | default |\n|---|---|\n| cache | false |"
_addresses = itertools.count(10)
WIDE_ROW = " | ".join(f"value number {n} of the option" for n in range(8))
SECTIONS = "\n\n".join(
    f"## Option group {n}\n\n" + "\n\n".join(f"Paragraph {p} of group {n}." for p in range(12))
    for n in range(1, 5)
)
REFERENCE = f"""---
title: Reference
order: 3
---

# Reference

## Option table

| {" | ".join(f"column {n}" for n in range(8))} |
|{"---|" * 8}
| {WIDE_ROW} |

{SECTIONS}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    base = tmp_path_factory.mktemp("ask-experience")
    build_tree(base)
    (base / "docs" / "guide" / "reference.md").write_text(REFERENCE, encoding="utf-8")
    env = {
        "ASKDOCS_SERVER__TRUSTED_PROXIES": '["127.0.0.1"]',
        "ASKDOCS_ASK__DAILY_VISITOR_LIMIT": str(DAILY_LIMIT),
        "ASKDOCS_BOT_CHECK__ALLOW_PUBLIC_ASK_WITHOUT_BOT_CHECK": "true",
    }
    with scripted_server() as model:
        config = toml_config(base, index=True, extra=chat_config(model))
        with serving(base / "data", config, env) as server:
            wait_ready(server.url)
            yield Site(server, model, base)


@pytest.fixture(
    params=[(v, c) for v in sorted(VIEWPORTS) for c in ("light", "dark")],
    ids=lambda p: f"{p[0]}-{p[1]}",
)
def page(request: pytest.FixtureRequest, browser: Browser, site: Site) -> Iterator[Page]:
    viewport, scheme = request.param
    context = browser.new_context(
        viewport=VIEWPORTS[viewport],  # type: ignore[arg-type]
        color_scheme=scheme,
        extra_http_headers={"X-Forwarded-For": f"203.0.113.{next(_addresses)}"},
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error",) else None)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.viewport_name = f"{viewport}-{scheme}"  # type: ignore[attr-defined]
    yield page
    context.close()
    # a refused request (the 404/429/503 these tests provoke) logs a console error by design
    expected = re.compile(r"Failed to load resource: .* status of (404|429|503)")
    assert [p for p in problems if not expected.search(p)] == []


def shot(page: Page, artifacts: Path, name: str) -> None:
    path = artifacts / f"{page.viewport_name}-{name}.png"  # type: ignore[attr-defined]
    page.screenshot(path=str(path), animations="disabled")


def rating_of(site: Site, question: str) -> tuple[int | None, str | None]:
    """The stored rating of the newest record of ``question`` (the server's own database)."""
    db = Database.open(Settings(data_dir=site.base / "data"))
    try:
        with db.session() as session:
            query = select(AskRecordRow).where(AskRecordRow.question == question)
            row = session.scalars(query.order_by(AskRecordRow.created_at.desc())).first()
            assert row is not None
            return row.rating, row.comment
    finally:
        db.close()


def open_ask(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.click("#ask-open")
    expect(page.locator("#ask-input")).to_be_focused()


def ask(page: Page, question: str) -> None:
    page.fill("#ask-input", question)
    page.keyboard.press("Enter")


def test_answer_cites_copies_and_suggests_follow_ups(
    page: Page, site: Site, artifacts: Path
) -> None:
    site.model.script(Reply(openai_text(ANSWER)), Reply(openai_text([FOLLOW_UP_ANSWER])))
    open_ask(page, site.url + "/docs/guide/configure")
    expect(page.locator("#ask-remaining")).to_have_text(f"{DAILY_LIMIT} questions left today")
    ask(page, "How do I install fixture with pip?")
    answer = page.locator(".turn-answer").last
    expect(answer).to_have_attribute("aria-busy", "false")
    cites = answer.locator(".answer-text a.cite")
    expect(cites.first).to_have_text("1")
    first_source = answer.locator(".ask-sources li a").first
    assert cites.first.get_attribute("href") == first_source.get_attribute("href")
    expect(answer.locator(".ask-sources summary")).to_contain_text("Sources")
    expect(answer.locator(".ask-sources li").first).to_be_hidden()  # collapsed to one line
    expect(page.locator("#ask-remaining")).to_have_text("1 question left today")
    follow_ups = answer.locator(".follow-up")
    expect(follow_ups.first).to_be_visible()
    shot(page, artifacts, "ask-cited-answer")
    answer.locator(".copy-code").click()
    expect(answer.locator(".copy-code")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == "pip install fixture"
    answer.locator(".copy-answer").click()
    assert page.evaluate("navigator.clipboard.readText()") == "".join(ANSWER)
    answer.locator(".thumb-down").click()
    reason = answer.locator(".feedback-reason input")
    expect(reason).to_be_focused()
    reason.fill("It skipped the virtualenv step.")
    reason.press("Enter")
    expect(answer.locator(".feedback-status")).to_have_text("Thanks for the feedback.")
    expect(answer.locator(".thumb-down")).to_have_attribute("aria-pressed", "true")
    assert rating_of(site, "How do I install fixture with pip?") == (
        -1,
        "It skipped the virtualenv step.",
    )
    follow_up = follow_ups.first.text_content() or ""
    follow_ups.first.click()
    expect(page.locator(".turn-user").last).to_have_text(re.compile(re.escape(follow_up)))
    last = page.locator(".turn-answer").last.locator(".answer-text")
    expect(last.locator("p").first).to_have_text("Run pip install fixture 1.")
    expect(last.locator(".table-scroll table td")).to_have_text(["cache", "false"])


def test_model_down_shows_sources_and_a_retry(page: Page, site: Site, artifacts: Path) -> None:
    site.model.replies.clear()  # no scripted reply: the model answers 500
    open_ask(page, site.url + "/")
    ask(page, "How do I install fixture with pip?")
    answer = page.locator(".turn-answer").last
    alert = answer.locator(".ask-error")
    expect(alert).to_have_text(
        "The assistant is unavailable right now. Here are the most relevant pages."
    )
    expect(answer).not_to_contain_text("500")
    expect(answer).not_to_contain_text("openai")
    expect(answer.locator(".ask-sources li a").filter(has_text="Install with pip")).to_be_visible()
    shot(page, artifacts, "ask-model-down")
    site.model.script(Reply(openai_text(["Use pip."])))
    answer.locator(".retry").click()
    answer = page.locator(".turn-answer").last
    expect(answer.locator(".answer-text")).to_have_text("Use pip.")
    expect(page.locator(".turn-user")).to_have_count(1)  # retried in place


def test_the_daily_limit_says_when_it_resets_and_disables_the_input(
    page: Page, site: Site, artifacts: Path
) -> None:
    site.model.script(*(Reply(openai_text([f"Answer {n}."])) for n in range(DAILY_LIMIT)))
    open_ask(page, site.url + "/")
    for n in range(DAILY_LIMIT):
        ask(page, f"How do I install fixture with pip, take {n}?")
        expect(page.locator(".turn-answer").last).to_have_attribute("aria-busy", "false")
    footer = page.locator("#ask-remaining")
    expect(footer).to_have_text(
        re.compile(r"You have used today's questions\. You can ask again at .*\d\d.\d\d")
    )
    expect(page.locator("#ask-input")).to_be_disabled()
    expect(page.locator("#ask-send")).to_be_disabled()
    shot(page, artifacts, "ask-limit-reached")
    page.reload()  # the state holds for a fresh page: the counter is read before a question
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.click("#ask-open")
    expect(page.locator("#ask-input")).to_be_disabled()
    expect(footer).to_contain_text("You can ask again at")


def test_keyboard_only_use_of_search_and_the_panel(page: Page, site: Site, artifacts: Path) -> None:
    page.goto(site.url + "/docs/guide/configure")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    search = page.locator("#search-input")
    page.keyboard.press("/")
    expect(search).to_be_focused()
    page.keyboard.press("Escape")
    page.locator("#article").focus()
    page.keyboard.press("Control+k")
    expect(search).to_be_focused()
    page.keyboard.press("Meta+k")
    expect(search).to_be_focused()
    ask_button = page.locator("#ask-open")
    expect(ask_button).to_have_text("Ask AI")  # labelled on phones too
    ask_button.focus()
    page.keyboard.press("Enter")
    panel = page.locator("#ask-panel")
    expect(page.locator("#ask-input")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#ask-send")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#ask-log")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#ask-close")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#ask-new")).to_be_focused()
    box, bar = panel.bounding_box(), page.locator("#search").bounding_box()
    assert box is not None
    assert bar is not None
    width = VIEWPORTS[page.viewport_name.split("-")[0]]["width"]  # type: ignore[attr-defined]
    assert abs(box["x"] + box["width"] - width) < 1  # on the side of its button: the right
    assert box["y"] >= bar["y"] + bar["height"]  # the search box stays visible
    scrim = page.locator(".ask-scrim")
    if page.viewport_name.startswith("phone"):  # type: ignore[attr-defined]
        expect(scrim).to_be_visible()
    else:
        expect(scrim).to_be_hidden()
    shot(page, artifacts, "ask-keyboard")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(ask_button).to_be_focused()
    expect(scrim).to_be_hidden()


def test_search_offers_ask_ai_about_the_query(page: Page, site: Site) -> None:
    site.model.script(Reply(openai_text(["Run pip install fixture [1]."])))
    page.goto(site.url + "/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    search = page.locator("#search-input")
    search.press_sequentially("pip install", delay=20)
    ask_option = page.locator(".search-ask")
    expect(ask_option).to_have_text("Ask AI about “pip install”")
    expect(page.locator(".search-option").first).to_contain_text("Install with pip")
    ask_option.click()
    expect(page.locator("#ask-panel")).to_be_visible()
    expect(page.locator(".turn-user")).to_have_text(re.compile("pip install"))
    expect(page.locator(".answer-text")).to_have_text("Run pip install fixture 1.")


def test_reading_aids_permalinks_tables_and_position(
    page: Page, site: Site, artifacts: Path
) -> None:
    page.goto(site.url + "/docs/guide/reference")
    expect(page.locator("h1.article-title")).to_have_text("Reference")
    anchor = page.locator("h2#option-group-2 .heading-anchor")
    expect(anchor).to_have_attribute("href", "/docs/guide/reference#option-group-2")
    expect(page.locator("h2#option-group-2")).to_have_text("Option group 2")  # text unchanged
    table = page.locator(".doc-body .table-scroll")
    wider = table.evaluate("box => box.scrollWidth > box.clientWidth")
    phone = page.viewport_name.startswith("phone")  # type: ignore[attr-defined]
    hint = page.locator(".doc-body .table-hint")
    if phone:
        assert wider
        expect(hint).to_be_visible()
        expect(hint).to_have_text("Scroll sideways to see the whole table")
        shot(page, artifacts, "reader-table-hint")
    else:
        expect(hint).to_be_hidden()
    page.locator("h2#option-group-3").scroll_into_view_if_needed()
    page.mouse.wheel(0, 200)
    if phone:
        expect(page.locator(".reading-bar .reading-section")).to_have_text("Option group 3")
        shot(page, artifacts, "reader-reading-bar")
    else:
        current = page.locator("#toc a[aria-current=location]")
        expect(current).to_have_text("Option group 3")
        shot(page, artifacts, "reader-toc-position")


def test_the_404_page_offers_search_and_the_closest_pages(
    page: Page, site: Site, artifacts: Path
) -> None:
    page.goto(site.url + "/docs/guide/instal")
    expect(page.locator("h1.article-title")).to_have_text("This page does not exist.")
    box = page.locator("#not-found-input")
    expect(box).to_have_value("guide instal")
    expect(page.locator(".not-found-pages a").filter(has_text="Installing").first).to_be_visible()
    shot(page, artifacts, "reader-404")
    box.fill("cache settings")
    box.press("Enter")
    expect(page.locator(".not-found-pages a").first).to_contain_text("Configuring")


def test_the_model_s_follow_up_questions_become_buttons(page: Page, site: Site) -> None:
    said = (
        "Run pip install fixture [1].\n\n"
        "Follow-up questions:\n- How do I configure the cache?\n- How do I back up?"
    )
    site.model.script(Reply(openai_text([said[:40], said[40:]])))
    open_ask(page, site.url + "/")
    ask(page, "How do I install fixture with pip?")
    answer = page.locator(".turn-answer").last
    expect(answer.locator(".follow-up")).to_have_text(
        ["How do I configure the cache?", "How do I back up?"]
    )
    expect(answer.locator(".answer-text")).to_have_text("Run pip install fixture 1.")
