"""Secret files: written whole (temp file + fsync + rename) with mode 0600, never torn."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_secret_file(path: Path, value: str) -> str:
    """Write ``value`` with mode 0600 via temp file + fsync + rename; return what is on disk
    (when another process wrote the file first, its value)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, value.encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    if path.exists():  # another process won the race: keep its key
        tmp.unlink()
        return path.read_text(encoding="ascii").strip()
    os.replace(tmp, path)
    return value
