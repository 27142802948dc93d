"""The typed arguments of every admin operation: one pydantic model each.

The operation table (``admin.table``) names each operation's model; from it come the
assistant tool's JSON schema (``wire.json_schema``), the REST request body, the MCP tool's input
schema, what ``GET /api/v1/admin/schemas`` lists and, dumped canonically
(``canonical_arguments``), the arguments a confirmation token binds. Wire names are
camelCase; unknown fields are refused (``invalid_argument``, 400). Values are checked
strictly (``"yes"`` is not a boolean); finer rules (site ids, hostnames, paths) live with
each operation and answer with their own codes. A field left out and a field given as
``null`` differ only in what a token binds (``model_fields_set``); both leave a value as it is.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.guard.validation import is_clean_text
from askdocs.wire import JsonDict

ORG_HELP = "Organisation id; only needed if you belong to several."
SITE_HELP = "The site's id."
A = TypeVar("A", bound="Args")


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
    audience: Literal["user", "developer"] = Field(
        "user", description="Who the pages are for: user or developer."
    )


class SiteFields(Args):
    name: str | None = Field(None, max_length=200, description="The site's name.")
    roots: list[Root] | None = Field(
        None, max_length=8, description="Folders of the site's pages (1 to 8)."
    )
    hostnames: list[str] | None = Field(
        None, max_length=50, description="Hostnames the site answers on."
    )
    public: bool | None = Field(None, description="Whether anyone may read the site.")
    ask_enabled: bool | None = Field(None, description="Whether Ask AI answers on this site.")
    ask_daily_limit: int | None = Field(
        None, ge=0, description="Ask AI questions per day on this site (empty: no limit)."
    )
    default_locale: str | None = Field(
        None, max_length=35, description="The site's language, e.g. en or pt-BR."
    )


class CreateSite(SiteFields, OrgScoped):
    id: str = Field(max_length=63, description="The new site's id.")
    name: str = Field(max_length=200, description="The site's name.")


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
    user_id: str = Field(max_length=64, description="The member's user id.")
    tools: list[str] = Field(max_length=100, description="Every tool the member may use.")


ProviderKind = Literal["openai-compatible", "anthropic", "gemini"]
Capability = Literal["chat", "embedding"]


class ProviderFields(Args):
    name: str | None = Field(None, max_length=200, description="The provider's name.")
    capability: Capability | None = Field(None, description="What it is used for.")
    kind: ProviderKind | None = Field(None, description="Which API it speaks.")
    base_url: str | None = Field(
        None, max_length=500, description="Endpoint URL; empty for the vendor's default."
    )
    model: str | None = Field(None, max_length=200, description="The model's name.")
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
    name: str = Field(max_length=200, description="The provider's name.")
    capability: Capability = Field(description="What it is used for.")
    kind: ProviderKind = Field(description="Which API it speaks.")
    model: str = Field(max_length=200, description="The model's name.")


class ProviderRef(Args):
    provider_id: str = Field(max_length=64, description="The provider's id.")


class UpdateInferenceProvider(ProviderFields, ProviderRef):
    pass


class DeleteInferenceProvider(ProviderRef):
    pass


class ListIndexRuns(OrgScoped):
    site_id: str | None = Field(None, max_length=63, description=SITE_HELP)
    limit: int | None = Field(None, ge=1, le=50, description="How many runs (1-50, default 20).")


class NoArgs(Args):
    pass


def bad(field: str, why: str) -> InvalidInput:
    return InvalidInput(f"{field}: {why}", code=ErrorCode.INVALID_ARGUMENT)


def clean(field: str, value: str) -> str:
    """No NUL (PostgreSQL cannot store it) and no unpaired surrogate (not encodable)."""
    if not is_clean_text(value):
        raise InvalidInput(
            f"{field}: holds a NUL or an unpaired surrogate", code=ErrorCode.INVALID_TEXT
        )
    return value


def text(field: str, value: str) -> str:
    """A non-empty line of text, stripped."""
    if not value.strip():
        raise bad(field, "must be a non-empty string")
    return clean(field, value).strip()


def parse(model: type[A], raw: object) -> A:
    """Validate ``raw`` against ``model``; every failure is ``invalid_argument``."""
    if not isinstance(raw, dict):
        raise InvalidInput("arguments: must be a JSON object", code=ErrorCode.INVALID_ARGUMENT)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise invalid(exc) from None


def invalid(exc: ValidationError, skip: int = 0) -> InvalidInput:
    """``invalid_argument`` naming the first problem (``skip`` drops leading ``loc`` parts:
    FastAPI's ``body``)."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"][skip:]) or "arguments"
    if first["type"] == "extra_forbidden":
        return bad(where, "unknown field")
    return bad(where, first["msg"])


def org_hint(args: Args) -> str | None:
    return args.organisation_id if isinstance(args, OrgScoped) else None


def as_args(model: Args) -> JsonDict:
    """The arguments as given (absent fields stay absent: "unchanged" differs from null)."""
    given: JsonDict = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return given


def canonical_arguments(model: Args) -> JsonDict:
    """What a token binds of the arguments: all given fields except the organisation hint
    (the payload binds the resolved organisation instead)."""
    return {k: v for k, v in as_args(model).items() if k != "organisationId"}
