"""Every error code is raised through the registry (``askdocs.error_codes.ErrorCode``) with
its registered status, and docs/errors.md is generated from the registry.

Adding a code: add a member to ``ErrorCode`` (``NAME = "code", status, "meaning"``), raise
it as ``SomeError("...", code=ErrorCode.NAME)`` with a class of the same status, then run
``python -m askdocs.error_codes --write``.
"""

from __future__ import annotations

import ast
import pickle

from askdocs import errors
from askdocs.devtools.error_scan import (
    PACKAGE,
    Source,
    literal_codes,
    referenced_codes,
    status_mismatches,
    unknown_members,
)
from askdocs.error_codes import BY_CODE, CODES, DOC, ErrorCode, render

HOW = (
    "raise codes through askdocs.error_codes.ErrorCode: register a new code there "
    '(NAME = "code", status, "meaning"), pass code=ErrorCode.NAME, and regenerate '
    "docs/errors.md with: python -m askdocs.error_codes --write"
)


def test_no_code_is_written_as_a_string() -> None:
    found = [str(finding) for finding in literal_codes()]
    assert found == [], HOW + "\n" + "\n".join(found)


def test_every_named_code_is_registered() -> None:
    found = [str(finding) for finding in unknown_members()]
    assert found == [], HOW + "\n" + "\n".join(found)


def test_every_raise_has_the_registered_status() -> None:
    found = [str(finding) for finding in status_mismatches()]
    assert found == [], (
        "raise each code through an error class of its registered status "
        "(askdocs.errors: InvalidInput 400, NotFound 404, ...), or change its registration\n"
        + "\n".join(found)
    )


WRONG = """
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput, NotFound

class Gone(NotFound):
    pass

def bad(message: str, code: ErrorCode) -> InvalidInput:
    return InvalidInput(message, code=code)

def check(exc: Exception) -> None:
    raise InvalidInput("no such operation", code=ErrorCode.UNKNOWN_OPERATION)
    raise Gone("x", code=ErrorCode.INVALID_ARGUMENT)
    raise bad("y", ErrorCode.PAGE_NOT_FOUND)
    raise NotFound("z", code="made_up")
    raise bad("w", "invalid_argument")
    if exc.code == "unreadable":
        raise NotFound("v", code=ErrorCode.NO_SUCH_THING)
    raise NotFound("fine", code=ErrorCode.PAGE_NOT_FOUND)
"""


def test_the_checks_catch_strings_unknown_names_and_wrong_statuses() -> None:
    found = [Source("wrong.py", ast.parse(WRONG))]
    assert [f.where for f in status_mismatches(found)] == [
        "wrong.py:12",
        "wrong.py:13",
        "wrong.py:14",
    ]
    assert [f.where for f in literal_codes(found)] == ["wrong.py:15", "wrong.py:16", "wrong.py:17"]
    assert [str(f) for f in unknown_members(found)] == [
        "wrong.py:18: ErrorCode.NO_SUCH_THING is not registered"
    ]


def test_the_scan_sees_raises_and_their_classes() -> None:
    used = referenced_codes([PACKAGE])
    assert len(used) > 100  # the scan really reads the source
    assert {ErrorCode.UNKNOWN_OPERATION, ErrorCode.PROPOSAL_NOT_FOUND} <= used


def test_member_names_follow_the_codes() -> None:
    for code in CODES:
        expected = ("READER_" if "-" in code else "") + code.upper().replace("-", "_")
        assert code.name == expected


def test_the_reader_keeps_seed_003s_kebab_case_codes() -> None:
    used = referenced_codes([PACKAGE / "reader", PACKAGE / "server/routes"])
    for code in ("article-not-found", "invalid-slug", "invalid-locale", "docs-unavailable"):
        assert BY_CODE[code] in used


def test_every_error_class_code_has_its_class_status() -> None:
    for value in vars(errors).values():
        if isinstance(value, type) and issubclass(value, errors.AskDocsError):
            assert value.code.status == value.status, value.__name__


def test_a_code_is_its_string_and_pickles_as_itself() -> None:
    error = errors.NotFound("gone", code=ErrorCode.PROPOSAL_NOT_FOUND)
    assert error.code == "proposal_not_found"
    assert f"[{error.code}]" == "[proposal_not_found]"
    again = pickle.loads(pickle.dumps(error))
    assert again.code is ErrorCode.PROPOSAL_NOT_FOUND
    assert again.code.status == 404


def test_docs_errors_md_is_generated_from_the_registry() -> None:
    current = DOC.read_text(encoding="utf-8")
    assert current == render(current), "run: python -m askdocs.error_codes --write"
    assert all(f"`{code}`" in current for code in BY_CODE)
