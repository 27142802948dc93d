"""Reading tool/REST arguments (pure): typed values out of a JSON object, or InvalidInput.

``MISSING`` tells "not given" apart from an explicit ``null`` where the two mean different
things (an update's ``null`` leaves a field unchanged; a provider key's ``""`` clears it).
"""

from __future__ import annotations

from typing import Any

from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.guard.validation import is_clean_text

JsonObject = dict[str, Any]


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


def bad(field: str, why: str) -> InvalidInput:
    return InvalidInput(f"{field}: {why}", code=ErrorCode.INVALID_ARGUMENT)


def text(args: JsonObject, field: str, *, max_chars: int = 200, required: bool = True) -> str:
    value = args.get(field)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise bad(field, "must be a non-empty string")
    if len(value) > max_chars:
        raise bad(field, f"at most {max_chars} characters")
    return clean(field, value).strip()


def optional_text(args: JsonObject, field: str, *, max_chars: int = 200) -> str | None:
    """Absent or null -> None; otherwise a string (may be empty)."""
    value = args.get(field)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > max_chars:
        raise bad(field, f"must be a string of at most {max_chars} characters")
    return clean(field, value)


def clean(field: str, value: str) -> str:
    """No NUL (PostgreSQL cannot store it) and no unpaired surrogate (not encodable)."""
    if not is_clean_text(value):
        raise InvalidInput(
            f"{field}: holds a NUL or an unpaired surrogate", code=ErrorCode.INVALID_TEXT
        )
    return value


def flag(args: JsonObject, field: str, default: Any) -> Any:
    value = args.get(field, default)
    if value is None or value is MISSING:
        return value
    if not isinstance(value, bool):
        raise bad(field, "must be true or false")
    return value


def count(args: JsonObject, field: str, default: Any) -> Any:
    value = args.get(field, default)
    if value is None or value is MISSING:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise bad(field, "must be a whole number >= 0")
    return value


def string_list(args: JsonObject, field: str, default: Any, *, max_items: int = 50) -> Any:
    value = args.get(field, default)
    if value is None or value is MISSING:
        return value
    if not isinstance(value, list) or len(value) > max_items:
        raise bad(field, f"must be a list of at most {max_items} strings")
    if not all(isinstance(item, str) and 0 < len(item) <= 253 for item in value):
        raise bad(field, "every item must be a non-empty string")
    return list(value)


def org_hint(args: JsonObject) -> str | None:
    value = args.get("organisationId")
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise bad("organisationId", "must be an organisation id")
    return value
