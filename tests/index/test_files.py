"""Atomic replace and the flock-based locks and leases."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from askdocs.index.files import (
    atomic_write,
    exclusive,
    lease_is_free,
    shared_lease,
    try_exclusive,
)


def test_atomic_write_replaces_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "CURRENT-x.json"
    atomic_write(target, '{"name": "a"}')
    atomic_write(target, '{"name": "b"}')
    assert json.loads(target.read_text()) == {"name": "b"}
    assert [p.name for p in tmp_path.iterdir()] == ["CURRENT-x.json"]


def test_a_failed_replace_keeps_the_old_pointer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "CURRENT-x.json"
    atomic_write(target, '{"name": "old"}')

    def crash(src: object, dst: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):
        atomic_write(target, '{"name": "new"}')
    assert json.loads(target.read_text()) == {"name": "old"}
    assert [p.name for p in tmp_path.iterdir()] == ["CURRENT-x.json"]


def test_readers_always_see_a_whole_pointer(tmp_path: Path) -> None:
    target = tmp_path / "CURRENT-x.json"
    atomic_write(target, json.dumps({"name": "n0", "pad": "x" * 5000}))
    seen: list[str] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            seen.append(json.loads(target.read_text())["name"])

    reader = threading.Thread(target=read)
    reader.start()
    for i in range(1, 50):
        atomic_write(target, json.dumps({"name": f"n{i}", "pad": "x" * 5000}))
    stop.set()
    reader.join()
    assert seen
    assert set(seen) <= {f"n{i}" for i in range(50)}


def test_exclusive_lock_excludes_a_second_holder(tmp_path: Path) -> None:
    lock = tmp_path / ".build.lock"
    with exclusive(lock), try_exclusive(lock) as acquired:
        assert not acquired
    with try_exclusive(lock) as acquired:
        assert acquired


def test_leases_block_removal_until_released(tmp_path: Path) -> None:
    lease_file = tmp_path / "lease"
    lease_file.touch()
    held = shared_lease(lease_file)
    assert held is not None
    probe = os.open(lease_file, os.O_RDONLY)
    try:
        assert not lease_is_free(probe)
        os.close(held)
        assert lease_is_free(probe)
    finally:
        os.close(probe)


def test_a_lease_on_a_removed_file_is_refused(tmp_path: Path) -> None:
    assert shared_lease(tmp_path / "missing") is None
