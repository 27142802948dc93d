"""``Wire``: the base of every camelCase HTTP payload model (users, assistant).

Field names are snake_case in Python and camelCase on the wire; a request body with a field
the model does not declare is refused (400 ``invalid_request``). ``copy_of`` builds a
response model from a core value whose attributes carry the same names.
"""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

# The characters ``str.split()`` and ``str.strip()`` take for whitespace, as a regex
# character-class body Python, ECMA and Rust share (``\xHH``, ``\uHHHH``): how
# ``/openapi.json`` writes "blank" and "trimmed" for the server's own rules.
BLANK_CHARS = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"


class Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    @classmethod
    def copy_of(cls, value: object) -> Self:
        """The model of ``value``, read attribute by attribute (a typed copy)."""
        return cls.model_validate(value, from_attributes=True)
