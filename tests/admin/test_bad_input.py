"""Defect 8 of the hardening battery, admin side: bad input that used to be a 500 is a
400 with a stable code, and fields next to a confirmation token are never ignored."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.admin.test_assistant import _people
from tests.assistant.conftest import Harness, open_harness
from tests.assistant.scripted import model_server

pytestmark = pytest.mark.anyio
ADMIN = "/api/v1/admin"


@pytest.fixture
async def rest(
    tmp_path: Path, docs_root: Path, database_url: str
) -> AsyncIterator[tuple[Harness, dict[str, Any]]]:
    with model_server() as model:
        async with open_harness(tmp_path / "data", database_url, docs_root, model) as harness:
            people = _people(harness)
            yield harness, people
            await people["api"].runs.wait()


async def _propose(
    harness: Harness, headers: dict[str, str], body: dict[str, Any], operation: str = "write-page"
) -> Any:
    raw = json.dumps(body)  # ASCII escapes: a lone surrogate travels as \\ud83d
    headers = {**headers, "content-type": "application/json"}
    return await harness.client.post(f"{ADMIN}/proposals/{operation}", content=raw, headers=headers)


async def test_overlong_page_file_name_at_apply_is_400(rest: Any) -> None:
    harness, people = rest
    _, headers = people["owner"]
    body = {"siteId": "alpha", "path": "guide/" + "n" * 260 + ".md", "content": "# Long\n"}
    proposed = await _propose(harness, headers, body)
    applied = await harness.client.post(
        f"{ADMIN}/apply/write-page", json={**body, "confirmationToken": "x"}, headers=headers
    )
    for response in (proposed, applied):
        assert (response.status_code, response.json()["error"]["code"]) == (400, "invalid_path")


async def test_unknown_fields_next_to_a_confirmation_token_are_refused(rest: Any) -> None:
    harness, people = rest
    _, headers = people["owner"]
    body = {"siteId": "alpha", "path": "guide/x.md", "content": "# X\n"}
    token = (await _propose(harness, headers, body)).json()["confirmationToken"]
    applied = await harness.client.post(
        f"{ADMIN}/apply/write-page",
        json={**body, "confirmationToken": token, "public": False},
        headers=headers,
    )
    assert (applied.status_code, applied.json()["error"]["code"]) == (400, "invalid_argument")
    assert not (people["api"].env.sites_dir / "alpha" / "guide" / "x.md").exists()


@pytest.mark.parametrize("bad", ["\x00", "\ud83d"])
async def test_nul_or_lone_surrogate_in_page_or_site_text_is_400(rest: Any, bad: str) -> None:
    harness, people = rest
    _, headers = people["owner"]
    page = await _propose(
        harness, headers, {"siteId": "alpha", "path": "guide/x.md", "content": f"# X{bad}\n"}
    )
    site = await _propose(harness, headers, {"siteId": "alpha", "name": f"A{bad}"}, "update-site")
    for response in (page, site):  # the typed model or the text check refuses it first
        assert response.status_code == 400
        assert response.json()["error"]["code"] in ("invalid_text", "invalid_argument")
