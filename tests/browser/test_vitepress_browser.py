"""VitePress in real Chromium, desktop and phone, over the trimmed VitePress docs
(tests/data/vitepress-docs): a code group and a vitepress-plugin-tabs block are tab sets,
a ``<Badge>`` heading is its text plus a badge, and the header works at 390 px (the whole
search placeholder shows; no language picker on a one-locale site). Screenshots go to
test-artifacts/browser/ (``vitepress-*``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import VIEWPORTS, shot, watched_page
from tests.conftest import TEST_DATA
from tests.reader.serve import Served, serving

pytestmark = pytest.mark.browser
VITEPRESS_DOCS = TEST_DATA / "vitepress-docs"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    base = tmp_path_factory.mktemp("vitepress-site")
    config = base / "askdocs.toml"
    config.write_text(
        f"""
[server]
index_in_background = false

[[sites]]
id = "vp"
name = "VitePress"

[[sites.roots]]
path = "{VITEPRESS_DOCS}"
""",
        encoding="utf-8",
    )
    with serving(base / "data", config) as served:
        yield served


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with watched_page(browser, request.param) as page:
        yield page


def open_article(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("h1.article-title")).to_be_visible()


def test_code_group_is_a_tab_set_of_its_labels(page: Page, server: Served, artifacts: Path) -> None:
    open_article(page, server.url + "/docs/guide/getting-started")
    expect(page.locator("h1.article-title")).to_have_text("Getting Started")
    group = page.locator(".tabset-active").first
    tabs = group.locator("[role=tab]")
    expect(tabs).to_have_text(["npm", "pnpm", "yarn", "bun", "deno"])
    panels = group.locator("[role=tabpanel]")
    expect(panels.nth(0)).to_contain_text("npm add -D vitepress@next")
    expect(panels.nth(1)).to_be_hidden()
    tabs.nth(2).click()
    expect(panels.nth(2)).to_be_visible()
    expect(panels.nth(2)).to_contain_text("yarn add -D vitepress@next vue")
    body = page.locator(".doc-body")
    for raw in (":::", "[npm]", "<<<", "code-group"):
        expect(body).not_to_contain_text(raw)
    expect(body).to_contain_text("Welcome to VitePress!")  # the <<< snippet, inside the root
    group.scroll_into_view_if_needed()
    shot(page, artifacts, "vitepress-code-group")


def test_tabs_plugin_block_is_a_tab_set(page: Page, server: Served, artifacts: Path) -> None:
    open_article(page, server.url + "/docs/tabs/index")
    tabset = page.locator(".tabset-active").first
    expect(tabset.locator("[role=tab]")).to_have_text(["tab a", "tab b"])
    expect(tabset.locator("[role=tabpanel]").nth(0)).to_contain_text("a content")
    tabset.locator("[role=tab]").nth(1).click()
    expect(tabset.locator("[role=tabpanel]").nth(1)).to_contain_text("b content")
    expect(page.locator(".doc-body p", has_text="== tab")).to_have_count(0)  # code may show it
    tabset.scroll_into_view_if_needed()
    shot(page, artifacts, "vitepress-tabs")


def test_badge_heading_is_text_and_a_badge(page: Page, server: Served, artifacts: Path) -> None:
    open_article(page, server.url + "/docs/reference/default-theme-badge")
    heading = page.locator(".doc-body h3").filter(has_text="custom element")
    badge = heading.locator("span.badge.badge-info")
    expect(badge).to_have_text("custom element")
    expect(heading).to_contain_text("Title custom element")
    first = page.locator(".doc-body h3").nth(1)
    expect(first.locator("span.badge-tip")).to_have_text("^1.9.0")
    expect(page.locator(".doc-body h3", has_text="<")).to_have_count(0)
    expect(page.locator("#toc")).not_to_contain_text("<")
    first.scroll_into_view_if_needed()
    shot(page, artifacts, "vitepress-badge-heading")


def test_header_fits_a_phone_and_offers_only_the_site_locales(
    page: Page, server: Served, artifacts: Path
) -> None:
    open_article(page, server.url + "/docs/guide/getting-started")
    expect(page.locator("#locale-select")).to_be_hidden()  # the site has English only
    search = page.locator("#search-input")
    expect(search).to_be_visible()
    room = search.evaluate(
        """(input) => {
            const style = getComputedStyle(input);
            const canvas = document.createElement("canvas").getContext("2d");
            canvas.font = `${style.fontSize} ${style.fontFamily}`;
            const text = canvas.measureText(input.placeholder).width;
            const inner = input.clientWidth - parseFloat(style.paddingLeft)
              - parseFloat(style.paddingRight);
            return inner - text;
        }"""
    )
    assert room >= 0, f"the placeholder is cut by {-room:.1f} px"
    header = page.locator("header").first.bounding_box()
    assert header is not None
    assert header["width"] <= VIEWPORTS[page.viewport_name]["width"]  # type: ignore[attr-defined]
    shot(page, artifacts, "vitepress-header")
