"""Crash-safe file primitives: atomic replace and advisory locks (``flock``)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import uuid
from collections.abc import Iterator
from pathlib import Path


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so a reader sees the old or the new file, never a mix:
    write a temporary file, fsync it, rename it over ``path``, fsync the folder."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    fsync_dir(path.parent)


@contextlib.contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if needed), waiting for it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


@contextlib.contextmanager
def try_exclusive(path: Path) -> Iterator[bool]:
    """Take an exclusive lock on ``path`` if nobody holds it; yields whether it did."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def shared_lease(path: Path) -> int | None:
    """Open ``path`` and hold a shared lock on it; returns the descriptor (close it to let
    go), or None when the file does not exist (its folder was removed)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    fcntl.flock(fd, fcntl.LOCK_SH)
    try:
        same = os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        same = False
    if not same:  # moved away (being deleted) between open and lock
        os.close(fd)
        return None
    return fd


def lease_is_free(fd: int) -> bool:
    """Try to upgrade an open descriptor to an exclusive lock without waiting."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def copy_tree(source: Path, target: Path, *, skip: frozenset[str] = frozenset()) -> None:
    """Copy a folder tree, fsyncing every file and folder, leaving out names in ``skip``."""
    target.mkdir(parents=True)
    for entry in source.iterdir():
        if entry.name in skip:
            continue
        destination = target / entry.name
        if entry.is_dir() and not entry.is_symlink():
            copy_tree(entry, destination, skip=skip)
        elif entry.is_file() and not entry.is_symlink():
            _copy_file(entry, destination)
    fsync_dir(target)


def _copy_file(source: Path, target: Path) -> None:
    with source.open("rb") as reader, target.open("wb") as writer:
        while block := reader.read(1 << 20):
            writer.write(block)
        writer.flush()
        os.fsync(writer.fileno())
