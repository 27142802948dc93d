"""The reader's account side in real headless Chromium (desktop and phone), against a real
``askdocs serve`` set up only through ``askdocs`` commands: a visitor's "Sign in" comes back
to the page; a signed-in person's account menu says who they are and signs out; a private
or missing site is a page that offers to sign in (the same page for both: nothing leaks),
never a raw JSON error; an invitation link is shown whole and copies whole."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import VIEWPORTS, shot, watched_page
from tests.support.process import clean_env, free_port, running

pytestmark = pytest.mark.browser
ROOT = "root@example.com"
OUTSIDER = "outsider@example.com"
PASSWORD = "correct horse battery staple"


@dataclass
class Install:
    url: str


def _cli(data: Path, config: Path, *args: str, stdin: str | None = None) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data), "--config", str(config)]
    done = subprocess.run(
        [*command, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _config(base: Path) -> Path:
    (base / "docs").mkdir()
    (base / "docs" / "index.md").write_text("# Team docs\n\nWelcome.\n", encoding="utf-8")
    (base / "private").mkdir()
    (base / "private" / "index.md").write_text("# Private\n\nInternal.\n", encoding="utf-8")
    path = base / "askdocs.toml"
    path.write_text(
        f"""
[server]
index_in_background = false

[embedding]
provider = "none"

[[sites]]
id = "team"
name = "Team docs"
[[sites.roots]]
path = "{base / "docs"}"

[[sites]]
id = "internal"
name = "Internal"
public = false
[[sites.roots]]
path = "{base / "private"}"
""",
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    base = tmp_path_factory.mktemp("reader-account")
    port = free_port()
    config, data = _config(base), base / "data"
    for email, admin in ((ROOT, True), (OUTSIDER, False)):
        flags = ["--platform-admin"] if admin else []
        _cli(data, config, "users", "create", "--email", email, *flags, "--password-stdin",
             stdin=PASSWORD + "\n")  # fmt: skip
    _cli(data, config, "orgs", "create", "--name", "Docs team", "--owner", ROOT)
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data), "--config", str(config)]
    command += ["serve", "--host", "127.0.0.1", "--port", str(port)]
    with running(command, clean_env(), port, base / "serve.log", 90):
        yield Install(f"http://127.0.0.1:{port}")


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with watched_page(browser, request.param) as page:
        yield page


def sign_in(page: Page, install: Install, email: str) -> None:
    page.locator("#email").fill(email)
    page.locator("#password").fill(PASSWORD)
    page.locator("#signin-submit").click()


def test_sign_in_from_the_reader_comes_back_and_the_menu_signs_out(
    page: Page, install: Install, artifacts: Path
) -> None:
    page.goto(f"{install.url}/docs/index?site=team")
    expect(page.locator("body")).to_have_attribute("data-account-ready", "true")
    link = page.locator("#account-slot a", has_text="Sign in")
    expect(link).to_be_visible()
    shot(page, artifacts, "reader-signed-out")
    link.click()
    expect(page.locator("#email")).to_be_focused()
    sign_in(page, install, ROOT)
    page.wait_for_url(f"{install.url}/docs/index?site=team")
    button = page.locator("#account-button")
    expect(button).to_be_visible()
    expect(page.locator(".search input")).to_be_visible()
    button.click()
    menu = page.locator("#account-menu")
    expect(menu).to_be_visible()
    expect(menu).to_contain_text(ROOT)
    expect(page.get_by_role("menuitem", name="Assistant")).to_be_focused()
    shot(page, artifacts, "reader-account-menu")
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(button).to_be_focused()
    button.click()
    page.get_by_role("menuitem", name="Sign out").click()
    expect(page.locator("#account-slot a", has_text="Sign in")).to_be_visible()
    assert not any(c["name"] == "askdocs_session" for c in page.context.cookies())


@pytest.fixture(params=sorted(VIEWPORTS))
def page_404(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A page whose navigation answers 404 (Chromium logs "Failed to load resource" for it;
    any other console message still fails the test)."""
    context = browser.new_context(viewport=VIEWPORTS[request.param])  # type: ignore[arg-type]
    page = context.new_page()
    page.viewport_name = request.param  # type: ignore[attr-defined]
    problems: list[str] = []
    page.on("console", lambda m: _problem(m.type, m.text, problems))
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    yield page
    context.close()
    assert problems == []


def _problem(kind: str, text: str, problems: list[str]) -> None:
    if kind in ("error", "warning") and "status of 404" not in text:
        problems.append(f"{kind}: {text}")


@pytest.mark.parametrize("site", ["internal", "no-such-site"])
def test_a_site_the_visitor_cannot_read_offers_sign_in(
    page_404: Page, install: Install, site: str, artifacts: Path
) -> None:
    page = page_404
    target = f"/docs/index?site={site}"
    response = page.goto(install.url + target)
    assert response is not None
    assert response.status == 404
    assert response.headers["content-type"].startswith("text/html")
    expect(page.locator("h1")).to_have_text("This page isn't available")
    action = page.get_by_role("link", name="Sign in", exact=True)
    expect(action).to_have_attribute("href", "/sign-in?next=%2Fdocs%2Findex%3Fsite%3D" + site)
    shot(page, artifacts, f"reader-unavailable-{site}")
    if site == "internal":
        action.click()
        sign_in(page, install, OUTSIDER)
        page.wait_for_url(install.url + target)
        expect(page.locator("main")).to_contain_text("your account cannot read it")
        expect(page.get_by_role("link", name="Sign in with another account")).to_be_visible()


def test_the_same_unavailable_page_whether_or_not_the_site_exists(install: Install) -> None:
    bodies = {
        site: httpx.get(f"{install.url}/docs/x?site={site}", timeout=30)
        for site in ("internal", "no-such-site")
    }
    assert {r.status_code for r in bodies.values()} == {404}
    assert bodies["internal"].text.replace("internal", "S") == bodies["no-such-site"].text.replace(
        "no-such-site", "S"
    )
    hostile = httpx.get(f"{install.url}//evil.example/docs?site=nope", timeout=30)
    assert "next=%2F%2F" not in hostile.text


def test_an_invitation_link_is_whole_and_copies_whole(
    page: Page, install: Install, artifacts: Path
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=install.url)
    page.goto(f"{install.url}/sign-in?next=/admin")
    sign_in(page, install, ROOT)
    page.wait_for_url(f"{install.url}/admin")
    newcomer = f"copy-{page.viewport_name}@example.com"  # type: ignore[attr-defined]
    page.locator("#invite-email").fill(newcomer)
    page.locator("#invite-form button[type=submit]").click()
    link = page.locator("#invite-link")
    expect(link).to_be_visible()
    url = link.input_value()
    assert url.startswith(f"{install.url}/invite/")
    fits = "(el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight"
    assert link.evaluate(fits), "the link is cut"
    page.locator("#invite-copy").click()
    expect(page.locator("#invite-copy")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == url
    shot(page, artifacts, "admin-invite-copy")
