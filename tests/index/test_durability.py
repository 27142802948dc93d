"""SIGKILL the indexer at random points of rebuilds, over and over, against the real
on-disk store and the real local model: after every kill a fresh process must read a
complete collection (the old or the new one), never a partial one, and the next run must
repair whatever the kill left."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from askdocs.embeddings.local import LocalEmbedder
from tests.conftest import REPO
from tests.index.durability_worker import variants

KILLS = 20
WORKER = [sys.executable, "-m", "tests.index.durability_worker"]


class Worker:
    """An indexer process that has loaded its model and waits for "go"."""

    def __init__(self, data_dir: Path, variant: str) -> None:
        self.variant = variant
        self.proc = subprocess.Popen(
            [*WORKER, "build", str(data_dir), variant], cwd=REPO, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip
        assert self.proc.stdout is not None
        assert self.proc.stdin is not None
        self.stdout, self.stdin = self.proc.stdout, self.proc.stdin

    def start(self) -> None:
        assert self.stdout.readline().strip() == "ready"
        self.stdin.write("go\n")
        self.stdin.flush()

    def run_or_kill(self, delay: float) -> bool:
        """Let it build for ``delay`` seconds, then SIGKILL it. True if it was killed."""
        try:
            self.proc.wait(timeout=delay)  # the random kill point, not a synchronisation
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return True
        assert self.proc.returncode == 0
        return False


def check(data_dir: Path) -> dict[str, object]:
    out = subprocess.run(
        [*WORKER, "check", str(data_dir)], cwd=REPO, capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout))


def assert_whole(state: dict[str, object], allowed: set[str]) -> None:
    assert state["variant"] in allowed, state
    size = len(variants()[str(state["variant"])])
    for key in ("manifest_points", "counted", "dense_points", "scrolled"):
        assert state[key] == size, (key, state)
    assert state["self_match"], state
    assert state["keyword_hits"], state


@pytest.mark.slow
def test_sigkill_during_rebuilds_never_serves_a_partial_collection(data_dir: Path) -> None:
    LocalEmbedder().load()  # the compiled model is cached before the first build is timed
    rng = random.Random(20260)
    first = Worker(data_dir, "A")
    first.start()
    started = time.monotonic()
    assert not first.run_or_kill(120)
    full_build = time.monotonic() - started
    assert_whole(check(data_dir), {"A"})
    served, kills, cycles, mid_build = "A", 0, 0, 0
    order = ["B", "C", "A"]
    upcoming = Worker(data_dir, order[0])
    while kills < KILLS:
        worker, cycles = upcoming, cycles + 1
        worker.start()
        killed = worker.run_or_kill(rng.uniform(0.0, full_build * 1.2))
        folders = list((data_dir / "index" / "collections").iterdir())
        mid_build += killed and len(folders) > 1  # the kill left a partial collection behind
        upcoming = Worker(data_dir, order[cycles % len(order)])  # loads while we check
        state = check(data_dir)
        assert_whole(state, {served, worker.variant})
        served = str(state["variant"])
        kills += killed
        assert killed or served == worker.variant
    upcoming.start()
    assert not upcoming.run_or_kill(120)  # the next run repairs
    assert_whole(check(data_dir), {upcoming.variant})
    leftovers = sorted(p.name for p in (data_dir / "index" / "collections").iterdir())
    assert len(leftovers) == 1, leftovers
    assert cycles < KILLS * 3, "too few rebuilds were actually interrupted"
    assert mid_build >= KILLS // 4, f"only {mid_build} kills landed inside a build"
