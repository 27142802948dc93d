"""Pages: the Markdown files of a site's roots, read and written without leaving the folder.

Paths follow the corpus's safe-path rules (``/``-separated, relative, no ``.``/``..``/empty
segments, no hidden segments, no NUL or backslash) and must fall inside one of the site's
roots and its default include/exclude globs. Every folder on the way is opened with
``O_NOFOLLOW`` from a descriptor of the site folder, so a symbolic link anywhere is refused.
Writes go to a hidden temp file in the target folder, are fsynced, then renamed over the
target (atomic); the folder is fsynced after. Reads reuse ``corpus.safe_read``.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from askdocs.corpus.globs import compile_globs
from askdocs.corpus.safe_read import decode_utf8, open_regular, read_at_most
from askdocs.error_codes import ErrorCode
from askdocs.errors import CorpusError, InvalidInput, NotFound, UnsafePath, Vanished
from askdocs.settings import DEFAULT_EXCLUDE, DEFAULT_INCLUDE

_INCLUDE, _EXCLUDE = compile_globs(DEFAULT_INCLUDE), compile_globs(DEFAULT_EXCLUDE)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
MAX_PATH_CHARS = 500


@dataclass(frozen=True)
class PageFile:
    data: bytes

    @property
    def text(self) -> str:
        with refused_paths():
            return decode_utf8(self.data, "page")


@contextmanager
def refused_paths() -> Iterator[None]:
    """Corpus refusals (links, special files, undecodable text) as 400s, not server errors."""
    try:
        yield
    except CorpusError as exc:
        raise InvalidInput(exc.message, code=exc.code) from exc


MAX_NAME_BYTES = 255  # one file or folder name (NAME_MAX on Linux and most file systems)


def page_not_found() -> NotFound:
    return NotFound("page not found", code=ErrorCode.PAGE_NOT_FOUND)


def check_path(rel: object, roots: list[dict[str, str]]) -> str:
    """``rel`` when it is a safe page path inside one of ``roots``; InvalidInput otherwise."""
    if not isinstance(rel, str) or not 0 < len(rel) <= MAX_PATH_CHARS:
        raise InvalidInput("path: must be a relative page path", code=ErrorCode.INVALID_PATH)
    parts = rel.split("/")
    if any(part in ("", ".", "..") or part.startswith(".") for part in parts) or (
        "\x00" in rel or "\\" in rel
    ):
        raise InvalidInput(
            f"path: {rel!r} is not a safe relative path", code=ErrorCode.INVALID_PATH
        )
    if any(len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES for part in parts):
        raise InvalidInput(
            f"path: a file or folder name is over {MAX_NAME_BYTES} bytes",
            code=ErrorCode.INVALID_PATH,
        )
    for root in sorted(roots, key=lambda r: -len(r["path"])):
        prefix = root["path"] + "/" if root["path"] else ""
        inner = rel[len(prefix) :] if rel.startswith(prefix) else None
        if inner and _INCLUDE.matches(inner) and not _EXCLUDE.matches(inner):
            return rel
    raise InvalidInput(
        f"path: {rel!r} is not a Markdown page inside one of the site's roots",
        code=ErrorCode.INVALID_PATH,
    )


def read_page(folder: Path, rel: str, max_bytes: int) -> PageFile | None:
    """The page's bytes, or None when it does not exist. Links and special files raise."""
    with refused_paths():
        return _read_page(folder, rel, max_bytes)


def _read_page(folder: Path, rel: str, max_bytes: int) -> PageFile | None:
    try:
        fd = open_regular(folder, rel, max_bytes)
    except Vanished:  # no such file (or a folder on its path)
        return None
    except CorpusError as exc:
        if exc.code == ErrorCode.UNREADABLE and not _exists(folder, rel):
            return None
        raise
    try:
        return PageFile(read_at_most(fd, max_bytes))
    finally:
        os.close(fd)


def _exists(folder: Path, rel: str) -> bool:
    try:
        os.lstat(folder / rel)
    except OSError:
        return False
    return True


@contextmanager
def _folder_of(folder: Path, parts: list[str], *, create: bool) -> Iterator[int]:
    folder.mkdir(parents=True, exist_ok=True)
    current = os.open(folder, _DIR_FLAGS)
    try:
        for part in parts:
            child = _open_child(current, part, create=create)
            os.close(current)
            current = child
        yield current
    finally:
        os.close(current)


def _open_child(directory: int, part: str, *, create: bool) -> int:
    try:
        return os.open(part, _DIR_FLAGS, dir_fd=directory)
    except FileNotFoundError:
        if not create:
            raise
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise UnsafePath(part, "a folder on the path is a link or not a folder") from exc
        raise
    with suppress(FileExistsError):
        os.mkdir(part, 0o755, dir_fd=directory)
    return os.open(part, _DIR_FLAGS, dir_fd=directory)


def _regular_or_missing(directory: int, name: str) -> bool:
    try:
        info = os.stat(name, dir_fd=directory, follow_symlinks=False)
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(info.st_mode):
        raise UnsafePath(name, "the page is a link or not a regular file")
    return True


def write_page(folder: Path, rel: str, data: bytes) -> None:
    parts = rel.split("/")
    with refused_paths(), _folder_of(folder, parts[:-1], create=True) as directory:
        _regular_or_missing(directory, parts[-1])
        tmp = f".{parts[-1]}.{secrets.token_hex(6)}.tmp"
        fd = os.open(tmp, _NEW_FILE, 0o644, dir_fd=directory)
        try:
            try:
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, parts[-1], src_dir_fd=directory, dst_dir_fd=directory)
        except BaseException:
            with suppress(OSError):
                os.unlink(tmp, dir_fd=directory)
            raise
        os.fsync(directory)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def delete_page(folder: Path, rel: str) -> None:
    parts = rel.split("/")
    try:
        with refused_paths(), _folder_of(folder, parts[:-1], create=False) as directory:
            if not _regular_or_missing(directory, parts[-1]):
                raise page_not_found()
            os.unlink(parts[-1], dir_fd=directory)
            os.fsync(directory)
    except FileNotFoundError as exc:
        raise page_not_found() from exc
