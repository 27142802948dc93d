"""The one exception tree of askdocs.

Every error the product raises on purpose is an ``AskDocsError``. Each edge maps it:
HTTP to ``status`` plus the stable ``code``; the CLI to an exit code and a message; MCP
to a tool error with the message. Messages never hold secrets. A raise names its code
through the registry (``code=ErrorCode.PROPOSAL_NOT_FOUND``, ``askdocs.error_codes``), and
that code's registered status is the class's status.

    AskDocsError
    ├── ConfigError                 misconfiguration (missing root, bad setting)      500 / exit 2
    │   └── DocsRootMissing         a docs root is missing or unreadable              503
    ├── InvalidInput                a request or argument that fails validation       400
    ├── NotFound                    missing (or hidden: never 403 for others' data)    404
    ├── AuthError                   missing / invalid credentials                      401
    ├── Forbidden                   authenticated but not allowed (bot check)          403
    ├── Conflict                    the thing is no longer in a state that allows it   409
    ├── RateLimited                 a limit was reached (carries retry_after)         429
    ├── Cancelled                   the caller went away; the work stopped             499
    ├── CorpusError                 a documentation file could not be used
    │   ├── UnsafePath              symlink, root escape, not a regular file
    │   ├── FileTooLarge
    │   ├── DecodeError             not strict UTF-8
    │   └── FrontMatterError        invalid YAML or metadata (file, line, field)
    ├── EmbeddingError              an embedding provider failed or timed out          503
    ├── VectorStoreError            the vector store failed                            503
    ├── IndexBuilding               no complete collection exists yet                  503
    ├── ServiceUnavailable          a dependency (limits store, docs source) is down   503
    │   └── DeadlineExceeded        the work outlived its deadline and was stopped     503
    └── ModelError                  the chat model failed                              500
"""

from __future__ import annotations

from askdocs.error_codes import ErrorCode


class AskDocsError(Exception):
    """Base of every deliberate askdocs error."""

    status: int = 500
    code: ErrorCode = ErrorCode.INTERNAL_ERROR

    def __init__(self, message: str, *, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by type, message and attributes (a search worker sends its errors to the
        server): subclasses with other constructor arguments come back whole too."""
        return (_rebuilt, (type(self), self.message, dict(self.__dict__)))


def _rebuilt(kind: type[AskDocsError], message: str, state: dict[str, object]) -> AskDocsError:
    error = kind.__new__(kind)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class ConfigError(AskDocsError):
    status = 500
    code = ErrorCode.CONFIG_ERROR


class DocsRootMissing(ConfigError):
    """A required docs root is missing or cannot be read: the site's explicit state, never
    "still being built" (search, /readyz, ``askdocs sites``, the admin Sites tab)."""

    status = 503
    code = ErrorCode.DOCS_ROOT_MISSING


class InvalidInput(AskDocsError):
    status = 400
    code = ErrorCode.INVALID_INPUT


class NotFound(AskDocsError):
    status = 404
    code = ErrorCode.NOT_FOUND


class AuthError(AskDocsError):
    status = 401
    code = ErrorCode.UNAUTHORIZED


class Forbidden(AskDocsError):
    status = 403
    code = ErrorCode.FORBIDDEN


class Conflict(AskDocsError):
    status = 409
    code = ErrorCode.CONFLICT


class RateLimited(AskDocsError):
    status = 429
    code = ErrorCode.RATE_LIMITED

    def __init__(self, message: str, *, retry_after: int, code: ErrorCode | None = None) -> None:
        super().__init__(message, code=code)
        self.retry_after = retry_after


class Cancelled(AskDocsError):
    """The caller went away (nginx's 499 "client closed request"): nobody reads an answer,
    and the work stopped at its next checkpoint."""

    status = 499
    code = ErrorCode.CLIENT_CLOSED_REQUEST


class CorpusError(AskDocsError):
    code = ErrorCode.CORPUS_ERROR

    def __init__(self, path: str, reason: str, *, code: ErrorCode | None = None) -> None:
        super().__init__(f"{path}: {reason}", code=code)
        self.path = path
        self.reason = reason


class UnsafePath(CorpusError):
    code = ErrorCode.UNSAFE_PATH


class FileTooLarge(CorpusError):
    code = ErrorCode.FILE_TOO_LARGE


class DecodeError(CorpusError):
    code = ErrorCode.DECODE_ERROR


class Vanished(CorpusError):
    """The file was removed (or renamed away) between the folder scan and its read: an
    editor's save, a checkout. Not a bad file: it is simply not there any more."""

    code = ErrorCode.FILE_VANISHED


class FrontMatterError(CorpusError):
    code = ErrorCode.FRONTMATTER_INVALID


class EmbeddingError(AskDocsError):
    status = 503
    code = ErrorCode.EMBEDDING_UNAVAILABLE


class VectorStoreError(AskDocsError):
    status = 503
    code = ErrorCode.VECTOR_STORE_UNAVAILABLE


class IndexBuilding(AskDocsError):
    status = 503
    code = ErrorCode.INDEX_BUILDING


class ServiceUnavailable(AskDocsError):
    status = 503
    code = ErrorCode.SERVICE_UNAVAILABLE


class DeadlineExceeded(ServiceUnavailable):
    code = ErrorCode.SEARCH_TIMEOUT


class ModelError(AskDocsError):
    status = 500
    code = ErrorCode.MODEL_ERROR
