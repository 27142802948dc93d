"""The typed arguments of every admin operation and tool: one pydantic model each.

Each model is, at once, the assistant tool's JSON schema (``tool_schema``), the REST
request body documented in ``/openapi.json``, what ``GET /api/v1/admin/schemas`` lists, and,
dumped canonically (``canonical_arguments``), the arguments a confirmation token binds.
Wire names are camelCase; unknown fields are refused (``invalid_argument``, 400). Values are
checked strictly (``"yes"`` is not a boolean); finer rules (site ids, hostnames, paths)
live with each operation and answer with their own codes.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from askdocs.admin.names import OPERATIONS, SINGLE_TOOLS, Authority
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput

JsonObject = dict[str, Any]
ORG_HELP = "Organisation id; only needed if you belong to several."
SITE_HELP = "The site's id."


class Args(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, alias_generator=to_camel, validate_by_name=False
    )


class OrgScoped(Args):
    organisation_id: str | None = Field(None, min_length=1, max_length=64, description=ORG_HELP)


class SiteRef(OrgScoped):
    site_id: str = Field(max_length=63, description=SITE_HELP)


class Root(Args):
    path: str = Field("", max_length=300, description="Folder inside the site; '' = the site.")
    audience: Literal["user", "developer"] = "user"


class SiteFields(Args):
    name: str | None = Field(None, max_length=200)
    roots: list[Root] | None = Field(None, max_length=8)
    hostnames: list[str] | None = Field(None, max_length=50)
    public: bool | None = None
    ask_enabled: bool | None = Field(None, description="Whether Ask AI answers on this site.")
    ask_daily_limit: int | None = Field(None, ge=0)
    default_locale: str | None = Field(None, max_length=35)


class CreateSite(SiteFields, OrgScoped):
    id: str = Field(max_length=63, description="The new site's id.")
    name: str = Field(max_length=200)


class UpdateSite(SiteFields, SiteRef):
    pass


class DeleteSite(SiteRef):
    pass


class PageRef(SiteRef):
    path: str = Field(max_length=300, description="e.g. guide/install.md")


class WritePage(PageRef):
    content: str = Field(description="The page's complete Markdown.")


class DeletePage(PageRef):
    pass


class AssignToolGrants(OrgScoped):
    user_id: str = Field(max_length=64)
    tools: list[str] = Field(max_length=100)


class ProviderFields(Args):
    name: str | None = Field(None, max_length=200)
    capability: Literal["chat", "embedding"] | None = None
    kind: Literal["openai-compatible", "anthropic", "gemini"] | None = None
    base_url: str | None = Field(None, max_length=500)
    model: str | None = Field(None, max_length=200)
    api_key: str | None = Field(
        None,
        max_length=4096,
        description="New API key; empty string clears the stored key; null keeps it.",
    )
    active: bool | None = Field(
        None,
        description=(
            "Use this provider for its capability from now on (the one in use before stops); "
            "false stops using it (the configured provider takes over); null leaves it."
        ),
    )


class CreateInferenceProvider(ProviderFields):
    name: str = Field(max_length=200)
    capability: Literal["chat", "embedding"]
    kind: Literal["openai-compatible", "anthropic", "gemini"]
    model: str = Field(max_length=200)


class ProviderRef(Args):
    provider_id: str = Field(max_length=64)


class UpdateInferenceProvider(ProviderFields, ProviderRef):
    pass


class DeleteInferenceProvider(ProviderRef):
    pass


class ListIndexRuns(OrgScoped):
    site_id: str | None = Field(None, max_length=63, description=SITE_HELP)
    limit: int | None = Field(None, ge=1, le=50)


class NoArgs(Args):
    pass


# operation (Propose/Apply pair) -> (its arguments, what it does)
OPERATION_MODELS: dict[str, tuple[type[Args], str]] = {
    "CreateSite": (CreateSite, "create a documentation site in your organisation"),
    "UpdateSite": (
        UpdateSite,
        "change a site's settings (omitted or null fields stay as they are)",
    ),
    "DeleteSite": (DeleteSite, "delete a site"),
    "WritePage": (
        WritePage,
        "create or replace one Markdown page of a site with the full new text",
    ),
    "DeletePage": (DeletePage, "delete one page of a site"),
    "AssignToolGrants": (
        AssignToolGrants,
        "set which assistant tools a member of your organisation may use",
    ),
    "CreateInferenceProvider": (
        CreateInferenceProvider,
        "add a platform inference provider (chat or embedding)",
    ),
    "UpdateInferenceProvider": (UpdateInferenceProvider, "change a platform inference provider"),
    "DeleteInferenceProvider": (DeleteInferenceProvider, "delete a platform inference provider"),
}

# single-step tool -> (its arguments, its description)
TOOL_MODELS: dict[str, tuple[type[Args], str]] = {
    "list_sites": (OrgScoped, "List your organisation's sites (admins)."),
    "get_site": (SiteRef, "Show one site's settings and its latest indexing run (admins)."),
    "list_pages": (SiteRef, "List the Markdown pages of a site (admins)."),
    "read_page": (PageRef, "Read one page's Markdown and its draft flag (admins)."),
    "list_index_runs": (
        ListIndexRuns,
        "List recent indexing runs and their status, for one site or all (admins).",
    ),
    "list_tool_grants": (
        OrgScoped,
        "List your organisation's members and the assistant tools each may use (admins).",
    ),
    "reindex_site": (
        SiteRef,
        "Re-index a site now, in the background; at most a few runs per hour (admins).",
    ),
    "list_inference_providers": (
        NoArgs,
        "List the platform's inference providers; keys show only as hasApiKey and the last "
        "four characters (platform admins).",
    ),
    "test_inference_provider": (
        ProviderRef,
        "Send one small test request to a platform inference provider and record the result "
        "(platform admins).",
    ),
}
assert set(OPERATION_MODELS) == set(OPERATIONS)
assert set(TOOL_MODELS) == set(SINGLE_TOOLS)


def model_of(name: str) -> type[Args]:
    """The arguments model of an operation (``CreateSite``) or a single tool (``get_site``)."""
    found = OPERATION_MODELS.get(name) or TOOL_MODELS.get(name)
    if found is None:
        raise KeyError(name)
    return found[0]


def authority(name: str) -> Authority:
    return OPERATIONS[name] if name in OPERATIONS else SINGLE_TOOLS[name]


def parse(name: str, raw: object) -> Args:
    """Validate ``raw`` against ``name``'s model; every failure is ``invalid_argument``."""
    if not isinstance(raw, dict):
        raise InvalidInput("arguments: must be a JSON object", code=ErrorCode.INVALID_ARGUMENT)
    try:
        return model_of(name).model_validate(raw)
    except ValidationError as exc:
        raise InvalidInput(_first_error(exc), code=ErrorCode.INVALID_ARGUMENT) from None


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "arguments"
    if first["type"] == "extra_forbidden":
        return f"{where}: unknown field"
    return f"{where}: {first['msg']}"


