"""Validating the ``POST /api/ask`` body (pure: bytes in, a typed question or an error out).

Every refusal has a stable code: ``body_too_large`` (413), ``unsupported_media_type`` (415),
``invalid_json``, ``invalid_body``, ``invalid_text``, ``invalid_locale``, ``empty``,
``too_many_messages``, ``invalid_role``, ``message_too_long``, ``must_start_with_user``,
``must_end_with_user`` and ``question_too_long`` (all 400).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.llm.types import ChatMessage
from askdocs.settings import AskSettings
from askdocs.wire import BLANK_CHARS

_LOCALE = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,3}")
LOCALE_PATTERN = f"^{_LOCALE.pattern}$"  # what /openapi.json says (the server: fullmatch)
MAX_TOKEN_CHARS = 2048
_FORBIDDEN_CHARS = re.compile(r"[\x00\ud800-\udfff]")
ASK_FIELDS = frozenset({"token", "messages", "locale"})
MESSAGE_FIELDS = frozenset({"role", "content"})


# What ``/openapi.json`` says of text fields, in a syntax Python, ECMA and Rust regexes share
# (``\xHH``, ``\uHHHH``): clean text has no NUL (unpaired surrogates are not generated nor
# valid JSON text); non-blank text also holds a character ``str.split()`` keeps.
CLEAN_PATTERN = r"^[^\x00]*$"
NONBLANK_PATTERN = rf"^[^\x00]*[^\x00{BLANK_CHARS}][^\x00]*$"


def is_clean_text(value: str) -> bool:
    """No NUL (PostgreSQL cannot store one) and no unpaired surrogate (not encodable)."""
    return _FORBIDDEN_CHARS.search(value) is None


def clean_text(value: str) -> str:
    """A pydantic validator: ``value`` unchanged, or ValueError (a 400 at the HTTP edge)."""
    if not is_clean_text(value):
        raise ValueError("holds a NUL or an unpaired surrogate")
    return value


CleanText = Annotated[
    str, AfterValidator(clean_text), Field(json_schema_extra={"pattern": CLEAN_PATTERN})
]
# clean text that is not blank (``str.split()`` keeps something); the caller refuses blank
NonBlankText = Annotated[
    str, AfterValidator(clean_text), Field(json_schema_extra={"pattern": NONBLANK_PATTERN})
]


class PayloadTooLarge(InvalidInput):
    status = 413
    code = ErrorCode.BODY_TOO_LARGE


class UnsupportedMediaType(InvalidInput):
    status = 415
    code = ErrorCode.UNSUPPORTED_MEDIA_TYPE


@dataclass(frozen=True)
class AskInput:
    token: str
    messages: tuple[ChatMessage, ...]
    locale: str | None = None


def require_json(content_type: str | None) -> None:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise UnsupportedMediaType("send the question as application/json")


def parse_ask_body(raw: bytes, limits: AskSettings) -> AskInput:
    if len(raw) > limits.max_body_bytes:
        raise PayloadTooLarge(f"the request body is over {limits.max_body_bytes} bytes")
    body = _load(raw)
    if not isinstance(body, dict):
        raise _invalid(ErrorCode.INVALID_BODY, "the body must be a JSON object")
    _known_fields(body, ASK_FIELDS)
    token = body.get("token", "")
    if token is None:
        token = ""
    if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
        raise _invalid(
            ErrorCode.INVALID_BODY, f"token must be a string of at most {MAX_TOKEN_CHARS}"
        )
    messages = check_messages(body.get("messages"), limits)
    return AskInput(token, messages, _locale(body.get("locale")))


def check_messages(value: Any, limits: AskSettings) -> tuple[ChatMessage, ...]:
    if not isinstance(value, list):
        raise _invalid(ErrorCode.INVALID_BODY, "messages must be a list of {role, content} objects")
    if not value:
        raise _invalid(ErrorCode.EMPTY, "ask a question: messages is empty")
    if len(value) > limits.max_messages:
        raise _invalid(
            ErrorCode.TOO_MANY_MESSAGES, f"at most {limits.max_messages} messages are allowed"
        )
    messages = tuple(_message(item, limits) for item in value)
    if messages[0].role != "user":
        raise _invalid(
            ErrorCode.MUST_START_WITH_USER, "the conversation must start with a user message"
        )
    if messages[-1].role != "user":
        raise _invalid(
            ErrorCode.MUST_END_WITH_USER, "the conversation must end with a user message"
        )
    if any(not m.content.strip() for m in messages if m.role == "user"):
        raise _invalid(ErrorCode.EMPTY, "a question is empty")
    if len(messages[-1].content) > limits.max_question_chars:
        raise _invalid(
            ErrorCode.QUESTION_TOO_LONG,
            f"the question is over {limits.max_question_chars} characters",
        )
    return messages


def _message(item: Any, limits: AskSettings) -> ChatMessage:
    if not isinstance(item, dict):
        raise _invalid(ErrorCode.INVALID_BODY, "each message must be a {role, content} object")
    _known_fields(item, MESSAGE_FIELDS)
    role, content = item.get("role"), item.get("content")
    if role not in ("user", "assistant"):
        raise _invalid(ErrorCode.INVALID_ROLE, "a message's role must be 'user' or 'assistant'")
    if not isinstance(content, str):
        raise _invalid(ErrorCode.INVALID_BODY, "a message's content must be a string")
    if len(content) > limits.max_message_chars:
        raise _invalid(
            ErrorCode.MESSAGE_TOO_LONG, f"a message is over {limits.max_message_chars} characters"
        )
    if _FORBIDDEN_CHARS.search(content):
        raise _invalid(ErrorCode.INVALID_TEXT, "a message holds a NUL or an unpaired surrogate")
    return ChatMessage(role, unicodedata.normalize("NFC", content))


def _known_fields(body: dict[str, Any], known: frozenset[str]) -> None:
    unknown = sorted(str(name) for name in body if name not in known)
    if unknown:
        raise _invalid(ErrorCode.INVALID_BODY, f"unknown field(s): {', '.join(unknown)[:200]}")


def _load(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise _invalid(ErrorCode.INVALID_JSON, "the body is not valid JSON") from None


def _locale(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _LOCALE.fullmatch(value):
        raise _invalid(ErrorCode.INVALID_LOCALE, "locale must look like 'en' or 'pt-BR'")
    return value


def _invalid(code: ErrorCode, message: str) -> InvalidInput:
    return InvalidInput(message, code=code)
