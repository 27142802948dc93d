"""Image files an article may show: safe reads, type checks and content-addressed ids.

An image becomes an asset only when its reference is local (inside the page's docs root),
has non-empty alt text, names a PNG/JPEG/GIF/WebP file whose byte signature agrees with
its extension, and the file is a regular file of at most ``max_bytes`` reached without
following any symbolic link (the corpus's safe-read walk). Its id is the SHA-256 of the
bytes plus the kind, never a path. Hashes are cached by the file's stat key (inode,
device, mtime, ctime, size), so a replaced image gets a new id without re-reading others.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

# The corpus's safe-read walk (seed 003 source-read rules), reused for image bytes.
from askdocs.corpus.safe_read import StatKey, open_regular, read_at_most
from askdocs.errors import CorpusError, FileTooLarge
from askdocs.reader.imagetypes import CONTENT_TYPES, asset_id, kind_from_bytes, kind_from_name
from askdocs.reader.links import local_image_path


@dataclass(frozen=True)
class ImageAsset:
    asset_id: str
    kind: str
    root: str
    rel: str
    key: StatKey

    @property
    def content_type(self) -> str:
        return CONTENT_TYPES[self.kind]

    @property
    def sha256(self) -> str:
        return self.asset_id.split(".", 1)[0]


@dataclass(frozen=True)
class Refused:
    reason: str


class ImageFiles:
    """Checks image references and reads their bytes; thread-safe."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._hashes: dict[tuple[str, str], tuple[StatKey, ImageAsset | Refused]] = {}

    def check(self, root: str, source_path: str, src: str, alt: str) -> ImageAsset | Refused:
        """Whether the image ``src`` of the page at ``source_path`` may be shown."""
        if not alt.strip():
            return Refused("an image needs alt text")
        rel = local_image_path(src, source_path)
        if rel is None:
            return Refused("only local images inside the docs folder are shown")
        if kind_from_name(rel) is None:
            return Refused("only PNG, JPEG, GIF and WebP images are shown")
        try:
            return self._checked(root, rel)
        except CorpusError as exc:
            return Refused(exc.reason)

    def read(self, image: ImageAsset) -> bytes | None:
        """The image's bytes if the file still holds exactly this asset, else None."""
        try:
            fd = open_image(Path(image.root), image.rel, self.max_bytes)
        except CorpusError:
            return None
        try:
            data = read_at_most(fd, self.max_bytes + 1)
        finally:
            os.close(fd)
        kind = kind_from_bytes(data)
        if len(data) > self.max_bytes or kind is None or asset_id(data, kind) != image.asset_id:
            return None
        return data

    def _checked(self, root: str, rel: str) -> ImageAsset | Refused:
        fd = open_image(Path(root), rel, self.max_bytes)
        try:
            key = StatKey.of(os.fstat(fd))
            with self._lock:
                cached = self._hashes.get((root, rel))
            if cached is not None and cached[0] == key:
                return cached[1]
            data = read_at_most(fd, self.max_bytes + 1)
            if len(data) > self.max_bytes:
                raise FileTooLarge(rel, f"more than the {self.max_bytes}-byte image limit")
            result = _identify(root, rel, key, data)
        finally:
            os.close(fd)
        with self._lock:
            self._hashes[(root, rel)] = (key, result)
        return result


def _identify(root: str, rel: str, key: StatKey, data: bytes) -> ImageAsset | Refused:
    named = kind_from_name(rel)
    found = kind_from_bytes(data)
    if found is None:
        return Refused("the file is not a PNG, JPEG, GIF or WebP image")
    if found != named:
        return Refused(f"the file extension does not match its content ({found})")
    return ImageAsset(asset_id(data, found), found, root, rel, key)


def open_image(root: Path, rel: str, max_bytes: int) -> int:
    """Open ``rel`` under ``root`` by the corpus's safe walk (no links, regular file only,
    at most ``max_bytes``). Returns the descriptor (the caller closes it)."""
    return open_regular(root, rel, max_bytes)
