"""Reading one documentation file without ever leaving its root (seed 003 source-read rules).

The path is walked component by component from an open descriptor of the root with
``openat``-style calls and ``O_NOFOLLOW``: a symbolic link anywhere inside the root is
refused, and ``..`` can never appear. The final open adds ``O_NONBLOCK`` so a FIFO cannot
block us; the opened descriptor must be a regular file (``fstat``), at most ``max_bytes``
long, and strict UTF-8. Nothing is followed, imported or executed. A file (or folder on
its path) that is gone by the time it is opened raises ``Vanished``: an editor saving it.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from askdocs.error_codes import ErrorCode
from askdocs.errors import CorpusError, DecodeError, FileTooLarge, UnsafePath, Vanished

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_LINK_ERRNOS = (errno.ELOOP, errno.EMLINK, errno.ENOTDIR)


@dataclass(frozen=True)
class StatKey:
    """What identifies one version of a file for the cache (seed 003)."""

    inode: int
    device: int
    mtime_ns: int
    ctime_ns: int
    size: int

    @classmethod
    def of(cls, result: os.stat_result) -> StatKey:
        return cls(
            result.st_ino, result.st_dev, result.st_mtime_ns, result.st_ctime_ns, result.st_size
        )


@dataclass(frozen=True)
class FileText:
    text: str
    key: StatKey  # of the descriptor actually read


def read_markdown(root: Path, rel: str, max_bytes: int) -> FileText:
    """Read ``rel`` (``/``-separated, relative) under ``root``; raise a CorpusError subclass."""
    fd = open_regular(root, rel, max_bytes)
    try:
        info = os.fstat(fd)
        data = read_at_most(fd, max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise FileTooLarge(rel, f"more than the {max_bytes}-byte limit")
    return FileText(decode_utf8(data, rel), StatKey.of(info))


def open_regular(root: Path, rel: str, max_bytes: int) -> int:
    """Open ``rel`` under ``root`` by the safe walk; a regular file of at most ``max_bytes``.

    Returns the descriptor; the caller closes it. Raises ``UnsafePath`` (link, escape,
    special file), ``FileTooLarge`` or ``CorpusError`` (code ``unreadable``).
    """
    parts = _checked_parts(rel)
    directory = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts[:-1]:
            child = _open_folder(directory, part, rel)
            os.close(directory)
            directory = child
        fd = _open_file(directory, parts[-1], rel)
    finally:
        os.close(directory)
    try:
        _check_descriptor(fd, rel, max_bytes)
    except CorpusError:
        os.close(fd)
        raise
    return fd


def _checked_parts(rel: str) -> list[str]:
    parts = rel.split("/")
    if rel.startswith("/") or any(part in ("", ".", "..") for part in parts) or "\x00" in rel:
        raise UnsafePath(rel, "path escapes the docs root")
    return parts


def _open_folder(directory: int, part: str, rel: str) -> int:
    try:
        return os.open(part, _DIR_FLAGS, dir_fd=directory)
    except OSError as exc:
        raise _open_error(exc, rel, "a folder on the path is a symbolic link") from exc


def _open_file(directory: int, name: str, rel: str) -> int:
    try:
        return os.open(name, _FILE_FLAGS, dir_fd=directory)
    except OSError as exc:
        raise _open_error(exc, rel, "symbolic link refused") from exc


def _open_error(exc: OSError, rel: str, link_reason: str) -> CorpusError:
    if exc.errno in _LINK_ERRNOS:
        return UnsafePath(rel, link_reason)
    if exc.errno == errno.ENOENT:
        return Vanished(rel, "removed while it was read")
    return CorpusError(rel, f"cannot be read: {exc.strerror or exc}", code=ErrorCode.UNREADABLE)


def _check_descriptor(fd: int, rel: str, max_bytes: int) -> None:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise UnsafePath(rel, f"not a regular file ({file_kind(info.st_mode)})")
    if info.st_size > max_bytes:
        raise FileTooLarge(rel, f"{info.st_size} bytes is over the {max_bytes}-byte limit")


def read_at_most(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from ``fd`` (read ``max + 1`` to detect a file that grew)."""
    chunks: list[bytes] = []
    remaining = limit
    while remaining > 0:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def decode_utf8(data: bytes, rel: str) -> str:
    """Strict UTF-8 (a leading BOM is dropped); line endings normalised to ``\\n``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DecodeError(rel, f"not valid UTF-8 (byte {exc.start})") from exc
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def file_kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "folder"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISLNK, "symbolic link"),
    )
    return next((name for check, name in kinds if check(mode)), "special file")


_read_at_most = read_at_most  # older name, still imported by the reader's asset module
