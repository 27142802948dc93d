"""The shape of the settings model, read from its annotations (pure).

Each field is a leaf (a value), a section (a nested model), a list of sections
(``[[sites]]``, ``[[sites.roots]]``) or a free map (``page_kinds``: any keys).
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

Kind = Literal["leaf", "section", "sections", "map"]


@dataclass(frozen=True)
class Shape:
    kind: Kind
    model: type[BaseModel] | None = None


def shape_of(annotation: Any) -> Shape:
    """What a field of ``annotation`` holds; ``X | None`` is ``X``."""
    annotation = _without_none(annotation)
    origin = get_origin(annotation)
    if _is_model(annotation):
        return Shape("section", annotation)
    if origin is list and get_args(annotation) and _is_model(get_args(annotation)[0]):
        return Shape("sections", get_args(annotation)[0])
    if origin is dict:
        return Shape("map")
    return Shape("leaf")


def field_shapes(model: type[BaseModel]) -> dict[str, Shape]:
    """Every field of ``model`` by name, with its shape."""
    return {name: shape_of(info.annotation) for name, info in model.model_fields.items()}


def _without_none(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)
