"""Every redirect after signing in goes through the one next-URL rule: the sign-in page's
config carries the server's verdict, never the raw ``next``."""

from __future__ import annotations

import html
import json
import re

import pytest

from tests.assistant.conftest import Harness

pytestmark = pytest.mark.anyio


def page_config(text: str) -> dict[str, object]:
    found = re.search(r'<meta name="askdocs-config" content="([^"]*)"', text)
    assert found is not None, text[:500]
    config = json.loads(html.unescape(found.group(1)))
    assert isinstance(config, dict)
    return config


@pytest.mark.parametrize(
    "raw", ["%2F%09%2Fevil.invalid%2Fphish", "%2F%0A%2Fevil.invalid", "%2F%0D%0A%2Fevil.invalid"]
)
async def test_open_redirect_after_sign_in_page_gets_no_foreign_next(
    harness: Harness, raw: str
) -> None:
    response = await harness.client.get(f"/sign-in?next={raw}")
    assert response.status_code == 200
    assert page_config(response.text)["next"] == "/assistant"


async def test_the_sign_in_page_keeps_a_path_on_this_site(harness: Harness) -> None:
    response = await harness.client.get("/sign-in?next=%2Fadmin%3Ftab%3Dsites")
    assert page_config(response.text)["next"] == "/admin?tab=sites"
