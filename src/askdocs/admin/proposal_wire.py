"""Stored proposals on the wire (camelCase): the owner's view, and the request bodies."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, JsonValue
from pydantic.alias_generators import to_camel

from askdocs.admin.proposals import ProposalState, StoredProposal


class _Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class ProposalOut(_Wire):
    """A proposal as its own user sees it; ``token`` only while it is pending."""

    id: str
    operation: str
    summary: str
    diff: str | None = None
    arguments: dict[str, JsonValue]
    state: ProposalState
    thread_id: str | None = None
    source: str
    created_at: datetime
    expires_at: datetime
    token: str | None = None
    apply_url: str
    result: dict[str, JsonValue] | None = None

    @classmethod
    def of(cls, stored: StoredProposal) -> ProposalOut:
        return cls(
            id=stored.id,
            operation=stored.operation,
            summary=stored.summary,
            diff=stored.diff,
            arguments=stored.arguments,
            state=stored.state,
            thread_id=stored.thread_id,
            source=stored.source,
            created_at=stored.created_at,
            expires_at=stored.expires_at,
            token=stored.token if stored.pending else None,
            apply_url=page_url(stored.id),
            result=stored.result,
        )


class ProposalCreateIn(_Wire):
    operation: str = Field(max_length=64)
    arguments: dict[str, JsonValue] = Field(default_factory=dict)


class ProposalApplyIn(_Wire):
    confirmation_token: str = Field(min_length=1, max_length=128)


def page_url(proposal_id: str) -> str:
    """The web page where its user reviews and applies a proposal."""
    return f"/proposals/{proposal_id}"
