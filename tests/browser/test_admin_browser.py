"""The admin area in real headless Chromium against a real ``askdocs serve``, set up only
through ``askdocs`` commands: an organisation admin (the instance's platform administrator)
creates a site, edits it, adds an inference provider and tests it against a scripted
OpenAI-compatible server on 127.0.0.1, grants a member every read tool, and sees the site's
index runs (the background indexer's, with their figures and failures), then deletes the
site. Every change goes through a form built from its operation's schema: propose, review,
apply. No REST call is made by hand. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.conftest import VIEWPORTS, shot, watched_page
from tests.llm.scripted import Reply, ScriptedServer, openai_text, scripted_server
from tests.support.process import clean_env, free_port, running

pytestmark = pytest.mark.browser
ROOT = "root@example.com"
MEMBERS = {viewport: f"member-{viewport}@example.com" for viewport in VIEWPORTS}
PASSWORD = "correct horse battery staple"
KEY = "sk-scripted-7c1e9a44d2b05f38"
RUNS_WAIT_SECONDS = 120.0


@dataclass
class Install:
    url: str
    data: Path
    provider: ScriptedServer


def _cli(data: Path, config: Path, *args: str, stdin: str | None = None) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data), "--config", str(config)]
    done = subprocess.run(
        [*command, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _config(base: Path) -> Path:
    path = base / "askdocs.toml"
    path.write_text(
        """
[server]
index_in_background = true

[index]
first_run_delay_seconds = 0

[embedding]
provider = "none"

[admin]
provider_test_allow_private = true
""",
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    base = tmp_path_factory.mktemp("admin-browser")
    config, data, port = _config(base), base / "data", free_port()
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
    org = _cli(data, config, "orgs", "create", "--name", "Docs team", "--owner", ROOT)
    for member in MEMBERS.values():
        _cli(data, config, "users", "create", "--email", member)
        _cli(data, config, "orgs", "add-member", org, "--email", member)
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
    with scripted_server() as provider, running(command, clean_env(), port, base / "serve.log", 90):
        yield Install(f"http://127.0.0.1:{port}", data, provider)


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with watched_page(browser, request.param) as page:
        yield page


def _viewport(page: Page) -> str:
    name: str = page.viewport_name  # type: ignore[attr-defined]
    return name


def _sign_in(page: Page, install: Install) -> None:
    page.goto(f"{install.url}/sign-in?next=/admin")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.locator("#email").fill(ROOT)
    page.locator("#password").fill(PASSWORD)
    page.locator("#signin-submit").click()
    page.wait_for_url(f"{install.url}/admin")
    expect(page.locator("#users-panel")).to_contain_text("Members of Docs team")


def _tab(page: Page, name: str) -> None:
    page.locator(f"#tab-{name}").click()
    expect(page.locator("#admin-panel")).to_have_attribute("data-loaded", name)


def _review_and_apply(page: Page, form: str, summary: str) -> None:
    """Submit the form, read the proposal's summary, apply it."""
    page.locator(f"#{form} button[type=submit]").click()
    review = page.locator(f"#{form} .op-review")
    expect(review.locator(".proposal-summary")).to_contain_text(summary)
    review.locator(".op-apply").click()


def _create_site(page: Page, site: str, artifacts: Path) -> None:
    _tab(page, "sites")
    page.locator("#site-new").click()
    page.locator("#form-create-site-id").fill(site)
    page.locator("#form-create-site-name").fill(f"Handbook {site}")
    expect(page.locator("#form-create-site label[for=form-create-site-askEnabled]")).to_have_text(
        "Ask AI enabled (optional)"
    )
    shot(page, artifacts, "admin-site-form")
    _review_and_apply(page, "form-create-site", f"Create the site “Handbook {site}” (id {site})")
    expect(page.locator("#admin-panel tr", has_text=site)).to_contain_text("public")


def _edit_site(page: Page, site: str) -> None:
    page.get_by_role("button", name=f"Edit Handbook {site}").click()
    expect(page.locator("#form-update-site-name")).to_have_value(f"Handbook {site}")
    page.locator("#form-update-site-public").select_option("false")
    page.locator("#form-update-site-askEnabled").select_option("false")
    _review_and_apply(page, "form-update-site", "public: on → off")
    expect(page.locator("#admin-panel tr", has_text=site)).to_contain_text("private")


