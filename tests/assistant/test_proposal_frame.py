"""The ``data-proposal`` frame (pure): a transient data part whose id is the proposal's, and
the split of a propose result into the model's view (no token) and the client's."""

from __future__ import annotations

import json

from askdocs.assistant import stream
from askdocs.assistant.admin_tools.tools import WAITING, split_proposal

RESULT = {
    "proposal": {
        "operation": "DeleteSite",
        "summary": "Delete the site “Alpha”.",
        "organisationId": "o1",
    },
    "confirmationToken": "ab" * 32,
    "next": "POST it to /api/v1/admin/apply/delete-site",
}


def test_the_model_reads_the_proposal_but_never_the_token() -> None:
    outcome = split_proposal({"siteId": "alpha", "confirmationToken": "forged"}, RESULT)
    seen = json.dumps(outcome.data)
    assert "ab" * 32 not in seen
    assert "confirmationToken" not in seen
    assert "forged" not in seen
    assert outcome.data["next"] == WAITING
    shown = outcome.data["proposal"]
    assert shown == {"id": shown["id"], **RESULT["proposal"]}
    assert len(shown["id"]) == 32
    assert outcome.proposal == {
        **shown,
        "arguments": {"siteId": "alpha", "organisationId": "o1"},
        "token": "ab" * 32,
    }


def test_each_proposal_gets_its_own_id() -> None:
    first = split_proposal({"siteId": "alpha"}, RESULT).data["proposal"]["id"]
    second = split_proposal({"siteId": "alpha"}, RESULT).data["proposal"]["id"]
    assert first != second


def test_the_frame_is_a_transient_data_part_with_the_proposal_id() -> None:
    client = split_proposal({"siteId": "alpha"}, RESULT).proposal
    assert client is not None
    raw = stream.proposal(client)
    assert raw.startswith(b"data: ")
    assert raw.endswith(b"\n\n")
    frame = json.loads(raw[len(b"data: ") :])
    assert frame == {"type": "data-proposal", "id": client["id"], "data": client, "transient": True}
