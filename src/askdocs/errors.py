"""The one exception tree of askdocs.

Every error the product raises on purpose is an ``AskDocsError``. Each edge maps it:
HTTP to ``status`` plus the stable ``code``; the CLI to an exit code and a message; MCP
to a tool error with the message. Messages never hold secrets.

    AskDocsError
    ├── ConfigError                 misconfiguration (missing root, bad setting)      500 / exit 2
    ├── InvalidInput                a request or argument that fails validation       400
    ├── NotFound                    missing (or hidden: never 403 for others' data)    404
    ├── AuthError                   missing / invalid credentials                      401
    ├── Forbidden                   authenticated but not allowed (bot check)          403
    ├── Conflict                    the thing is no longer in a state that allows it   409
    ├── RateLimited                 a limit was reached (carries retry_after)         429
    ├── CorpusError                 a documentation file could not be used
    │   ├── UnsafePath              symlink, root escape, not a regular file
    │   ├── FileTooLarge
    │   ├── DecodeError             not strict UTF-8
    │   └── FrontMatterError        invalid YAML or metadata (file, line, field)
    ├── EmbeddingError              an embedding provider failed or timed out          503
    ├── VectorStoreError            the vector store failed                            503
    ├── IndexBuilding               no complete collection exists yet                  503
    ├── ServiceUnavailable          a dependency (limits store, docs source) is down   503
    └── ModelError                  the chat model failed                              500
"""

from __future__ import annotations


class AskDocsError(Exception):
    """Base of every deliberate askdocs error."""

    status: int = 500
    code: str = "internal_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
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
    code = "config_error"


class InvalidInput(AskDocsError):
    status = 400
    code = "invalid_input"


class NotFound(AskDocsError):
    status = 404
    code = "not_found"


class AuthError(AskDocsError):
    status = 401
    code = "unauthorized"


class Forbidden(AskDocsError):
    status = 403
    code = "forbidden"


class Conflict(AskDocsError):
    status = 409
    code = "conflict"


class RateLimited(AskDocsError):
    status = 429
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.retry_after = retry_after


class CorpusError(AskDocsError):
    code = "corpus_error"

    def __init__(self, path: str, reason: str, *, code: str | None = None) -> None:
        super().__init__(f"{path}: {reason}", code=code)
        self.path = path
        self.reason = reason


class UnsafePath(CorpusError):
    code = "unsafe_path"


class FileTooLarge(CorpusError):
    code = "file_too_large"


class DecodeError(CorpusError):
    code = "decode_error"


class Vanished(CorpusError):
    """The file was removed (or renamed away) between the folder scan and its read: an
    editor's save, a checkout. Not a bad file: it is simply not there any more."""

    code = "file_vanished"


class FrontMatterError(CorpusError):
    code = "frontmatter_invalid"


class EmbeddingError(AskDocsError):
    status = 503
    code = "embedding_unavailable"


class VectorStoreError(AskDocsError):
    status = 503
    code = "vector_store_unavailable"


class IndexBuilding(AskDocsError):
    status = 503
    code = "index_building"


class ServiceUnavailable(AskDocsError):
    status = 503
    code = "service_unavailable"


class ModelError(AskDocsError):
    status = 500
    code = "model_error"
