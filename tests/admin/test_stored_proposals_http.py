"""Stored proposals over HTTP: a proposal the assistant made is listed with its thread after a
reload and applied from there once; ``POST /api/v1/proposals`` (what the MCP server calls
for a client that cannot ask the person) answers a page to apply it on; another user gets
404; bad input gets a documented code."""

from __future__ import annotations

from typing import Any

import pytest

from tests.admin.agent import calls
from tests.admin.test_assistant import CHAT, PAGE, THREADS, proposals, setup
from tests.assistant.frames import parse_frames
from tests.assistant.scripted import Script

__all__ = ["setup"]
PROPOSALS = "/api/v1/proposals"


async def _propose_in_a_thread(harness: Any, model: Any, headers: dict[str, str]) -> str:
    model.react(
        lambda body: calls(("propose_write_page", PAGE)),
        lambda body: Script(["It waits for you: press Apply."]),
    )
    thread = (await harness.client.post(THREADS, json={}, headers=headers)).json()["id"]
    body = {"threadId": thread, "message": "Switch the install page to pipx."}
    response = await harness.client.post(CHAT, json=body, headers=headers)
    await harness.wait_idle(thread)
    assert len(proposals(parse_frames(response.text))) == 1
    return str(thread)


def _install(people: dict[str, Any]) -> str:
    return (people["api"].env.sites_dir / "alpha" / "install.md").read_text()


@pytest.mark.anyio
async def test_a_reloaded_thread_applies_its_proposal_once(setup: Any) -> None:
    harness, model, people = setup
    _owner, headers = people["owner"]
    thread = await _propose_in_a_thread(harness, model, headers)
    # the reload: the thread comes back with its pending proposal and the token
    detail = (await harness.client.get(f"{THREADS}/{thread}", headers=headers)).json()
    [pending] = detail["proposals"]
    assert pending["state"] == "pending"
    assert pending["operation"] == "WritePage"
    assert pending["applyUrl"] == f"/proposals/{pending['id']}"
    assert "+Run `pipx install askdocs`." in pending["diff"]
    url = f"{PROPOSALS}/{pending['id']}/apply"
    applied = await harness.client.post(
        url, json={"confirmationToken": pending["token"]}, headers=headers
    )
    assert applied.status_code == 200, applied.text
    assert applied.json()["applied"] == "WritePage"
    assert _install(people) == PAGE["content"]
    again = await harness.client.post(
        url, json={"confirmationToken": pending["token"]}, headers=headers
    )
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "proposal_settled"
    after = (await harness.client.get(f"{THREADS}/{thread}", headers=headers)).json()
    assert after["proposals"][0]["state"] == "applied"
    assert "token" not in after["proposals"][0]


@pytest.mark.anyio
async def test_another_users_proposal_answers_404(setup: Any) -> None:
    harness, model, people = setup
    _owner, headers = people["owner"]
    _member, member_headers = people["member"]
    thread = await _propose_in_a_thread(harness, model, headers)
    detail = (await harness.client.get(f"{THREADS}/{thread}", headers=headers)).json()
    pending = detail["proposals"][0]
    base = f"{PROPOSALS}/{pending['id']}"
    token = {"confirmationToken": pending["token"]}
    for method, path, body in (
        ("GET", base, None),
        ("POST", f"{base}/apply", token),
        ("POST", f"{base}/discard", None),
        ("GET", f"{PROPOSALS}/{'x' * 100}", None),
    ):
        response = await harness.client.request(method, path, json=body, headers=member_headers)
        assert response.status_code == 404, (path, response.text)
        assert response.json()["error"]["code"] == "proposal_not_found"
    anonymous = await harness.client.get(base)
    assert anonymous.status_code == 401
    assert "pipx" not in _install(people)


@pytest.mark.anyio
async def test_a_proposal_stored_over_the_api_gets_a_page_to_apply_it(setup: Any) -> None:
    harness, _model, people = setup
    _owner, headers = people["owner"]
    body = {"operation": "write-page", "arguments": PAGE}
    created = await harness.client.post(PROPOSALS, json=body, headers=headers)
    assert created.status_code == 201, created.text
    made = created.json()
    assert "token" not in made
    assert made["source"] == "api"
    assert made["applyUrl"] == f"/proposals/{made['id']}"
    page = await harness.client.get(made["applyUrl"])
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    shown = (await harness.client.get(f"{PROPOSALS}/{made['id']}", headers=headers)).json()
    discarded = await harness.client.post(f"{PROPOSALS}/{made['id']}/discard", headers=headers)
    assert discarded.json()["state"] == "discarded"
    refused = await harness.client.post(
        f"{PROPOSALS}/{made['id']}/apply",
        json={"confirmationToken": shown["token"]},
        headers=headers,
    )
    assert refused.status_code == 409
    assert "pipx" not in _install(people)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        (PROPOSALS, {"operation": "drop-tables", "arguments": {}}, 404, "unknown_operation"),
        (PROPOSALS, {"operation": "write-page", "arguments": {"siteId": 3}}, 400, None),
        (PROPOSALS, {"operation": "write-page", "extra": 1}, 400, "invalid_request"),
        (PROPOSALS, [1, 2], 400, "invalid_request"),
        (f"{PROPOSALS}/abc/apply", {}, 400, "invalid_request"),
        (f"{PROPOSALS}/abc/apply", {"confirmationToken": "x" * 500}, 400, "invalid_request"),
        (f"{PROPOSALS}/abc/apply", {"confirmationToken": "x"}, 404, "proposal_not_found"),
    ],
)
async def test_bad_input_has_a_documented_code(
    setup: Any, path: str, body: object, status: int, code: str | None
) -> None:
    harness, _model, people = setup
    _owner, headers = people["owner"]
    response = await harness.client.post(path, json=body, headers=headers)
    assert response.status_code == status, response.text
    if code is not None:
        assert response.json()["error"]["code"] == code