def as_args(model: Args) -> JsonObject:
    """The arguments as given (absent fields stay absent: "unchanged" differs from null)."""
    return model.model_dump(mode="json", by_alias=True, exclude_unset=True)


def canonical_arguments(model: Args) -> JsonObject:
    """What a token binds of the arguments: all given fields except the organisation hint
    (the payload binds the resolved organisation instead)."""
    return {k: v for k, v in as_args(model).items() if k != "organisationId"}


def json_schema(model: type[Args]) -> JsonObject:
    """The model's JSON schema, self-contained (no ``$ref``) and without titles."""
    schema = model.model_json_schema(by_alias=True)
    defs = schema.pop("$defs", {})
    simplified: JsonObject = _simplify(schema, defs)
    return simplified


def _simplify(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_simplify(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _simplify(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    out = {k: _simplify(v, defs) for k, v in node.items() if k != "title"}
    options = out.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options and len(options) == 2:
        other = next(o for o in options if o != {"type": "null"})
        if isinstance(other.get("type"), str):
            del out["anyOf"]
            out.update({**other, "type": [other["type"], "null"]})
    if out.get("default", ...) is None:
        del out["default"]
    return out


def schema_entry(name: str) -> JsonObject:
    """One entry of ``GET /api/v1/admin/schemas``."""
    pair = name in OPERATION_MODELS
    model, description = OPERATION_MODELS[name] if pair else TOOL_MODELS[name]
    return {
        "operation": name,
        "kind": "proposal" if pair else "tool",
        "authority": authority(name),
        "description": description,
        "schema": json_schema(model),
    }
