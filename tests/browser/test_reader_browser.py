"""The reader in real headless Chromium, desktop and phone: the catalog and an article,
search as you type opening a result at its anchor, and Ask AI showing the sources before
the first word of the streamed answer. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import VIEWPORTS, Site, shot, watched_page
from tests.llm.scripted import Reply, openai_text

pytestmark = pytest.mark.browser
ANSWER = ["Run ", "`pip install fixture` ", "in a virtual environment."]
ORDER_PROBE = """
window.__askOrder = [];
new MutationObserver(() => {
  const log = document.getElementById("ask-log");
  if (!log) return;
  const order = window.__askOrder;
  if (log.querySelector(".ask-sources li") && !order.includes("sources")) order.push("sources");
  const text = log.querySelector(".answer-text");
  if (text && text.textContent.trim() && !order.includes("text")) order.push("text");
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with watched_page(browser, request.param, ORDER_PROBE) as page:
        yield page


def open_reader(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def test_reader_shows_catalog_and_article(page: Page, site: Site, artifacts: Path) -> None:
    open_reader(page, site.url + "/")
    expect(page.locator("h1.article-title")).to_have_text("Welcome to Fixture")
    expect(page.locator(".doc-body img[alt='The Fixture logo']")).to_have_count(1)
    image = page.locator(".doc-body img[alt='The Fixture logo']")
    # Property checks run in Playwright's own world: the reader's CSP forbids eval'd strings.
    expect(image).to_have_js_property("complete", True)  # decoded
    expect(image).to_have_js_property("naturalWidth", 2)
    if page.viewport_name == "phone":  # type: ignore[attr-defined]
        expect(page.locator("#sidebar")).not_to_be_in_viewport()
        page.click("#nav-toggle")
    expect(page.locator(".catalog-heading")).to_have_text(["General", "Guide", "Administration"])
    expect(page.locator(".catalog-link[aria-current=page]")).to_have_text("Welcome to Fixture")
    expect(page.locator(".badge").filter(has_text="Administrator guide")).to_have_count(1)
    shot(page, artifacts, "reader")
    page.click(".catalog-link[data-slug='guide/configure']")
    expect(page).to_have_url(site.url + "/docs/guide/configure")
    expect(page.locator("h1.article-title")).to_have_text("Configuring")
    expect(page.locator(".pager-prev .pager-title")).to_have_text("Installing")


def test_locale_switch_shows_translation_and_fallback(page: Page, site: Site) -> None:
    open_reader(page, site.url + "/docs/guide/install")
    options = page.locator("#locale-select option")
    expect(options).to_have_count(2)  # the site has English and Czech pages, no Slovak
    assert options.evaluate_all("(all) => all.map((o) => o.value)") == ["en", "cs"]
    page.select_option("#locale-select", "cs")
    expect(page.locator("h1.article-title")).to_have_text("Instalace")
    expect(page).to_have_url(site.url + "/docs/guide/install?lang=cs")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    page.goto(site.url + "/docs/guide/configure?lang=cs")
    expect(page.locator(".notice")).to_contain_text("není přeložená")
    page.select_option("#locale-select", "en")


def test_search_as_you_type_opens_result_at_anchor(page: Page, site: Site, artifacts: Path) -> None:
    open_reader(page, site.url + "/")
    search = page.locator("#search-input")
    search.press_sequentially("pip insta", delay=30)
    option = page.locator(".search-option").first
    expect(option).to_contain_text("Install with pip")
    expect(search).to_have_attribute("aria-expanded", "true")
    shot(page, artifacts, "search")
    search.press("ArrowDown")
    expect(search).to_have_attribute("aria-activedescendant", "search-option-0")
    search.press("Enter")
    expect(page).to_have_url(site.url + "/docs/guide/install#pip")
    heading = page.locator("h2#pip")
    expect(heading).to_be_in_viewport()
    expect(heading).to_be_focused()
    expect(page.locator("#search-panel")).to_be_hidden()


def test_ask_ai_lists_sources_before_the_streamed_answer(
    page: Page, site: Site, artifacts: Path
) -> None:
    site.model.release.clear()
    site.model.script(Reply(openai_text(ANSWER), hang_after=2))
    open_reader(page, site.url + "/docs/guide/configure")
    page.click("#ask-open")
    expect(page.locator("#ask-panel")).to_be_visible()
    expect(page.locator("#ask-input")).to_be_focused()
    page.fill("#ask-input", "How do I install fixture with pip?")
    page.keyboard.press("Enter")
    sources = page.locator(".ask-sources li a")
    expect(page.locator(".ask-sources summary")).to_contain_text("Installing")
    expect(sources.filter(has_text="Install with pip")).to_have_count(1)
    expect(page.locator(".answer-text")).to_have_text("Run")
    expect(page.locator(".turn-answer")).to_have_attribute("aria-busy", "true")
    shot(page, artifacts, "ask-streaming")
    site.model.release.set()
    expect(page.locator(".turn-answer")).to_have_attribute("aria-busy", "false")
    expect(page.locator(".answer-text")).to_have_text(
        "Run pip install fixture in a virtual environment."
    )
    expect(page.locator(".answer-text code")).to_have_text("pip install fixture")
    assert page.evaluate("window.__askOrder") == ["sources", "text"]
    expect(page.locator("#ask-remaining")).to_contain_text("questions left today")
    shot(page, artifacts, "ask-answer")
    page.click(".ask-sources summary")  # the sources line opens into the list
    sources.filter(has_text="Install with pip").click()
    expect(page).to_have_url(site.url + "/docs/guide/install#pip")
    expect(page.locator("h1.article-title")).to_have_text("Installing")


def test_ask_panel_closes_with_escape_and_returns_focus(page: Page, site: Site) -> None:
    open_reader(page, site.url + "/")
    page.click("#ask-open")
    expect(page.locator("#ask-input")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#ask-panel")).to_be_hidden()
    expect(page.locator("#ask-open")).to_be_focused()
    expect(page.locator("#ask-open")).to_have_attribute("aria-expanded", "false")
