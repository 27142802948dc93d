"""``Wire``: the base of every camelCase HTTP payload model (users, assistant).

Field names are snake_case in Python and camelCase on the wire; a request body with a field
the model does not declare is refused (400 ``invalid_request``). ``copy_of`` builds a
response model from a core value whose attributes carry the same names. ``json_schema`` is
the one JSON schema of a model that every surface publishes (tools, REST bodies, forms).
"""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, JsonValue
from pydantic.alias_generators import to_camel

# The characters ``str.split()`` and ``str.strip()`` take for whitespace, as a regex
# character-class body Python, ECMA and Rust share (``\xHH``, ``\uHHHH``): how
# ``/openapi.json`` writes "blank" and "trimmed" for the server's own rules.
BLANK_CHARS = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
JsonDict = dict[str, JsonValue]


class Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    @classmethod
    def copy_of(cls, value: object) -> Self:
        """The model of ``value``, read attribute by attribute (a typed copy)."""
        return cls.model_validate(value, from_attributes=True)


def json_schema(model: type[BaseModel]) -> JsonDict:
    """The model's JSON schema, self-contained (no ``$ref``) and without titles: what every
    surface (assistant, MCP, REST, ``/schemas``) publishes for it. A nullable field stays
    ``anyOf`` branches of one ``type`` each (portable to single-type dialects)."""
    schema = model.model_json_schema(by_alias=True)
    defs = schema.pop("$defs", {})
    simplified = _simplify(schema, defs)
    assert isinstance(simplified, dict)
    return simplified


def _simplify(node: JsonValue, defs: JsonDict) -> JsonValue:
    if isinstance(node, list):
        return [_simplify(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        return _simplify(defs[ref.rsplit("/", 1)[-1]], defs)
    out = {k: _simplify(v, defs) for k, v in node.items() if k != "title"}
    if out.get("default", ...) is None:
        del out["default"]
    return out
