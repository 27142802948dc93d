"""One wording for a docs folder that is not there, and for an index that was never built."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError, IndexBuilding, NotFound
from askdocs.service import AskDocs

NOT_INDEXED = "nothing indexed yet — run `askdocs index PATH`"


def require_folder(path: Path) -> None:
    """``ConfigError`` (exit 2) unless ``path`` is an existing folder; every command that
    takes a docs folder (index, corpus, eval --docs, serve PATH, init) says it this way."""
    if not path.exists():
        raise ConfigError(f"docs folder {path} does not exist")
    if not path.is_dir():
        raise ConfigError(f"docs folder {path} is not a folder")


@contextmanager
def not_indexed_hint(service: AskDocs) -> Iterator[None]:
    """Turn "still being built" into "nothing indexed yet" when no build is running."""
    try:
        yield
    except IndexBuilding as exc:
        if _build_running(service):
            raise
        raise NotFound(NOT_INDEXED, code=ErrorCode.NOT_INDEXED) from exc


def _build_running(service: AskDocs) -> bool:
    """Whether another process (or thread) holds the store's build lock right now."""
    with service.store.backend.try_build_lock() as acquired:
        return not acquired
