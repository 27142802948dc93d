"""Single sign-on against a real OpenID provider (the ``oidc-provider`` npm package on
127.0.0.1): authorization code + PKCE, nonce, wrong audience, expired id token, unknown
email domain, a forged state."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from askdocs.users.accounts import Accounts
from askdocs.users.service import UserService
from tests.assistant.conftest import Harness, open_harness
from tests.assistant.scripted import model_server
from tests.support.oidc_provider import OidcProvider, node_ready, oidc_provider

pytestmark = [pytest.mark.anyio, pytest.mark.node]
APP = "http://askdocs.test"
CALLBACK = APP + "/api/v1/auth/oidc/callback"


def test_the_provider_is_installed() -> None:
    assert node_ready(), "run scripts/install-test-deps (node and tests/node/node_modules)"


@pytest.fixture(scope="module")
def provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OidcProvider]:
    log = tmp_path_factory.mktemp("oidc") / "provider.log"
    with oidc_provider(CALLBACK, log) as running:
        yield running


@pytest.fixture
async def sso(
    tmp_path: Path, docs_root: Path, provider: OidcProvider
) -> AsyncIterator[tuple[Harness, OidcProvider]]:
    with model_server() as models:
        url = f"sqlite:///{tmp_path / 'sso.db'}"
        auth = {"oidc": provider.settings(["example.com"])}
        async with open_harness(tmp_path / "data", url, docs_root, models, auth=auth) as harness:
            yield harness, provider


async def through_provider(
    harness: Harness, email: str, next_path: str = "/assistant"
) -> httpx.Response:
    """Start at askdocs, sign in at the provider as ``email``, come back: askdocs's answer."""
    start = await harness.client.get("/api/v1/auth/oidc/start", params={"next": next_path})
    assert start.status_code == 303, start.text
    authorize = start.headers["location"]
    query = parse_qs(urlsplit(authorize).query)
    assert query["code_challenge_method"] == ["S256"]
    assert all(query[name] for name in ("nonce", "state", "code_challenge"))
    async with httpx.AsyncClient(follow_redirects=False, timeout=20) as browser:
        page = await _follow(browser, authorize)
        assert "Test OpenID provider" in page.text
        form = urlsplit(str(page.url))._replace(path=page.url.path + "/login", query="").geturl()
        back = await _follow(browser, form, data={"email": email})
    assert str(back.url).startswith(CALLBACK), back.url
    return await harness.client.get(back.url.path + "?" + back.url.query.decode())


async def _follow(
    browser: httpx.AsyncClient, url: str, data: dict[str, str] | None = None
) -> httpx.Response:
    """Follow the provider's redirects until a page, or a redirect to askdocs."""
    response = await (browser.post(url, data=data) if data else browser.get(url))
    while response.is_redirect:
        target = response.next_request
        assert target is not None
        if str(target.url).startswith(APP):
            return httpx.Response(200, request=target)
        response = await browser.send(target)
    assert response.status_code == 200, response.text
    return response


def error_of(response: httpx.Response) -> str:
    assert response.status_code == 303
    location = urlsplit(response.headers["location"])
    assert location.path == "/sign-in"
    return parse_qs(location.query)["error"][0]


async def test_sign_in_through_the_provider(sso: tuple[Harness, OidcProvider]) -> None:
    harness, _ = sso
    done = await through_provider(harness, "Grace@Example.com")
    assert done.status_code == 303
    assert done.headers["location"] == "/assistant"
    assert "httponly" in done.headers["set-cookie"].lower()
    me = await harness.client.get("/api/v1/auth/me")
    assert me.status_code == 200, me.text
    assert me.json()["user"]["email"] == "grace@example.com"
    assert me.json()["method"] == "oidc"
    again = await through_provider(harness, "grace@example.com")
    assert again.status_code == 303
    assert len(UserService(harness.runtime.db).all()) == 1  # the same account


async def test_an_unknown_email_domain_is_refused(sso: tuple[Harness, OidcProvider]) -> None:
    harness, _ = sso
    done = await through_provider(harness, "mallory@elsewhere.org")
    assert error_of(done) == "oidc_domain_not_allowed"
    assert UserService(harness.runtime.db).all() == []
    assert (await harness.client.get("/api/v1/auth/me")).status_code == 401


@pytest.mark.parametrize(
    ("mode", "code"),
    [
        ("wrong-aud", "oidc_invalid_token"),
        ("expired", "oidc_token_expired"),
        ("bad-nonce", "oidc_invalid_token"),
    ],
)
async def test_bad_id_tokens_are_refused(
    sso: tuple[Harness, OidcProvider], mode: str, code: str
) -> None:
    harness, provider = sso
    provider.tamper(mode)
    done = await through_provider(harness, "grace@example.com")
    assert error_of(done) == code
    assert UserService(harness.runtime.db).all() == []


