"""How fresh a piece of documentation is: when the index that found it was built, when its
file was last modified, and the git commit of its docs root when the root lies in a git
work tree.

The commit is read from the repository's files (``HEAD``, loose refs, ``packed-refs``,
linked work trees' ``commondir``); no ``git`` process runs, so a docs folder's git
configuration is never executed. Commits are cached per root for ``ttl`` seconds.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from askdocs.types import Freshness, Hit

_SHA = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
MAX_PARENTS = 32  # how far up from a docs root a .git is looked for


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def git_dir(root: Path) -> Path | None:
    """The git directory of the work tree holding ``root`` (a ``.git`` folder or file)."""
    for folder in [root, *list(root.parents)[:MAX_PARENTS]]:
        marker = folder / ".git"
        if marker.is_dir():
            return marker
        text = _read(marker) if marker.is_file() else None
        if text and text.startswith("gitdir:"):
            target = Path(text.removeprefix("gitdir:").strip())
            return target if target.is_absolute() else (folder / target).resolve()
    return None


def _common_dir(gitdir: Path) -> Path:
    common = _read(gitdir / "commondir")
    if not common:
        return gitdir
    path = Path(common)
    return path if path.is_absolute() else (gitdir / path).resolve()


def _packed(common: Path, ref: str) -> str | None:
    for line in (_read(common / "packed-refs") or "").splitlines():
        sha, _, name = line.partition(" ")
        if name.strip() == ref and _SHA.fullmatch(sha):
            return sha
    return None


def head_commit(gitdir: Path) -> str | None:
    """The commit ``HEAD`` names (detached or through a branch), or None."""
    head = _read(gitdir / "HEAD")
    if head is None:
        return None
    if _SHA.fullmatch(head):
        return head
    if not head.startswith("ref:"):
        return None
    ref = head.removeprefix("ref:").strip()
    if ".." in ref or not ref.startswith("refs/"):
        return None
    common = _common_dir(gitdir)
    for folder in (gitdir, common):
        loose = _read(folder / ref)
        if loose and _SHA.fullmatch(loose):
            return loose
    return _packed(common, ref)


def iso(seconds: float | None) -> str | None:
    """Unix seconds as ISO 8601 UTC (``2026-12-01T04:40:00Z``), whole seconds."""
    return None if seconds is None else _iso(int(seconds))


@functools.lru_cache(maxsize=4096)
def _iso(seconds: int) -> str:
    """Every hit of a search carries two times, mostly the same few (a site's files change
    seldom): formatted once each (4% of a search request's interpreter time before)."""
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat().replace("+00:00", "Z")


def freshness_json(freshness: Freshness | None) -> dict[str, str | None]:
    """The wire form every surface uses: ``indexedAt``, ``modifiedAt``, ``commit``."""
    if freshness is None:
        return {"indexedAt": None, "modifiedAt": None, "commit": None}
    return {
        "indexedAt": iso(freshness.indexed_at),
        "modifiedAt": iso(freshness.modified_at),
        "commit": freshness.commit,
    }


class FreshnessReader:
    """File times and root commits for hits and pages; thread-safe, commits cached."""

    def __init__(self, ttl: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self._clock = clock
        self._commits: dict[Path, tuple[float, str | None]] = {}
        self._lock = threading.Lock()

    def commit(self, root: Path) -> str | None:
        now = self._clock()
        with self._lock:
            cached = self._commits.get(root)
        if cached is not None and now - cached[0] < self.ttl:
            return cached[1]
        gitdir = git_dir(root)
        found = head_commit(gitdir) if gitdir is not None else None
        with self._lock:
            self._commits[root] = (now, found)
        return found

    def of(self, roots: Sequence[Path], path: str, indexed_at: float | None) -> Freshness:
        """``path`` is relative to one of ``roots`` (the first that holds it counts)."""
        for root in roots:
            try:
                modified = (root / path).stat().st_mtime
            except (OSError, ValueError):
                continue
            return Freshness(indexed_at, modified, self.commit(root))
        return Freshness(indexed_at, None, self.commit(roots[0]) if roots else None)

    def hits(
        self, hits: Sequence[Hit], roots: Sequence[Path], indexed_at: float | None
    ) -> tuple[Hit, ...]:
        return tuple(
            dataclasses.replace(hit, freshness=self.of(roots, hit.path, indexed_at)) for hit in hits
        )
