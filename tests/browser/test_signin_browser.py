"""Signing in, in real headless Chromium (desktop and phone) against a real ``askdocs serve``
set up only through ``askdocs`` commands, and a real OpenID provider (the ``oidc-provider``
npm package) on 127.0.0.1: a password, single sign-on (and its refusal for an unknown email
domain), and an owner who invites a member by link and then grants them a tool in the Users
panel. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import VIEWPORTS, shot, watched_page
from tests.support.oidc_provider import OidcProvider, oidc_provider
from tests.support.process import clean_env, free_port, running

pytestmark = [pytest.mark.browser, pytest.mark.node]
ROOT = "root@example.com"
PASSWORD = "correct horse battery staple"


@dataclass
class Install:
    url: str
    provider: OidcProvider
    org_id: str


def _cli(data: Path, config: Path, *args: str, stdin: str | None = None) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data), "--config", str(config)]
    done = subprocess.run(
        [*command, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _config(base: Path, provider: OidcProvider) -> Path:
    docs = base / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Team docs\n\nWelcome.\n", encoding="utf-8")
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
path = "{docs}"

[auth.oidc]
issuer = "{provider.issuer}"
client_id = "{provider.settings([])["client_id"]}"
client_secret = "{provider.settings([])["client_secret"]}"
allowed_email_domains = ["example.com"]
display_name = "Test provider"
""",
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    base = tmp_path_factory.mktemp("signin-browser")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with oidc_provider(url + "/api/v1/auth/oidc/callback", base / "provider.log") as provider:
        config, data = _config(base, provider), base / "data"
        _cli(
            data,
            config,
            "users",
            "create",
            "--email",
            ROOT,
            "--platform-admin",
            "--password-stdin",
            stdin=PASSWORD + "\n",
        )
        org_id = _cli(data, config, "orgs", "create", "--name", "Docs team", "--owner", ROOT)
        command = [
            sys.executable,
            "-m",
            "askdocs",
            "--data-dir",
            str(data),
            "--config",
            str(config),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ]
        with running(command, clean_env(), port, base / "serve.log", 90):
            yield Install(url, provider, org_id)


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with watched_page(browser, request.param) as page:
        yield page


def viewport(page: Page) -> str:
    name: str = page.viewport_name  # type: ignore[attr-defined]
    return name


def password_sign_in(page: Page, install: Install, next_path: str, artifacts: Path | None) -> None:
    page.goto(f"{install.url}/sign-in?next={next_path}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#email")).to_be_focused()
    page.locator("#email").fill(ROOT)
    page.locator("#password").fill(PASSWORD)
    if artifacts is not None:
        shot(page, artifacts, "signin-password")
    page.locator("#signin-submit").click()
    page.wait_for_url(f"{install.url}{next_path}")


def test_sign_in_with_a_password(page: Page, install: Install, artifacts: Path) -> None:
    password_sign_in(page, install, "/admin", artifacts)
    expect(page.locator("#users-panel")).to_contain_text("Members of Docs team")
    expect(page.locator("#account-who")).to_have_text(ROOT)
    cookies = page.context.cookies()
    session = next(c for c in cookies if c["name"] == "askdocs_session")
    assert session["httpOnly"] is True
    assert session["sameSite"] == "Lax"
    assert page.evaluate("document.cookie") == ""  # the session is not readable by scripts
    shot(page, artifacts, "admin-users")
    for tab in ("sites", "providers", "runs"):
        page.locator(f"#tab-{tab}").click()
        expect(page.locator("#admin-panel")).to_have_attribute("data-loaded", tab)
    shot(page, artifacts, "admin-runs")
    page.locator("#sign-out").click()
    page.wait_for_url(f"{install.url}/sign-in")


