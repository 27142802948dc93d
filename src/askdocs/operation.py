"""``Operation``: one row of the operation table, the one description every surface is
generated from (pure).

A row names the operation, who may run it (``authority``), its argument model, its result
model, a human label and description, and (in the table that holds it) the typed function
that runs it. From the rows come the REST routes (the argument model as the request body,
the result as the response model), the assistant's tools, the MCP tools, the
``/api/v1/admin/schemas`` entries and the admin UI's forms, so the JSON schema a model, a
script and a person's form see is one schema (``schema``).

A proposal ``CreateSite`` is offered as the tools (and grants) ``propose_create_site`` and
``apply_create_site`` and the REST slug ``create-site``; a read or an action ``list_sites``
is its own tool name, with the slug ``list-sites``. The confirmation MAC binds the
operation's own name.

Two tables hold rows: ``admin.table`` (sites, pages, grants, providers, index runs) and
``mcp.operations`` (search, article, catalog, ask; their bounds read from ``Settings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel

from askdocs.wire import JsonDict, json_schema

A = TypeVar("A", bound=BaseModel)
R = TypeVar("R", bound=BaseModel)
Authority = Literal["platform", "organisation", "reader"]
Kind = Literal["proposal", "read", "action"]


def snake(operation: str) -> str:
    out = "".join("_" + c.lower() if c.isupper() else c for c in operation)
    return out.lstrip("_")


def propose_name(operation: str) -> str:
    """``CreateSite`` -> ``propose_create_site``: the tool (and grant) that proposes it."""
    return "propose_" + snake(operation)


def apply_name(operation: str) -> str:
    return "apply_" + snake(operation)


def slug(operation: str) -> str:
    """``WritePage`` -> ``write-page``; ``list_sites`` -> ``list-sites``: the REST name."""
    return snake(operation).replace("_", "-")


@dataclass(frozen=True)
class Route:
    """A convenience REST route of a read or an action besides its generated ``POST``:
    ``{name}`` segments of ``path`` are the argument fields of that (wire) name, the other
    fields are query parameters."""

    method: Literal["GET", "POST"]
    path: str
    status: int = 200


@dataclass(frozen=True, kw_only=True)
class Operation(Generic[A, R]):
    name: str  # ``CreateSite`` (a proposal: a Propose/Apply pair) or ``list_sites``
    authority: Authority
    args: type[A]
    result: type[R]
    label: str  # "Create a site": what a person reads on a button or a grant
    description: str  # one sentence: what it does
    route: Route | None = None
    kind: ClassVar[Kind] = "read"

    @property
    def slug(self) -> str:
        return slug(self.name)

    @property
    def tools(self) -> tuple[str, ...]:
        """The tool names (and grants) of the operation."""
        if self.kind == "proposal":
            return (propose_name(self.name), apply_name(self.name))
        return (self.name,)

    def schema(self) -> JsonDict:
        """The arguments' JSON schema, as every surface publishes it."""
        return json_schema(self.args)

    def entry(self) -> JsonDict:
        """One entry of ``GET /api/v1/admin/schemas``."""
        return {
            "operation": self.name,
            "kind": self.kind,
            "authority": self.authority,
            "label": self.label,
            "description": self.description,
            "tools": list(self.tools),
            "schema": self.schema(),
        }
