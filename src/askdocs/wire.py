"""``Wire``: the base of every camelCase HTTP payload model (users, assistant).

Field names are snake_case in Python and camelCase on the wire; a request body with a field
the model does not declare is refused (400 ``invalid_request``). ``copy_of`` builds a
response model from a core value whose attributes carry the same names.
"""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    @classmethod
    def copy_of(cls, value: object) -> Self:
        """The model of ``value``, read attribute by attribute (a typed copy)."""
        return cls.model_validate(value, from_attributes=True)
