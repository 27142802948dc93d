"""Dialect blocks in real Chromium, desktop and phone: a Traefik page (MkDocs admonitions,
content tabs, code tabs) and a Frigate page (Docusaurus admonitions), with the tab set
switched by keyboard alone. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import VIEWPORTS, shot, watched_page
from tests.conftest import FRIGATE_DOCS, TEST_DATA
from tests.reader.serve import Served, serving

pytestmark = pytest.mark.browser
TRAEFIK_DOCS = TEST_DATA / "traefik-docs"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    base = tmp_path_factory.mktemp("dialect-site")
    config = base / "askdocs.toml"
    config.write_text(
        f"""
[server]
index_in_background = false

[[sites]]
id = "dx"
name = "Dialects"

[[sites.roots]]
path = "{TRAEFIK_DOCS}"
dialect = "mkdocs"

[[sites.roots]]
path = "{FRIGATE_DOCS}"
dialect = "docusaurus"
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


def test_traefik_admonitions_and_tabs_switch_by_keyboard(
    page: Page, server: Served, artifacts: Path
) -> None:
    open_article(page, server.url + "/docs/metrics")
    expect(page.locator("h1.article-title")).to_have_text("Traefik Metrics Overview")
    info = page.locator("aside.admonition.info").first
    expect(info.locator(".admonition-title")).to_have_text("Default protocol")
    expect(page.locator(".doc-body")).not_to_contain_text("!!!")
    expect(page.locator(".doc-body")).not_to_contain_text('=== "')
    tabset = page.locator(".tabset-active").filter(has_text="OpenTelemetry").last
    tabs = tabset.locator("[role=tab]")
    expect(tabs).to_have_text(["OpenTelemetry", "Prometheus", "Datadog", "InfluxDB2", "StatsD"])
    panels = tabset.locator("[role=tabpanel]")
    expect(tabs.nth(0)).to_have_attribute("aria-selected", "true")
    expect(panels.nth(0)).to_be_visible()
    expect(panels.nth(1)).to_be_hidden()
    tabs.nth(0).focus()
    page.keyboard.press("ArrowRight")
    expect(tabs.nth(1)).to_be_focused()
    expect(tabs.nth(1)).to_have_attribute("aria-selected", "true")
    expect(tabs.nth(1)).to_have_attribute("tabindex", "0")
    expect(tabs.nth(0)).to_have_attribute("tabindex", "-1")
    expect(panels.nth(1)).to_be_visible()
    expect(panels.nth(0)).to_be_hidden()
    page.keyboard.press("End")
    expect(tabs.nth(4)).to_be_focused()
    expect(panels.nth(4)).to_be_visible()
    page.keyboard.press("ArrowRight")  # wraps around
    expect(tabs.nth(0)).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Tab")  # the roving tabindex leaves the list for the panel
    expect(panels.nth(0)).to_be_focused()
    code_tabs = page.locator(".tabset-active").filter(has_text="File (YAML)").first
    expect(code_tabs.locator("[role=tab]").first).to_have_text("File (YAML)")
    page.evaluate("document.getElementById('configuration-example').scrollIntoView()")
    shot(page, artifacts, "dialects-traefik")
    page.evaluate("document.getElementById('global-metrics').scrollIntoView()")
    shot(page, artifacts, "dialects-traefik-tabs")


def test_frigate_docusaurus_admonitions(page: Page, server: Served, artifacts: Path) -> None:
    open_article(page, server.url + "/docs/configuration/notifications")
    expect(page.locator("aside.admonition").first).to_be_visible()
    expect(page.locator(".doc-body")).not_to_contain_text(":::")
    expect(page.locator(".doc-body")).not_to_contain_text("import ")
    expect(page.locator(".doc-body h2").first).not_to_have_text("Notifications")  # the title
    page.evaluate("document.querySelector('aside.admonition').scrollIntoView()")
    shot(page, artifacts, "dialects-frigate")
