"""``/openapi.json`` declares every error status an operation can answer, with the error
body, derived from the error-code registry's parts (``askdocs.server.openapi``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from askdocs.error_codes import BY_CODE
from askdocs.server.app import create_app
from askdocs.settings import load_settings

ERROR_REF = "#/components/schemas/ErrorBody"
# Error statuses an operation answers with its own body: what it really sends.
OWN_BODIES = {("GET /readyz", "503"): "#/components/schemas/ReadyResponse"}


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return create_app(load_settings(data_dir=tmp_path_factory.mktemp("openapi"))).openapi()


def _operations(spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", operation)
        for path, operations in spec["paths"].items()
        for method, operation in operations.items()
    ]


def _codes(operation: dict[str, Any], status: int) -> set[str]:
    description = operation["responses"][str(status)]["description"]
    return set(re.findall(r"`([^`]+)`: ", description))


def test_undocumented_statuses_no_operation_declares_the_422_askdocs_never_sends(
    spec: dict[str, Any],
) -> None:
    assert [name for name, op in _operations(spec) if "422" in op["responses"]] == []
    assert "HTTPValidationError" not in spec["components"]["schemas"]


def test_every_declared_error_has_the_error_body_and_registered_codes(
    spec: dict[str, Any],
) -> None:
    checked = 0
    for name, operation in _operations(spec):
        for status, response in operation["responses"].items():
            if int(status) < 400 or status == "500":
                continue
            schema = response["content"]["application/json"]["schema"]
            shapes = schema.get("oneOf", [schema])
            if (name, status) in OWN_BODIES:
                assert {"$ref": OWN_BODIES[name, status]} in shapes, name
                continue
            assert {"$ref": ERROR_REF} in shapes, name
            for code in _codes(operation, int(status)):
                assert BY_CODE[code].status == int(status), (name, code)
            checked += 1
    assert checked > 300
    assert set(spec["components"]["schemas"]["ErrorBody"]["properties"]) == {"error"}


def test_operations_with_parameters_or_a_body_declare_invalid_request(
    spec: dict[str, Any],
) -> None:
    missing = [
        name
        for name, op in _operations(spec)
        if (op.get("parameters") or op.get("requestBody")) and "400" not in op["responses"]
    ]
    assert missing == []
    bodies = [op for _, op in _operations(spec) if op.get("requestBody")]
    assert all({"413", "415"} <= set(op["responses"]) for op in bodies)


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("delete", "/api/v1/assistant/threads/{thread_id}", 404, "thread_not_found"),
        ("get", "/api/v1/assistant/threads", 401, "missing_token"),
        ("get", "/api/v1/admin/sites", 403, "admin_required"),
        ("post", "/api/v1/proposals/{proposal_id}/apply", 409, "proposal_settled"),
        ("post", "/api/v1/auth/sign-in", 429, "sign_in_limited"),
        ("get", "/api/search", 503, "index_building"),
        ("get", "/api/docs/articles/{slug}", 404, "article-not-found"),
        ("post", "/api/ask", 429, "burst_limit"),
        ("get", "/api/v1/admin/schemas/{operation}", 404, "unknown_operation"),
    ],
)
def test_a_route_declares_the_codes_of_the_parts_it_uses(
    spec: dict[str, Any], method: str, path: str, status: int, code: str
) -> None:
    assert code in _codes(spec["paths"][path][method], status)


def test_healthz_declares_no_error(spec: dict[str, Any]) -> None:
    assert set(spec["paths"]["/healthz"]["get"]["responses"]) == {"200"}


def test_readyz_503_documents_its_own_body(spec: dict[str, Any]) -> None:
    """Issue #27, defect 11: /readyz answers 503 with its ReadyResponse while not ready;
    the error registry's 503 had replaced that body with the error body in the document."""
    schema = spec["paths"]["/readyz"]["get"]["responses"]["503"]["content"]["application/json"]
    shapes = schema["schema"].get("oneOf", [schema["schema"]])
    assert {"$ref": "#/components/schemas/ReadyResponse"} in shapes
