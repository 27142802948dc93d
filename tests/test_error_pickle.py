"""Every askdocs error survives pickling whole (a search worker process sends its errors to
the server, which maps them to HTTP as if they had been raised in process)."""

from __future__ import annotations

import pickle

import pytest

from askdocs import errors
from askdocs.error_codes import ErrorCode
from askdocs.errors import AskDocsError, CorpusError, RateLimited, UnsafePath


def _every_error() -> list[type[AskDocsError]]:
    found: list[type[AskDocsError]] = []
    pending: list[type[AskDocsError]] = [AskDocsError]
    while pending:
        kind = pending.pop()
        found.append(kind)
        pending += kind.__subclasses__()
    return found


@pytest.mark.parametrize("kind", _every_error(), ids=lambda kind: kind.__name__)
def test_an_error_comes_back_whole(kind: type[AskDocsError]) -> None:
    if issubclass(kind, CorpusError):
        error: AskDocsError = kind("docs/a.md", "unreadable", code=ErrorCode.UNREADABLE)
    elif issubclass(kind, RateLimited):
        error = kind("slow down", retry_after=7, code=ErrorCode.UNREADABLE)
    else:
        error = kind("what went wrong", code=ErrorCode.UNREADABLE)
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is kind
    assert (str(back), back.message, back.code, back.status) == (
        str(error), error.message, ErrorCode.UNREADABLE, error.status,
    )  # fmt: skip
    assert back.__dict__ == error.__dict__
    assert back.code is ErrorCode.UNREADABLE


def test_extra_attributes_and_the_class_code_come_back() -> None:
    limited = pickle.loads(pickle.dumps(RateLimited("wait", retry_after=30)))
    assert limited.retry_after == 30
    assert limited.code == RateLimited.code
    unsafe = pickle.loads(pickle.dumps(UnsafePath("docs/link.md", "a symlink")))
    assert (unsafe.path, unsafe.reason) == ("docs/link.md", "a symlink")
    assert isinstance(unsafe, errors.CorpusError)