def _add_and_test_provider(page: Page, install: Install, name: str, artifacts: Path) -> None:
    _tab(page, "providers")
    page.locator("#provider-new").click()
    form = "form-create-inference-provider"
    page.locator(f"#{form}-name").fill(name)
    page.locator(f"#{form}-capability").select_option("chat")
    page.locator(f"#{form}-kind").select_option("openai-compatible")
    page.locator(f"#{form}-baseUrl").fill(f"{install.provider.url}/v1")
    page.locator(f"#{form}-model").fill("scripted")
    expect(page.locator(f"#{form}-apiKey")).to_have_attribute("type", "password")
    page.locator(f"#{form}-apiKey").fill(KEY)
    _review_and_apply(page, form, "store the submitted API key (encrypted)")
    row = page.locator("#admin-panel tr", has_text=name)
    expect(row).to_contain_text(f"…{KEY[-4:]}")
    install.provider.script(Reply(openai_text(["OK"]), 200, "text/event-stream"))
    row.get_by_role("button", name=f"Test {name}").click()
    expect(row.locator(".provider-test")).to_have_text("passed")
    shot(page, artifacts, "admin-providers")
    expect(page.locator("body")).not_to_contain_text(KEY)  # write-only: never shown again
    sent = install.provider.received[-1]
    assert sent.headers["authorization"] == f"Bearer {KEY}"


def _grant_all_reads(page: Page, artifacts: Path) -> None:
    member = MEMBERS[_viewport(page)]
    _tab(page, "users")
    page.get_by_role("button", name=f"Tools for {member}").click()
    editor = page.locator("#grant-editor")
    expect(editor.locator("fieldset[data-group=read] legend")).to_have_text("Read")
    expect(editor.locator("fieldset[data-group=propose]")).to_contain_text("Create a site")
    expect(editor.locator("fieldset[data-group=apply]")).to_contain_text(
        "Add an inference provider"
    )
    expect(editor).not_to_contain_text("apply_create_inference_provider")  # labels, not names
    editor.locator("button[data-grant-all=read]").click()
    page.locator("#grant-review").click()
    expect(editor.locator(".proposal-summary")).to_contain_text("add get_site, list_index_runs")
    shot(page, artifacts, "admin-grants")
    page.locator("#grant-confirm").click()
    expect(page.locator("#users-panel tr", has_text=member)).to_contain_text("7 tools")


def _indexed_run(page: Page, site: str) -> Locator:
    """The row of ``site``'s run that indexed its page (the background indexer runs on its
    own: the panel is opened again until that run is listed)."""
    deadline = time.monotonic() + RUNS_WAIT_SECONDS
    rows = page.locator("#runs-body tr")
    while True:
        _tab(page, "runs")
        page.locator("#runs-site").select_option(site)
        expect(page.locator("#runs-body table, #runs-body .admin-note")).to_be_visible()
        pages = rows.locator("td[data-label=Pages]").all_inner_texts()
        if "1" in pages or time.monotonic() > deadline:
            return rows.nth(1 + pages.index("1")) if "1" in pages else rows.first
        page.wait_for_timeout(500)


def test_an_admin_manages_sites_providers_grants_and_sees_index_runs(
    page: Page, install: Install, artifacts: Path
) -> None:
    site = f"handbook-{_viewport(page)}"
    _sign_in(page, install)
    _create_site(page, site, artifacts)
    pages = install.data / "sites" / site
    (pages / "index.md").write_text("# Handbook\n\nHow the team works.\n", encoding="utf-8")
    _edit_site(page, site)  # the change makes the background indexer look again
    row = _indexed_run(page, site)
    expect(row).to_contain_text("succeeded")
    expect(row).to_contain_text("background indexer")
    cells = row.locator("td")
    expect(cells.nth(5)).to_have_text("1")  # pages
    expect(cells.nth(9)).to_have_text("0")  # files it could not use
    shot(page, artifacts, "admin-runs-figures")
    _add_and_test_provider(page, install, f"Scripted {_viewport(page)}", artifacts)
    _grant_all_reads(page, artifacts)
    _tab(page, "sites")
    page.get_by_role("button", name=f"Delete Handbook {site}").click()
    _review_and_apply(page, "form-delete-site", f"Delete the site “Handbook {site}”")
    expect(page.locator("#admin-panel")).not_to_contain_text(f"Handbook {site}")
