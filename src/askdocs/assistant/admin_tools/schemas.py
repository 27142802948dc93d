"""JSON schemas and descriptions of the admin tools (pure data)."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

ORG = {"type": "string", "description": "Organisation id; only needed if you belong to several."}
SITE_ID = {"type": "string", "description": "The site's id."}
ROOTS = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Folder inside the site; '' = the site."},
            "audience": {"type": "string", "enum": ["user", "developer"]},
        },
        "required": ["path"],
    },
}
SITE_FIELDS: Schema = {
    "name": {"type": "string"},
    "roots": ROOTS,
    "hostnames": {"type": "array", "items": {"type": "string"}},
    "public": {"type": "boolean"},
    "askEnabled": {"type": "boolean", "description": "Whether Ask AI answers on this site."},
    "askDailyLimit": {"type": ["integer", "null"]},
    "defaultLocale": {"type": "string"},
}
PROVIDER_FIELDS: Schema = {
    "name": {"type": "string"},
    "capability": {"type": "string", "enum": ["chat", "embedding"]},
    "kind": {"type": "string", "enum": ["openai-compatible", "anthropic", "gemini"]},
    "baseUrl": {"type": ["string", "null"]},
    "model": {"type": "string"},
    "apiKey": {
        "type": ["string", "null"],
        "description": "New API key; empty string clears the stored key; null keeps it.",
    },
}


def obj(properties: Schema, required: tuple[str, ...] = ()) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


# operation -> (what it does, its argument properties, required arguments)
OPERATION_ARGS: dict[str, tuple[str, Schema, tuple[str, ...]]] = {
    "CreateSite": (
        "create a documentation site in your organisation",
        {"organisationId": ORG, "id": SITE_ID, **SITE_FIELDS},
        ("id", "name"),
    ),
    "UpdateSite": (
        "change a site's settings (omitted or null fields stay as they are)",
        {"organisationId": ORG, "siteId": SITE_ID, **SITE_FIELDS},
        ("siteId",),
    ),
    "DeleteSite": ("delete a site", {"organisationId": ORG, "siteId": SITE_ID}, ("siteId",)),
    "WritePage": (
        "create or replace one Markdown page of a site with the full new text",
        {
            "organisationId": ORG,
            "siteId": SITE_ID,
            "path": {"type": "string", "description": "e.g. guide/install.md"},
            "content": {"type": "string", "description": "The page's complete Markdown."},
        },
        ("siteId", "path", "content"),
    ),
    "DeletePage": (
        "delete one page of a site",
        {"organisationId": ORG, "siteId": SITE_ID, "path": {"type": "string"}},
        ("siteId", "path"),
    ),
    "AssignToolGrants": (
        "set which assistant tools a member of your organisation may use",
        {
            "organisationId": ORG,
            "userId": {"type": "string"},
            "tools": {"type": "array", "items": {"type": "string"}},
        },
        ("userId", "tools"),
    ),
    "CreateInferenceProvider": (
        "add a platform inference provider (chat or embedding)",
        PROVIDER_FIELDS,
        ("name", "capability", "kind", "model"),
    ),
    "UpdateInferenceProvider": (
        "change a platform inference provider",
        {"providerId": {"type": "string"}, **PROVIDER_FIELDS},
        ("providerId",),
    ),
    "DeleteInferenceProvider": (
        "delete a platform inference provider",
        {"providerId": {"type": "string"}},
        ("providerId",),
    ),
}

# tool -> (description, argument properties, required arguments)
SINGLE_ARGS: dict[str, tuple[str, Schema, tuple[str, ...]]] = {
    "list_sites": ("List your organisation's sites (admins).", {"organisationId": ORG}, ()),
    "get_site": (
        "Show one site's settings and its latest indexing run (admins).",
        {"organisationId": ORG, "siteId": SITE_ID},
        ("siteId",),
    ),
    "list_pages": (
        "List the Markdown pages of a site (admins).",
        {"organisationId": ORG, "siteId": SITE_ID},
        ("siteId",),
    ),
    "read_page": (
        "Read one page's Markdown and its draft flag (admins).",
        {"organisationId": ORG, "siteId": SITE_ID, "path": {"type": "string"}},
        ("siteId", "path"),
    ),
    "list_index_runs": (
        "List recent indexing runs and their status, for one site or all (admins).",
        {
            "organisationId": ORG,
            "siteId": SITE_ID,
            "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        },
        (),
    ),
    "list_tool_grants": (
        "List your organisation's members and the assistant tools each may use (admins).",
        {"organisationId": ORG},
        (),
    ),
    "reindex_site": (
        "Re-index a site now, in the background; at most a few runs per hour (admins).",
        {"organisationId": ORG, "siteId": SITE_ID},
        ("siteId",),
    ),
    "list_inference_providers": (
        "List the platform's inference providers; keys show only as hasApiKey and the last "
        "four characters (platform admins).",
        {},
        (),
    ),
    "test_inference_provider": (
        "Send one small test request to a platform inference provider and record the result "
        "(platform admins).",
        {"providerId": {"type": "string"}},
        ("providerId",),
    ),
}
