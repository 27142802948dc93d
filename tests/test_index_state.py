"""``IndexState``: one site's search stage and embedding progress in the words every surface
uses, and ``serve``'s log records of it without a terminal (pure, fake clock)."""

from __future__ import annotations

import logging

import pytest

from askdocs.cli.serve_progress import IndexLog
from askdocs.indexing.progress import ProgressView
from askdocs.indexing.state import IndexState, index_state


def view(
    phase: str = "idle", done: int = 0, total: int = 0, error: str | None = None
) -> ProgressView:
    return ProgressView("docs", phase, done, total, False, error, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("search", "progress", "words"),
    [
        ("none", view(), "reading the docs and building the keyword index"),
        ("keyword", view("running"), "keyword search ready; embedding starts"),
        (
            "keyword",
            view("running", 320, 1208),
            "searching by keyword while 320 of 1,208 sections are embedded (26%)",
        ),
        ("hybrid", view("running", 1208, 1208), "hybrid search ready (90 sections)"),
        ("hybrid", view("done", 1208, 1208), "hybrid search ready (90 sections)"),
        (
            "hybrid",
            view("running", 2, 7),
            "hybrid search ready; re-embedding: 2 of 7 sections are embedded (28%)",
        ),
        ("keyword", view("done"), "keyword search only"),
        ("none", view("failed", error="the model is gone"), "indexing failed: the model is gone"),
    ],
)
def test_each_stage_in_words(search: str, progress: ProgressView, words: str) -> None:
    state = index_state("docs", search, 90, progress)  # type: ignore[arg-type]
    assert state.describe() == words


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_records_on_each_change_and_every_interval_while_embedding(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    records = IndexLog(interval=10, clock=clock)
    stages = [
        (0, IndexState("docs", "none", False, 0, 0)),
        (1, IndexState("docs", "keyword", True, 0, 100)),
        (5, IndexState("docs", "keyword", True, 32, 100)),  # within 10 s: quiet
        (12, IndexState("docs", "keyword", True, 64, 100)),  # 11 s later: a record
        (13, IndexState("docs", "hybrid", False, 100, 100, sections=100)),
        (40, IndexState("docs", "hybrid", False, 100, 100, sections=100)),  # settled: quiet
    ]
    with caplog.at_level(logging.INFO, logger="askdocs.progress"):
        for now, state in stages:
            clock.now = now
            records.show([state])
    assert [r.getMessage() for r in caplog.records] == [
        "site docs: reading the docs and building the keyword index",
        "site docs: searching by keyword while 0 of 100 sections are embedded (0%)",
        "site docs: searching by keyword while 64 of 100 sections are embedded (64%)",
        "site docs: hybrid search ready (100 sections)",
    ]
