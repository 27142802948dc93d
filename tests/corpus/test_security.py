"""Source-read rules (seed 003): each unsafe file is refused with its reason, nothing outside
the root is read, and the rest of the site still reads."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from askdocs.corpus.safe_read import read_markdown
from askdocs.errors import (
    ConfigError,
    DecodeError,
    FileTooLarge,
    UnsafePath,
    Vanished,
)
from askdocs.ingest import CorpusSnapshot, read_site
from askdocs.settings import CorpusSettings, RootConfig
from tests.corpus.conftest import read, site_of, write

CANARY = "CANARY-7f3a outside the root"


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    write(outside, "secret.md", f"# Secret\n\n{CANARY}\n")
    write(outside, "nested.md", f"# Nested\n\n{CANARY}\n")
    return outside


def assert_clean(snapshot: CorpusSnapshot) -> None:
    assert all(CANARY not in page.body for page in snapshot.pages)
    assert all(CANARY not in chunk.text for chunk in snapshot.chunks)


def reasons(snapshot: CorpusSnapshot) -> dict[str, str]:
    return {error.path: error.reason for error in snapshot.errors}


def test_symlinked_file_is_refused(docs: Path, canary: Path) -> None:
    write(docs, "ok.md", "# Fine\n\nText.\n")
    (docs / "link.md").symlink_to(canary / "secret.md")
    snapshot = read(docs)
    assert reasons(snapshot) == {"link.md": "symbolic link refused"}
    assert [p.path for p in snapshot.pages] == ["ok.md"]
    assert_clean(snapshot)


def test_symlinked_folder_is_refused(docs: Path, canary: Path) -> None:
    (docs / "guides").symlink_to(canary, target_is_directory=True)
    snapshot = read(docs)
    assert reasons(snapshot) == {"guides": "symbolic link to a folder refused"}
    assert snapshot.pages == ()
    assert_clean(snapshot)


def test_read_never_follows_a_symlinked_folder_on_the_path(docs: Path, canary: Path) -> None:
    (docs / "guides").symlink_to(canary, target_is_directory=True)
    with pytest.raises(UnsafePath, match="symbolic link"):
        read_markdown(docs, "guides/secret.md", 1 << 20)


def test_read_refuses_a_file_swapped_for_a_symlink(docs: Path, canary: Path) -> None:
    (docs / "page.md").symlink_to(canary / "secret.md")
    with pytest.raises(UnsafePath, match="symbolic link refused"):
        read_markdown(docs, "page.md", 1 << 20)


@pytest.mark.parametrize(
    "rel", ["../outside/secret.md", "a/../../outside/secret.md", "/etc/passwd", "./x.md"]
)
def test_read_refuses_escaping_paths(docs: Path, canary: Path, rel: str) -> None:
    with pytest.raises(UnsafePath, match="escapes"):
        read_markdown(docs, rel, 1 << 20)


@pytest.mark.parametrize(
    "pattern", ["../*.md", "../outside/**", "docs/../../x.md", "/etc/*.md", "..\\x.md"]
)
@pytest.mark.parametrize("field", ["include", "exclude"])
def test_dotdot_in_configured_globs_is_a_config_error(
    docs: Path, canary: Path, pattern: str, field: str
) -> None:
    root = RootConfig(path=docs, **{field: [pattern]})  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        read_site(site_of(root), CorpusSettings())


def test_dotdot_in_a_configured_root_never_reads_outside_it(docs: Path, canary: Path) -> None:
    write(docs, "page.md", "# Page\n")
    snapshot = read(docs / ".." / "docs")  # resolved, and still only that folder
    assert [p.path for p in snapshot.pages] == ["page.md"]
    assert_clean(snapshot)


def test_fifo_is_refused_without_blocking(docs: Path) -> None:
    os.mkfifo(docs / "x.md")
    write(docs, "ok.md", "# Ok\n")
    result: list[CorpusSnapshot] = []
    worker = threading.Thread(target=lambda: result.append(read(docs)), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "reading a FIFO blocked"
    assert reasons(result[0]) == {"x.md": "not a regular file (FIFO)"}
    assert [p.path for p in result[0].pages] == ["ok.md"]


def test_fifo_opened_directly_is_refused_by_the_descriptor_check(docs: Path) -> None:
    os.mkfifo(docs / "x.md")
    with pytest.raises(UnsafePath, match="not a regular file"):
        read_markdown(docs, "x.md", 1 << 20)


def test_oversize_file_is_refused(docs: Path) -> None:
    write(docs, "huge.md", "# Huge\n\n" + "a" * (1024 * 1024))
    write(docs, "ok.md", "# Ok\n")
    snapshot = read(docs)
    assert "over the 1048576-byte limit" in reasons(snapshot)["huge.md"]
    assert [p.path for p in snapshot.pages] == ["ok.md"]
    with pytest.raises(FileTooLarge):
        read_markdown(docs, "huge.md", 1024 * 1024)


def test_size_cap_is_a_setting(docs: Path) -> None:
    write(docs, "page.md", "# Page\n\n" + "b" * 200)
    snapshot = read(docs, settings=CorpusSettings(max_markdown_bytes=100))
    assert "over the 100-byte limit" in reasons(snapshot)["page.md"]


def test_invalid_utf8_is_refused_naming_the_file(docs: Path) -> None:
    write(docs, "latin1.md", "# Caf\xe9\n".encode("latin-1"))
    snapshot = read(docs)
    assert reasons(snapshot) == {"latin1.md": "not valid UTF-8 (byte 5)"}
    with pytest.raises(DecodeError, match=r"latin1\.md: not valid UTF-8"):
        read_markdown(docs, "latin1.md", 1 << 20)


def test_invalid_yaml_is_an_error_with_its_line(docs: Path) -> None:
    write(docs, "bad.md", "---\ntitle: ok\ntags: [unclosed\n---\n# Bad\n")
    write(docs, "ok.md", "# Ok\n")
    snapshot = read(docs)
    reason = reasons(snapshot)["bad.md"]
    assert reason.startswith("line ")
    assert "invalid YAML front matter" in reason
    assert [p.path for p in snapshot.pages] == ["ok.md"]


def test_special_files_not_selected_are_ignored(docs: Path, canary: Path) -> None:
    os.mkfifo(docs / "pipe.txt")
    (docs / "notes.txt").symlink_to(canary / "secret.md")
    write(docs, "ok.md", "# Ok\n")
    snapshot = read(docs)
    assert snapshot.errors == ()
    assert [p.path for p in snapshot.pages] == ["ok.md"]


def test_a_file_that_vanished_is_an_error_not_a_crash(docs: Path) -> None:
    """``Vanished``, a ``CorpusError``: the page read leaves such a file out (issue #27)."""
    with pytest.raises(Vanished, match="removed while it was read"):
        read_markdown(docs, "gone.md", 1 << 20)
