"""``/openapi.json`` with every operation's error answers declared.

FastAPI declares only the success answer and a 422 that askdocs never sends (validation is
``400 invalid_request``). Here each operation declares, instead, every error status it can
answer, with the common error body ``{"error": {"code", "message"}}`` and the codes behind
each status listed in its description. The codes come from the registry's parts
(``askdocs.error_codes.PARTS``): "parameters" and "body" by the operation's shape, the rest
by the route's dependencies (``DEPENDENCY_PARTS``; a dependency with a part is not walked
further, its part covers what it calls), plus the codes a route raises itself, named in
``openapi_extra={ERRORS_KEY: [...]}``. A route may also give its request body's schema
whole (``openapi_extra={BODY_KEY: schema}``: the admin operations' own schemas, the one
every surface publishes), which replaces the one FastAPI derived.

A parameter whose allowed values come from the settings (the reader's locales) is declared
with ``settings_values(name, required=...)``; the document lists the configured values as
its ``enum`` (and marks it required where the route requires it), so a request the
document allows is one the server accepts (issue #27, defect 11).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI, routing
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from askdocs.error_codes import BY_CODE, PARTS
from askdocs.server import deps, signin
from askdocs.server.schemas import ErrorBody
from askdocs.settings import Settings

ERROR_REF = "#/components/schemas/ErrorBody"
ERRORS_KEY = "x-askdocs-errors"  # a route's own codes (taken out of the published schema)
BODY_KEY = "x-askdocs-body"  # a route's request body schema, whole (taken out likewise)
VALUES_KEY = "x-askdocs-values"  # a parameter's values come from the settings (see below)
REQUIRED_KEY = "x-askdocs-required"
SETTING_VALUES: dict[str, Callable[[Settings], list[str]]] = {
    "locales": lambda settings: list(settings.corpus.locales),
}


def settings_values(name: str, *, required: bool) -> dict[str, Any]:
    """A parameter's ``json_schema_extra``: its values are the settings' ``name``."""
    return {VALUES_KEY: name, REQUIRED_KEY: required}


DEPENDENCY_PARTS: dict[Callable[..., Any], tuple[str, ...]] = {
    signin.get_caller: ("signed_in",),
    signin.get_signed_in: ("signed_in",),
    signin.get_maybe_caller: ("credentials",),
    signin.get_site_caller: ("credentials",),
    signin.get_accounts: ("accounts",),
    deps.get_catalog: ("site",),
    deps.get_host_site: ("site",),
    deps.get_engine: ("engine",),
    deps.get_chat: ("ask",),
    deps.get_limiter: ("limits",),
    deps.get_search_execution: ("search_execution",),
    deps.get_bot_check: ("bot_check",),
    deps.get_records: ("feedback",),
    deps.get_reader: ("reader",),
    deps.get_assistant: ("assistant",),
    deps.get_admin: ("admin",),
}


def install_openapi(http: FastAPI, settings: Settings) -> None:
    """Replace ``http.openapi`` with the generator below (built once, then cached)."""

    def openapi() -> dict[str, Any]:
        if http.openapi_schema is None:
            schema = with_error_responses(
                get_openapi(title=http.title, version=http.version, routes=http.routes),
                http.routes,
            )
            http.openapi_schema = with_setting_values(schema, settings)
        return http.openapi_schema

    http.openapi = openapi  # type: ignore[method-assign]


def with_error_responses(schema: dict[str, Any], routes: list[Any]) -> dict[str, Any]:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    error_schema = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    components.update(error_schema.pop("$defs", {}))
    components["ErrorBody"] = error_schema
    for context in routing.iter_route_contexts(routes):  # included routers, flattened
        route = context.original_route
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        operations = schema.get("paths", {}).get(context.path_format or route.path_format, {})
        for method in route.methods or ():
            operation = operations.get(method.lower())
            if operation is not None:
                _own_body(operation)
                own = [c for c in operation.pop(ERRORS_KEY, []) if c in BY_CODE]
                _declare(operation, [*route_codes(route, method, operation), *own])
    for name in ("HTTPValidationError", "ValidationError"):
        if name not in _refs(schema.get("paths", {})):
            components.pop(name, None)
    return schema


def _own_body(operation: dict[str, Any]) -> None:
    body = operation.pop(BODY_KEY, None)
    if body is not None:
        content = {"application/json": {"schema": body}}
        operation["requestBody"] = {"required": True, "content": content}


def route_codes(route: APIRoute, method: str, operation: dict[str, Any]) -> list[str]:
    """Every registered code ``route`` can answer ``method`` with, in the parts' order (a
    route that reads its body itself, such as Ask AI's, documents it in ``openapi_extra``
    or at least takes a POST, PUT or PATCH)."""
    parts: list[str] = []
    if operation.get("requestBody") or method in ("POST", "PUT", "PATCH"):
        parts.append("body")
    elif operation.get("parameters"):
        parts.append("parameters")
    for call in _calls(route.dependant):
        parts.extend(DEPENDENCY_PARTS.get(call, ()))
    codes: list[str] = []
    for part in parts:
        codes.extend(code for code in PARTS[part] if code not in codes)
    return codes


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is None:
            continue
        yield sub.call
        if sub.call not in DEPENDENCY_PARTS:
            yield from _calls(sub)


def _declare(operation: dict[str, Any], codes: list[str]) -> None:
    """Declare ``codes``' statuses; error answers declared by hand with the error body are
    replaced (or dropped); a status declared with its own body (``/readyz``'s 503) answers
    that body or the error body."""
    responses: dict[str, Any] = operation.setdefault("responses", {})
    responses.pop("422", None)
    for declared in [s for s, r in responses.items() if s >= "400" and _is_error_body(r)]:
        del responses[declared]
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(BY_CODE[code].status, []).append(code)
    for status in sorted(by_status):
        listed = "; ".join(f"`{code}`: {BY_CODE[code].meaning}" for code in by_status[status])
        own = responses.get(str(status))
        responses[str(status)] = _with_error_body(own, listed)


def _with_error_body(own: dict[str, Any] | None, listed: str) -> dict[str, Any]:
    """The error body's answer; beside a route's own body for that status (``/readyz``'s
    503 is its ``ReadyResponse``, or an error), either of the two."""
    error: dict[str, Any] = {"$ref": ERROR_REF}
    mine = (own or {}).get("content", {}).get("application/json", {}).get("schema")
    if mine is None:
        return {"description": listed, "content": {"application/json": {"schema": error}}}
    described = f"{own.get('description', '')}; or an error: {listed}" if own else listed
    schema = {"oneOf": [mine, error]}
    return {"description": described, "content": {"application/json": {"schema": schema}}}


def _is_error_body(response: dict[str, Any]) -> bool:
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    return bool(schema.get("$ref") == ERROR_REF)


def _refs(value: Any) -> set[str]:
    """The component names ``value`` refers to."""
    if isinstance(value, dict):
        found = {value["$ref"].rsplit("/", 1)[-1]} if isinstance(value.get("$ref"), str) else set()
        return found.union(*(_refs(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_refs(item) for item in value))
    return set()


def with_setting_values(schema: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """Each parameter declared with ``settings_values``: its configured values as ``enum``."""
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                _resolve_values(parameter, settings)
    return schema


def _resolve_values(parameter: dict[str, Any], settings: Settings) -> None:
    marked = _marked(parameter.get("schema", {}))
    if marked is None:
        return
    name, required = marked[VALUES_KEY], bool(marked.get(REQUIRED_KEY))
    values = SETTING_VALUES[name](settings)
    # an optional one may be sent empty (``?locale=``): the default, as when it is left out
    parameter["schema"] = {"type": "string", "enum": values if required else [*values, ""]}
    parameter["required"] = required


def _marked(schema: dict[str, Any]) -> dict[str, Any] | None:
    if VALUES_KEY in schema:
        return schema
    return next((s for s in schema.get("anyOf", []) if VALUES_KEY in s), None)
