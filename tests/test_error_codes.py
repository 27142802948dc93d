"""The error-code registry is complete and docs/errors.md is generated from it."""

from __future__ import annotations

from askdocs import errors
from askdocs.devtools.error_scan import raised_codes
from askdocs.error_codes import BY_CODE, DOC, render


def test_every_raised_code_is_registered() -> None:
    found = raised_codes()
    assert len(found) > 80  # the scan really reads the source
    missing = {code: sorted(where) for code, where in found.items() if code not in BY_CODE}
    assert missing == {}, "register these in askdocs/error_codes.py"


def test_the_reader_keeps_seed_003s_kebab_case_codes() -> None:
    for code in ("article-not-found", "invalid-slug", "invalid-locale", "docs-unavailable"):
        assert code in BY_CODE
        assert code in raised_codes()


def test_every_error_class_code_has_its_class_status() -> None:
    for value in vars(errors).values():
        if isinstance(value, type) and issubclass(value, errors.AskDocsError):
            assert BY_CODE[value.code].status == value.status, value.__name__


def test_docs_errors_md_is_generated_from_the_registry() -> None:
    current = DOC.read_text(encoding="utf-8")
    assert current == render(current), "run: python -m askdocs.error_codes --write"
    assert all(f"`{code}`" in current for code in BY_CODE)
