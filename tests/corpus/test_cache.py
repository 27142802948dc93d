"""The stat cache: reuse while unchanged (object identity), invalidation on edit/rename/delete."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from askdocs.ingest import CorpusSnapshot, IngestCache, read_site
from askdocs.settings import CorpusSettings
from tests.corpus.conftest import site_of, write


@pytest.fixture
def tree(docs: Path) -> Path:
    write(docs, "a.md", "# A\n\nAlpha text.\n")
    write(docs, "b.md", "# B\n\nBeta text.\n")
    write(docs, "guide/c.md", "# C\n\nGamma text.\n")
    return docs


def snap(docs: Path, cache: IngestCache, settings: CorpusSettings | None = None) -> CorpusSnapshot:
    return read_site(site_of(docs), settings or CorpusSettings(), cache)


def by_path(snapshot: CorpusSnapshot) -> dict[str, object]:
    return {page.path: page for page in snapshot.pages}


def test_unchanged_tree_reuses_everything(tree: Path) -> None:
    cache = IngestCache()
    first = snap(tree, cache)
    second = snap(tree, cache)
    assert second is first
    assert read_site(site_of(tree), CorpusSettings()) is not first  # no cache, no reuse


def test_edit_rereads_only_that_file(tree: Path) -> None:
    cache = IngestCache()
    first = snap(tree, cache)
    before = by_path(first)
    write(tree, "b.md", "# B\n\nBeta text, edited and longer.\n")
    second = snap(tree, cache)
    after = by_path(second)
    assert after["a.md"] is before["a.md"]
    assert after["guide/c.md"] is before["guide/c.md"]
    assert after["b.md"] is not before["b.md"]
    assert "edited" in second.pages[1].body
    assert second.revision != first.revision
    assert second.chunks_of(second.pages[0]) is first.chunks_of(first.pages[0])


def test_same_size_edit_is_seen(tree: Path) -> None:
    cache = IngestCache()
    first = snap(tree, cache)
    path = tree / "a.md"
    stat = path.stat()
    path.write_text("# A\n\nAlpha TEXT.\n", encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size and mtime: ctime moves
    second = snap(tree, cache)
    assert "TEXT" in by_path(second)["a.md"].body  # type: ignore[attr-defined]
    assert second.revision != first.revision


def test_rename_is_seen(tree: Path) -> None:
    cache = IngestCache()
    first = snap(tree, cache)
    (tree / "guide/c.md").rename(tree / "guide/renamed.md")
    second = snap(tree, cache)
    assert sorted(by_path(second)) == ["a.md", "b.md", "guide/renamed.md"]
    assert [c.slug for c in second.chunks if c.path.startswith("guide/")] == ["guide/renamed"]
    assert second.revision != first.revision


def test_delete_and_add_are_seen(tree: Path) -> None:
    cache = IngestCache()
    first = snap(tree, cache)
    (tree / "b.md").unlink()
    write(tree, "d.md", "# D\n\nDelta.\n")
    second = snap(tree, cache)
    assert sorted(by_path(second)) == ["a.md", "d.md", "guide/c.md"]
    assert by_path(second)["a.md"] is by_path(first)["a.md"]
    assert second.revision != first.revision


def test_metadata_only_change_changes_the_revision(tree: Path) -> None:
    cache = IngestCache()
    first = snap(tree, cache)
    write(tree, "a.md", "---\norder: 1\n---\n# A\n\nAlpha text.\n")
    second = snap(tree, cache)
    assert [c.embed_hash for c in second.chunks] == [c.embed_hash for c in first.chunks]
    assert second.revision != first.revision


def test_file_becoming_invalid_and_valid_again(tree: Path) -> None:
    cache = IngestCache()
    snap(tree, cache)
    write(tree, "a.md", "---\norder: nope\n---\n# A\n")
    broken = snap(tree, cache)
    assert [e.path for e in broken.errors] == ["a.md"]
    assert "a.md" not in by_path(broken)
    write(tree, "a.md", "# A\n\nFixed.\n")
    fixed = snap(tree, cache)
    assert fixed.errors == ()
    assert "Fixed." in by_path(fixed)["a.md"].body  # type: ignore[attr-defined]


def test_settings_change_is_not_served_from_the_cache(tree: Path) -> None:
    write(tree, "a.md", "# A\n\nAlpha text.\n\n## Sub\n\nMore.\n")
    cache = IngestCache()
    merged = snap(tree, cache, CorpusSettings(split_level=1))
    other = snap(tree, cache, CorpusSettings(split_level=2, min_chars=0))
    assert other is not merged
    assert other.revision != merged.revision
    assert [c.heading for c in other.chunks_of(other.pages[0])] == ["A", "Sub"]


def test_sites_share_one_cache_without_evicting_each_other(tree: Path, tmp_path: Path) -> None:
    other_root = tmp_path / "other"
    write(other_root, "x.md", "# X\n")
    cache = IngestCache()
    first = read_site(site_of(tree), CorpusSettings(), cache)
    other = read_site(
        site_of(other_root).model_copy(update={"id": "other"}), CorpusSettings(), cache
    )
    assert read_site(site_of(tree), CorpusSettings(), cache) is first
    assert other.site == "other"