async def test_a_callback_without_its_state_cookie_is_refused(
    sso: tuple[Harness, OidcProvider],
) -> None:
    harness, _ = sso
    forged = await harness.client.get(
        "/api/v1/auth/oidc/callback", params={"code": "x", "state": "guessed"}
    )
    assert error_of(forged) == "oidc_state_mismatch"


async def test_next_never_leaves_the_site(sso: tuple[Harness, OidcProvider]) -> None:
    harness, _ = sso
    done = await through_provider(harness, "grace@example.com", "//evil.example/x")
    assert done.headers["location"] == "/"


# -- defect 2 of issue 27: single sign-on trusts only verified emails, and links by subject


@pytest.fixture(autouse=True)
def plain_accounts(provider: OidcProvider) -> Iterator[None]:
    """Each test starts (and leaves) the provider's accounts with their usual claims."""
    provider.accounts_claim()
    yield
    provider.accounts_claim()


@pytest.mark.parametrize(
    ("claims", "without"),
    [
        ({}, ("email_verified",)),
        ({"email_verified": "false"}, ()),
        ({"email_verified": "true"}, ()),
    ],
    ids=["absent", "string-false", "string-true"],
)
async def test_single_sign_on_trusts_unverified_emails_no_more(
    sso: tuple[Harness, OidcProvider], claims: dict[str, object], without: tuple[str, ...]
) -> None:
    harness, provider = sso
    provider.accounts_claim(claims, without)
    done = await through_provider(harness, "grace@example.com")
    assert error_of(done) == "oidc_no_email"
    assert UserService(harness.runtime.db).all() == []


async def test_single_sign_on_does_not_take_over_an_account_by_its_email(
    sso: tuple[Harness, OidcProvider],
) -> None:
    """The issue's probe: a provider naming the platform admin's email signed in as them."""
    harness, _ = sso
    users = UserService(harness.runtime.db)
    root = users.create_user("root@example.com", platform_admin=True)
    done = await through_provider(harness, "root@example.com")
    assert error_of(done) == "oidc_not_linked"
    assert (await harness.client.get("/api/v1/auth/me")).status_code == 401
    Accounts(harness.settings, harness.runtime.db).oidc_links.allow(root.id)  # an admin links
    linked = await through_provider(harness, "root@example.com")
    assert linked.headers["location"] == "/assistant"
    me = (await harness.client.get("/api/v1/auth/me")).json()
    assert me["user"]["id"] == root.id


async def test_single_sign_on_keeps_an_account_to_its_linked_subject(
    sso: tuple[Harness, OidcProvider],
) -> None:
    harness, provider = sso
    first = await through_provider(harness, "ada@example.com")  # created, linked to "ada@..."
    assert first.status_code == 303
    assert first.headers["location"] == "/assistant"
    harness.client.cookies.clear()
    provider.accounts_claim({"email": "ada@example.com"})  # another subject, the same email
    done = await through_provider(harness, "impostor@example.com")
    assert error_of(done) == "oidc_not_linked"


async def test_single_sign_on_userinfo_unverified_email_is_not_merged_under_the_token_flag(
    sso: tuple[Harness, OidcProvider],
) -> None:
    harness, provider = sso
    provider.accounts_claim({"email_verified": False})  # what userinfo says
    provider.tamper(claims={"email_verified": True}, without=("email",))  # the id token
    done = await through_provider(harness, "grace@example.com")
    assert error_of(done) == "oidc_no_email"
    assert UserService(harness.runtime.db).all() == []


async def test_single_sign_on_matches_domains_on_the_parsed_address(
    sso: tuple[Harness, OidcProvider],
) -> None:
    harness, _ = sso
    done = await through_provider(harness, "x@evil.example@example.com")
    assert error_of(done) == "oidc_no_email"
    assert UserService(harness.runtime.db).all() == []


@pytest.fixture
async def trusting(
    tmp_path: Path, docs_root: Path, provider: OidcProvider
) -> AsyncIterator[Harness]:
    """A provider trusted to own example.com: its addresses need no email_verified."""
    with model_server() as models:
        url = f"sqlite:///{tmp_path / 'trust.db'}"
        oidc = {
            **provider.settings(["example.com", "other.org"]),
            "trusted_email_domains": ["example.com"],
        }
        async with open_harness(
            tmp_path / "data", url, docs_root, models, auth={"oidc": oidc}
        ) as harness:
            yield harness


async def test_a_trusted_domain_needs_no_email_verified_but_others_do(
    trusting: Harness, provider: OidcProvider
) -> None:
    provider.accounts_claim(without=("email_verified",))
    done = await through_provider(trusting, "grace@example.com")
    assert done.headers["location"] == "/assistant"
    trusting.client.cookies.clear()
    other = await through_provider(trusting, "bob@other.org")
    assert error_of(other) == "oidc_no_email"
    provider.accounts_claim({"email_verified": False})
    trusting.client.cookies.clear()
    refused = await through_provider(trusting, "carol@example.com")
    assert error_of(refused) == "oidc_no_email"
