"""``list_operation_schemas`` (server mode): askdocs's analogue of seed 002's
``ListStepSchemas``. Seed 002's tool returns the JSON Schema of every workflow step's
config from the Inference API; this one returns, from ``GET /api/v1/admin/schemas`` (the
same data, generated from the operations' models), the JSON Schema of every admin
operation's arguments, its kind, who may run it and what it does: what each ``propose_*``
tool and each REST route accepts. Read-only, listed to every caller; the API checks the
caller's token like any other request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import BaseModel, Field

from askdocs.mcp import routes
from askdocs.mcp.backend import Call

if TYPE_CHECKING:
    from askdocs.mcp.remote import RemoteBackend
    from askdocs.mcp.server import Tools

NAME = "list_operation_schemas"
OperationArg = Annotated[
    str | None,
    Field(
        max_length=64,
        pattern=r"^[A-Za-z][A-Za-z_-]*$",
        description="One operation, by name (CreateSite, list_sites) or slug (create-site). "
        "Omit for all of them.",
    ),
]


class OperationSchema(BaseModel):
    operation: str = Field(description="The operation's name, e.g. CreateSite or list_sites.")
    kind: str = Field(description="proposal (a propose/apply pair) or tool (one step).")
    authority: str = Field(description="Who may run it: platform or organisation authority.")
    description: str = Field(description="What it does.")
    arguments: dict[str, Any] = Field(description="The JSON Schema of its arguments.")


class SchemasOutput(BaseModel):
    operations: list[OperationSchema]


def _entry(data: Any) -> OperationSchema:
    return OperationSchema(
        operation=str(data["operation"]),
        kind=str(data["kind"]),
        authority=str(data["authority"]),
        description=str(data["description"]),
        arguments=dict(data["schema"]),
    )


class SchemaTool:
    def __init__(self, remote: RemoteBackend, tools: Tools) -> None:
        self.remote = remote
        self.tools = tools

    async def fetch(self, call: Call, operation: str | None) -> SchemasOutput:
        if operation is None:
            data = await self.remote.call_api(call, "GET", routes.SCHEMAS)
        else:
            ids = {"schemaId": operation}
            data = await self.remote.call_api(call, "GET", routes.SCHEMA, ids=ids)
        entries = data["operations"] if operation is None else [data]
        return SchemasOutput(operations=[_entry(entry) for entry in entries])

    async def list_operation_schemas(
        self, ctx: Context[Any, Any], operation: OperationArg = None
    ) -> SchemasOutput:
        """The JSON Schema of every admin operation's arguments (or of one), with its kind
        (a propose/apply pair or a single step), who may run it and what it does: what each
        propose_* tool and the REST API accept. Read-only."""
        return await self.tools.bounded(NAME, ctx, lambda call: self.fetch(call, operation))
