"""``GET /api/v1/admin/ask-report`` in-process: platform administrators only; the no-match
group's "draft a page" arguments go through the ordinary WritePage propose -> apply, which
applies once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from askdocs.answer.records import AskRecords, NewRecord
from askdocs.db.admin_models import SiteRow
from askdocs.users.service import UserService
from tests.admin.test_assistant import _people
from tests.assistant.conftest import Harness, open_harness
from tests.assistant.scripted import model_server

ADMIN = "/api/v1/admin"
GAP = ["Can I export the docs to PDF?", "how to export documentation as pdf", "PDF export"]


@pytest.fixture
async def rest(tmp_path: Path, docs_root: Path) -> AsyncIterator[tuple[Harness, dict[str, Any]]]:
    with model_server() as model:
        url = f"sqlite:///{tmp_path / 'r.db'}"
        async with open_harness(tmp_path / "data", url, docs_root, model) as harness:
            people = _people(harness)
            records = AskRecords(harness.runtime.db, harness.settings.ask)
            for n in range(9):
                question = GAP[n % 3]
                records.add(NewRecord("alpha", "v", question, "en", "no_match", False, []))
            yield harness, people
            await people["api"].runs.wait()


@pytest.mark.anyio
async def test_the_report_and_its_draft_page_proposal_applies_once(rest: Any) -> None:
    harness, people = rest
    _, root = people["root"]
    _, owner = people["owner"]
    refused = await harness.client.get(f"{ADMIN}/ask-report", headers=owner)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "admin_required")
    bad = await harness.client.get(f"{ADMIN}/ask-report?since=soon", headers=root)
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "invalid_since")
    report = (await harness.client.get(f"{ADMIN}/ask-report?since=1d", headers=root)).json()
    (gap,) = report["noMatchGroups"]
    assert gap["count"] == 9
    draft = gap["draft"]
    assert draft["siteId"] == "alpha"
    assert draft["path"].startswith("drafts/")
    assert not any(question in draft["content"] for question in GAP)  # summarised
    proposed = await harness.client.post(f"{ADMIN}/proposals/write-page", json=draft, headers=owner)
    assert proposed.status_code == 200, proposed.text
    token = proposed.json()["confirmationToken"]
    body = {**draft, "confirmationToken": token}
    applied = await harness.client.post(f"{ADMIN}/apply/write-page", json=body, headers=owner)
    again = await harness.client.post(f"{ADMIN}/apply/write-page", json=body, headers=owner)
    assert applied.status_code == 200, applied.text
    assert again.status_code != 200
    page = people["api"].env.sites_dir / "alpha" / draft["path"]
    assert page.read_text(encoding="utf-8") == draft["content"]


@pytest.mark.anyio
async def test_draft_a_page_for_an_admin_of_several_organisations(rest: Any) -> None:
    """Issue #27, defect 10: a platform administrator who is an administrator of two
    organisations drafts the page from the report of the organisation chosen in the admin
    page: stored (201), not ``400 organisation_required``; applied in that organisation."""
    harness, people = rest
    root, root_headers = people["root"]
    users = UserService(harness.runtime.db)
    with harness.runtime.db.session() as session:
        org_a = session.get(SiteRow, "alpha").organisation_id
    users.add_member(org_a, root.id, "admin")
    users.create_organisation("Org B", root.id)
    query = {"since": "1d", "organisationId": org_a}
    report = await harness.client.get(f"{ADMIN}/ask-report", params=query, headers=root_headers)
    (gap,) = report.json()["noMatchGroups"]
    draft = gap["draft"]
    assert (draft["siteId"], draft["organisationId"]) == ("alpha", org_a)
    stored = await harness.client.post(
        "/api/v1/proposals",
        json={"operation": "write-page", "arguments": draft},
        headers=root_headers,
    )
    assert stored.status_code == 201, stored.text
    other = {"since": "1d", "organisationId": "no-such-org"}
    elsewhere = await harness.client.get(f"{ADMIN}/ask-report", params=other, headers=root_headers)
    assert elsewhere.json()["noMatchGroups"][0]["draft"] is None  # no site of that one
