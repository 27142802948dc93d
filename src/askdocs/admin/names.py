"""Every admin tool name (the grantable set) and the operation each Propose/Apply pair signs.

Tool names follow the registry's snake_case; the operation is what the confirmation MAC
binds, shared by a pair's two halves and by the REST endpoints.
"""

from __future__ import annotations

from typing import Literal

Authority = Literal["platform", "organisation"]

# operation -> authority (the Propose/Apply pairs)
OPERATIONS: dict[str, Authority] = {
    "CreateSite": "organisation",
    "UpdateSite": "organisation",
    "DeleteSite": "organisation",
    "WritePage": "organisation",
    "DeletePage": "organisation",
    "AssignToolGrants": "organisation",
    "CreateInferenceProvider": "platform",
    "UpdateInferenceProvider": "platform",
    "DeleteInferenceProvider": "platform",
}

# read-only and single-step tools -> authority
SINGLE_TOOLS: dict[str, Authority] = {
    "list_sites": "organisation",
    "get_site": "organisation",
    "list_pages": "organisation",
    "read_page": "organisation",
    "list_index_runs": "organisation",
    "list_tool_grants": "organisation",
    "reindex_site": "organisation",
    "list_inference_providers": "platform",
    "test_inference_provider": "platform",
}


def snake(operation: str) -> str:
    out = "".join("_" + c.lower() if c.isupper() else c for c in operation)
    return out.lstrip("_")


def propose_name(operation: str) -> str:
    return "propose_" + snake(operation)


def apply_name(operation: str) -> str:
    return "apply_" + snake(operation)


def grantable_tools() -> tuple[str, ...]:
    """Every admin tool name; the first platform administrator's full grant."""
    names = list(SINGLE_TOOLS)
    for operation in OPERATIONS:
        names += [propose_name(operation), apply_name(operation)]
    return tuple(sorted(names))


def authority_of(tool: str) -> Authority:
    if tool in SINGLE_TOOLS:
        return SINGLE_TOOLS[tool]
    for operation, authority in OPERATIONS.items():
        if tool in (propose_name(operation), apply_name(operation)):
            return authority
    raise KeyError(tool)
