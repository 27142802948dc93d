"""A private site in real headless Chromium (desktop and phone): two organisations set up
only through ``askdocs`` commands and the REST admin operations; the owning organisation's
member reads and searches its canary page; a member of the other organisation gets neither
the site nor its pages from search, the reader, Ask AI or the assistant. Screenshots go to
test-artifacts/browser/."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import VIEWPORTS, shot, watched_page
from tests.support.process import clean_env, free_port, running

pytestmark = pytest.mark.browser
PASSWORD = "correct horse battery staple"
CANARY = "zephyrquill"
SITE = "alpha-private"
CANARY_PAGE = f"---\ntitle: Canary\n---\n# Canary\n\nThe alpha canary word is {CANARY}.\n"


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
    docs = base / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Public docs\n\nNothing secret here.\n", encoding="utf-8")
    path = base / "askdocs.toml"
    text = '[server]\nindex_in_background = false\n\n[embedding]\nprovider = "none"\n\n'
    text += f'[[sites]]\nid = "public"\nname = "Public docs"\n\n[[sites.roots]]\npath = "{docs}"\n'
    path.write_text(text, encoding="utf-8")
    return path


def _admin(url: str, token: str, org: str) -> None:
    """The owner creates the private site, writes the canary page and indexes it (REST)."""
    with httpx.Client(
        base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60
    ) as http:
        for operation, body in (
            ("create-site", {"id": SITE, "name": "Alpha private", "public": False,
                             "hostnames": ["alpha.docs.test"]}),
            ("write-page", {"siteId": SITE, "path": "canary.md", "content": CANARY_PAGE}),
        ):  # fmt: skip
            body = {**body, "organisationId": org}
            proposed = http.post(f"/api/v1/admin/proposals/{operation}", json=body)
            assert proposed.status_code == 200, proposed.text
            token_ = proposed.json()["confirmationToken"]
            applied = http.post(
                f"/api/v1/admin/apply/{operation}", json={**body, "confirmationToken": token_}
            )
            assert applied.status_code == 200, applied.text
        started = http.post(f"/api/v1/admin/sites/{SITE}/reindex", params={"organisationId": org})
        assert started.status_code == 202, started.text
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            listed = http.get("/api/v1/admin/runs", params={"organisationId": org}).json()
            runs = [run for run in listed["runs"] if run["initiator"] == "api"]  # the re-index
            if runs and runs[0]["status"] != "running":
                assert runs[0]["status"] == "succeeded", runs[0]
                return
            time.sleep(0.25)
        raise AssertionError("the private site was not indexed in time")


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    base = tmp_path_factory.mktemp("private-browser")
    config, data, port = _config(base), base / "data", free_port()
    for who, admin in (("alpha", ["--platform-admin"]), ("beta", [])):
        _cli(data, config, "users", "create", "--email", f"{who}@example.com", *admin,
             "--password-stdin", stdin=PASSWORD + "\n")  # fmt: skip
    org = _cli(data, config, "orgs", "create", "--name", "Alpha", "--owner", "alpha@example.com")
    _cli(data, config, "orgs", "create", "--name", "Beta", "--owner", "beta@example.com")
    token = _cli(data, config, "token", "create", "--email", "alpha@example.com", "--org", org)
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data), "--config", str(config),
               "serve", "--host", "127.0.0.1", "--port", str(port)]  # fmt: skip
    with running(command, clean_env(), port, base / "serve.log", 90):
        url = f"http://127.0.0.1:{port}"
        _admin(url, token, org)
        yield Install(url)


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with watched_page(browser, request.param) as page:
        yield page


def sign_in(page: Page, install: Install, who: str, next_path: str) -> str:
    """Sign in with the password form; the session's CSRF token."""
    page.goto(f"{install.url}/sign-in?next={next_path}")
    page.locator("#email").fill(f"{who}@example.com")
    page.locator("#password").fill(PASSWORD)
    page.locator("#signin-submit").click()
    page.wait_for_url(f"{install.url}{next_path.split('?')[0]}**")
    state = page.request.get(f"{install.url}/api/v1/auth/session").json()
    token: str = state["me"]["csrfToken"]
    return token


def test_a_member_reads_and_searches_the_private_site(
    page: Page, install: Install, artifacts: Path
) -> None:
    sign_in(page, install, "alpha", f"/docs/canary?site={SITE}")
    expect(page.locator("main")).to_contain_text(CANARY)
    shot(page, artifacts, "private-member-reader")
    search = page.locator("#search-input")
    search.press_sequentially(CANARY, delay=20)
    expect(page.locator(".search-option").first).to_contain_text("Canary")
    shot(page, artifacts, "private-member-search")


def test_another_organisation_sees_nothing(page: Page, install: Install, artifacts: Path) -> None:
    csrf = sign_in(page, install, "beta", "/assistant")
    api = page.request
    searched = api.get(f"{install.url}/api/search", params={"site": SITE, "q": CANARY})
    assert searched.status == 404
    for path in ("/api/docs/catalog", "/api/docs/articles/canary"):
        read = api.get(f"{install.url}{path}", params={"site": SITE, "locale": "en"})
        assert read.status == 404
        assert CANARY not in read.text()
    question = {"token": "", "messages": [{"role": "user", "content": "the canary word?"}]}
    asked = api.post(
        f"{install.url}/api/ask",
        data=question,
        headers={"Host": "alpha.docs.test", "X-CSRF-Token": csrf},
    )
    assert asked.status == 404
    made = api.post(
        f"{install.url}/api/v1/assistant/threads",
        data={"siteId": SITE},
        headers={"X-CSRF-Token": csrf},
    )
    assert made.status == 201
    thread = api.get(f"{install.url}/api/v1/assistant/threads/{made.json()['id']}").json()
    assert thread.get("siteId") is None  # dropped exactly like an unknown id
    page.goto(f"{install.url}/assistant?site={SITE}")
    expect(page.locator("#composer-input")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("Alpha private")
    shot(page, artifacts, "private-outsider-assistant")