def single_sign_on(page: Page, install: Install, email: str, artifacts: Path, name: str) -> None:
    page.goto(f"{install.url}/sign-in?next=/assistant")
    expect(page.locator("#signin-sso")).to_have_text("Sign in with Test provider")
    page.locator("#signin-sso").click()
    page.wait_for_url(f"{install.provider.issuer}/interaction/**")
    page.locator("#provider-email").fill(email)
    shot(page, artifacts, f"{name}-provider")
    page.locator("#provider-submit").click()


def test_sign_in_through_the_oidc_provider(page: Page, install: Install, artifacts: Path) -> None:
    single_sign_on(page, install, f"grace-{viewport(page)}@example.com", artifacts, "oidc")
    page.wait_for_url(f"{install.url}/assistant")
    expect(page.locator("#composer-input")).to_be_visible()
    expect(page.locator("#sign-out")).to_be_visible()
    shot(page, artifacts, "oidc-signed-in")


def test_an_unknown_email_domain_is_refused(page: Page, install: Install, artifacts: Path) -> None:
    single_sign_on(page, install, "mallory@elsewhere.org", artifacts, "oidc-refused")
    page.wait_for_url(f"{install.url}/sign-in?error=oidc_domain_not_allowed")
    expect(page.locator("#signin-error")).to_contain_text("email domain may not sign in here")
    shot(page, artifacts, "oidc-refused")


def test_an_owner_invites_a_member_and_grants_a_tool(
    page: Page, browser: Browser, install: Install, artifacts: Path
) -> None:
    newcomer = f"new-{viewport(page)}@example.com"
    password_sign_in(page, install, "/admin", None)
    page.locator("#invite-email").fill(newcomer)
    page.locator("#invite-form button[type=submit]").click()
    link = page.locator("#invite-link")
    expect(link).to_be_visible()
    invite_url = link.input_value()
    assert invite_url.startswith(f"{install.url}/invite/")
    shot(page, artifacts, "admin-invite")
    with watched_page(browser, viewport(page)) as other:
        other.goto(invite_url)
        expect(other.locator("#invite-title")).to_have_text("You are invited")
        expect(other.locator("form")).to_contain_text("Join Docs team as member")
        other.locator("#name").fill("Newcomer")
        other.locator("#new-password").fill(PASSWORD)
        shot(other, artifacts, "invite-accept")
        other.locator("#invite-accept").click()
        other.wait_for_url(f"{install.url}/assistant")
        expect(other.locator("#composer-input")).to_be_visible()
    page.reload()
    row = page.locator("#users-panel tr", has_text=newcomer)
    expect(row).to_contain_text("none")
    row.get_by_role("button", name=f"Tools for {newcomer}").click()
    page.locator("#grant-editor input[data-tool='list_sites']").check()
    page.locator("#grant-review").click()
    expect(page.locator("#grant-editor .proposal-summary")).to_contain_text("add list_sites")
    shot(page, artifacts, "admin-grant")
    page.locator("#grant-confirm").click()
    expect(page.locator("#users-panel tr", has_text=newcomer)).to_contain_text("list_sites")


@pytest.mark.parametrize(
    "raw",
    ["%2F%09%2Fevil.invalid%2Fphish", "%2F%0A%2Fevil.invalid%2Fphish", "%2F%0D%0A%2Fevil.invalid"],
    ids=["tab", "lf", "crlf"],
)
def test_open_redirect_after_sign_in_with_a_tab_is_refused(
    browser: Browser, install: Install, raw: str
) -> None:
    """``/sign-in?next=/<tab>/evil.invalid/phish``: Chromium strips the tab (LF, CR-LF) from
    a URL, so a check that let it through sent the signed-in person off-site."""
    with watched_page(browser, "desktop") as page:
        page.goto(f"{install.url}/sign-in?next={raw}")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.locator("#email").fill(ROOT)
        page.locator("#password").fill(PASSWORD)
        page.locator("#signin-submit").click()
        page.wait_for_url(f"{install.url}/assistant")
        assert page.url.startswith(install.url + "/")
