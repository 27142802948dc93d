"""Freshness: file times and the docs root's git commit, read from the repository's files."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from askdocs.corpus.freshness import FreshnessReader, freshness_json, git_dir, head_commit, iso
from askdocs.types import Freshness


def git(cwd: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "HOME": str(cwd),
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)
    return done.stdout.decode().strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# Hello\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "first")
    return root


def test_the_commit_of_a_branch_from_a_subfolder(repo: Path) -> None:
    gitdir = git_dir(repo / "docs")
    assert gitdir == repo / ".git"
    assert head_commit(gitdir) == git(repo, "rev-parse", "HEAD")


def test_packed_refs_and_detached_heads(repo: Path) -> None:
    expected = git(repo, "rev-parse", "HEAD")
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert head_commit(repo / ".git") == expected
    git(repo, "checkout", "-q", "--detach")
    assert head_commit(repo / ".git") == expected


def test_a_linked_work_tree(repo: Path, tmp_path: Path) -> None:
    git(repo, "worktree", "add", "-q", "-b", "side", str(tmp_path / "side"))
    (tmp_path / "side" / "docs" / "more.md").write_text("# More\n")
    git(tmp_path / "side", "add", ".")
    git(tmp_path / "side", "commit", "-q", "-m", "side")
    gitdir = git_dir(tmp_path / "side" / "docs")
    assert gitdir is not None
    assert head_commit(gitdir) == git(tmp_path / "side", "rev-parse", "HEAD")
    assert head_commit(gitdir) != git(repo, "rev-parse", "HEAD")


def test_no_repository_no_commit(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    reader = FreshnessReader()
    found = reader.of([tmp_path / "docs"], "missing.md", 5.0)
    assert found == Freshness(5.0, None, None)


def test_the_file_time_and_a_cached_commit(repo: Path) -> None:
    now = [100.0]
    reader = FreshnessReader(ttl=10.0, clock=lambda: now[0])
    first = reader.of([repo / "nope", repo / "docs"], "index.md", 42.0)
    assert first.modified_at == (repo / "docs" / "index.md").stat().st_mtime
    assert first.indexed_at == 42.0
    assert first.commit == git(repo, "rev-parse", "HEAD")
    (repo / "docs" / "index.md").write_text("# Changed\n")
    git(repo, "commit", "-q", "-am", "second")
    assert reader.commit(repo / "docs") == first.commit  # cached
    now[0] += 11
    assert reader.commit(repo / "docs") == git(repo, "rev-parse", "HEAD")


def test_the_wire_form() -> None:
    assert freshness_json(Freshness(0.0, 86400.5, "a" * 40)) == {
        "indexedAt": "1970-01-01T00:00:00Z",
        "modifiedAt": "1970-01-02T00:00:00Z",
        "commit": "a" * 40,
    }
    assert freshness_json(None) == {"indexedAt": None, "modifiedAt": None, "commit": None}
    assert iso(None) is None
