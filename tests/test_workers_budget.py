"""A worker job's budget is the CPU time it uses, not the wall time it waits: on a loaded
machine a page that parses in 1 s of CPU took over 5 s of wall time, and the wall-clock
budget silently dropped it from the index (fastapi's release notes at load 15)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from askdocs.workers import WALL_FACTOR, WorkerPool, WorkerTimeout
from tests.conftest import REPO

BUDGET = 0.5


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkerPool]:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    pool = WorkerPool("tests.support.budget_worker", [], workers=1, timeout=BUDGET, name="test")
    yield pool
    pool.close()


def test_a_job_that_waits_longer_than_the_budget_without_using_cpu_is_answered(
    pool: WorkerPool,
) -> None:
    # Three budgets of wall time, almost no CPU: a loaded machine looks like this to the job.
    assert pool.call(("sleep", 3 * BUDGET)) == ("ok", "sleep")


def test_a_job_that_uses_more_cpu_than_the_budget_is_cut_and_its_worker_replaced(
    pool: WorkerPool,
) -> None:
    with pytest.raises(WorkerTimeout):
        pool.call(("spin", 20 * BUDGET))
    assert pool.call(("spin", 0.01)) == ("ok", "spin")  # a fresh worker answers
    assert pool.started == 2


def test_a_job_that_never_answers_is_cut_at_the_wall_bound(pool: WorkerPool) -> None:
    with pytest.raises(WorkerTimeout):
        pool.call(("sleep", 4 * WALL_FACTOR * BUDGET))
