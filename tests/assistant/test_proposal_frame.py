"""The ``data-proposal`` frame (pure): a transient data part whose id is the stored
proposal's, and the split of a stored proposal into the model's view (no token, no
arguments) and the client's."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

from askdocs.admin.proposals import StoredProposal
from askdocs.assistant import stream
from askdocs.assistant.admin_tools.tools import WAITING, split_proposal

TOKEN = "ab" * 32
STORED = StoredProposal(
    id="5f0c1b2e-0000-4000-8000-000000000001",
    user_id="u1",
    thread_id="t1",
    source="assistant",
    operation="DeleteSite",
    arguments={"siteId": "alpha", "organisationId": "o1"},
    summary="Delete the site “Alpha”.",
    diff=None,
    token=TOKEN,
    state="pending",
    created_at=datetime(2026, 12, 1, 7, 0, tzinfo=UTC),
    expires_at=datetime(2026, 12, 2, 7, 0, tzinfo=UTC),
    result=None,
)


def test_the_model_reads_the_proposal_but_never_the_token() -> None:
    outcome = split_proposal(STORED)
    seen = json.dumps(outcome.data)
    assert TOKEN not in seen
    assert "confirmationToken" not in seen
    assert outcome.data["next"] == WAITING
    shown = outcome.data["proposal"]
    assert shown == {
        "id": STORED.id,
        "operation": "DeleteSite",
        "summary": STORED.summary,
        "organisationId": "o1",
    }
    assert outcome.proposal == {
        **shown,
        "arguments": {"siteId": "alpha", "organisationId": "o1"},
        "state": "pending",
        "expiresAt": "2026-12-02T07:00:00Z",
        "token": TOKEN,
    }


def test_a_settled_proposal_carries_no_token() -> None:
    client = split_proposal(replace(STORED, state="applied")).proposal
    assert client is not None
    assert client["token"] is None


def test_the_frame_is_a_transient_data_part_with_the_proposal_id() -> None:
    client = split_proposal(STORED).proposal
    assert client is not None
    raw = stream.proposal(client)
    assert raw.startswith(b"data: ")
    assert raw.endswith(b"\n\n")
    frame = json.loads(raw[len(b"data: ") :])
    assert frame == {"type": "data-proposal", "id": client["id"], "data": client, "transient": True}
