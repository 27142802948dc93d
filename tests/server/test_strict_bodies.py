"""Every JSON request body in ``/openapi.json`` is a closed object: unknown fields are 400."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from askdocs.server.app import create_app
from askdocs.settings import load_settings

Schema = dict[str, Any]


def _resolve(schema: Schema, components: dict[str, Schema]) -> Schema:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _objects(
    schema: Schema, components: dict[str, Schema], where: str
) -> Iterator[tuple[str, Schema]]:
    """Every object schema reachable from ``schema`` (properties, items, unions)."""
    schema = _resolve(schema, components)
    if schema.get("type") == "object" or "properties" in schema:
        yield where, schema
    for name, child in schema.get("properties", {}).items():
        yield from _objects(child, components, f"{where}.{name}")
    if isinstance(schema.get("items"), dict):
        yield from _objects(schema["items"], components, f"{where}[]")
    for key in ("anyOf", "oneOf", "allOf"):
        for child in schema.get(key, []):
            yield from _objects(child, components, where)


def test_every_request_body_object_forbids_unknown_fields(tmp_path: Path) -> None:
    spec = create_app(load_settings(data_dir=tmp_path)).openapi()
    components = spec.get("components", {}).get("schemas", {})
    open_objects: list[str] = []
    bodies = 0
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for content in operation.get("requestBody", {}).get("content", {}).values():
                bodies += 1
                for where, found in _objects(content["schema"], components, "body"):
                    if found.get("additionalProperties") is not False:
                        open_objects.append(f"{method.upper()} {path} {where}")
    assert bodies >= 30  # ask, assistant, auth, orgs, invitations and every admin operation
    assert open_objects == []
