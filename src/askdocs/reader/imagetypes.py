"""Which images may become assets: an allowlist of raster types checked by their bytes.

Pure functions: the caller reads the bytes (safely) and asks whether extension and
signature agree. SVG is never an image type here: it is active content.
"""

from __future__ import annotations

import hashlib

CONTENT_TYPES: dict[str, str] = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
}
_EXTENSIONS: dict[str, str] = {
    ".png": "png",
    ".jpg": "jpg",
    ".jpeg": "jpg",
    ".gif": "gif",
    ".webp": "webp",
}


def kind_from_name(name: str) -> str | None:
    """The canonical image kind for a file name's extension (``.jpeg`` -> ``jpg``), or None."""
    dot = name.rfind(".")
    if dot < 0:
        return None
    return _EXTENSIONS.get(name[dot:].lower())


def kind_from_bytes(data: bytes) -> str | None:
    """The image kind the byte signature says, or None for anything not allowed."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if len(data) >= 12 and data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "webp"
    return None


def asset_id(data: bytes, kind: str) -> str:
    """The opaque, content-addressed id of an image: SHA-256 of its bytes plus its kind."""
    return f"{hashlib.sha256(data).hexdigest()}.{kind}"
