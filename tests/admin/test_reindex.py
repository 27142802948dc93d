"""ReindexSite: the rolling-hour cap per (user, site), counted over started runs, enforced
under locks so that two concurrent calls at the limit cannot both pass (both backends)."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from askdocs.admin.reindex import LockTable, ReindexGuard
from askdocs.db import Database
from askdocs.db.admin_models import IndexRunRow
from askdocs.db.models import utcnow
from askdocs.errors import RateLimited
from askdocs.service import AskDocs
from tests.admin.world import World, make_admin


def _runs(world: World) -> list[IndexRunRow]:
    with world.db.session() as session:
        return list(session.scalars(select(IndexRunRow).order_by(IndexRunRow.started_at)))


def _seed_runs(
    world: World, user_id: str, count: int, *, ago: timedelta, started: bool = True
) -> None:
    with world.db.session(write=True) as session:
        for _ in range(count):
            run = IndexRunRow(
                site_id="alpha", user_id=user_id, initiator="assistant", status="succeeded"
            )
            run.started_at = utcnow() - ago if started else None
            session.add(run)


@pytest.mark.anyio
async def test_the_eleventh_run_in_an_hour_is_refused(world: World) -> None:
    for _ in range(10):
        started = await world.api.act(
            "reindex_site", world.owner.id, {"siteId": "alpha"}, "assistant"
        )
        assert started["run"]["status"] == "running"
    await world.api.runs.wait()
    with pytest.raises(RateLimited) as limited:
        await world.api.act("reindex_site", world.owner.id, {"siteId": "alpha"}, "assistant")
    assert limited.value.code == "reindex_rate_limited"
    assert 3500 <= limited.value.retry_after <= 3600
    assert len(_runs(world)) == 10  # the refused call recorded nothing
    assert world.recorder.calls == ["alpha"] * 10
    assert {run.status for run in _runs(world)} == {"succeeded"}
    # another user, or another site, has a cap of its own
    await world.api.act("reindex_site", world.admin.id, {"siteId": "alpha"}, "api")
    await world.api.runs.wait()


@pytest.mark.anyio
async def test_only_started_runs_in_the_last_hour_count(world: World) -> None:
    _seed_runs(world, world.owner.id, 9, ago=timedelta(minutes=5))
    _seed_runs(world, world.owner.id, 5, ago=timedelta(minutes=61))  # out of the window
    _seed_runs(world, world.owner.id, 5, ago=timedelta(0), started=False)  # never started
    await world.api.act("reindex_site", world.owner.id, {"siteId": "alpha"}, "assistant")
    with pytest.raises(RateLimited) as limited:
        await world.api.act("reindex_site", world.owner.id, {"siteId": "alpha"}, "assistant")
    assert 3240 <= limited.value.retry_after <= 3300  # the oldest counted run leaves in ~55 min
    await world.api.runs.wait()


@pytest.mark.anyio
async def test_a_failed_index_is_recorded_without_leaking_internals(world: World) -> None:
    world.recorder.fail = True
    await world.api.act("reindex_site", world.owner.id, {"siteId": "alpha"}, "assistant")
    await world.api.runs.wait()
    (run,) = _runs(world)
    assert run.status == "failed"
    assert run.error == "indexing failed (RuntimeError)"
    assert run.finished_at is not None


def test_two_concurrent_calls_at_the_limit_exactly_one_proceeds(any_world: World) -> None:
    """Two guards with separate process locks (as two processes would have): only the
    database lock (advisory lock on PostgreSQL, BEGIN IMMEDIATE on SQLite) separates them."""
    world = any_world
    _seed_runs(world, world.owner.id, 9, ago=timedelta(minutes=1))
    url = world.db.engine.url.render_as_string(hide_password=False)
    second = Database.from_url(url)
    guards = [ReindexGuard(world.db, 10, LockTable()), ReindexGuard(second, 10, LockTable())]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def call(guard: ReindexGuard) -> None:
        barrier.wait()
        try:
            guard.start(world.owner.id, "alpha", "assistant")
            outcomes.append("started")
        except RateLimited:
            outcomes.append("limited")

    for _ in range(5):  # several rounds at the limit: each admits exactly one
        threads = [threading.Thread(target=call, args=(g,)) for g in guards]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with world.db.session() as session:
            session.execute(IndexRunRow.__table__.delete().where(IndexRunRow.status == "running"))
    second.close()
    assert outcomes.count("started") == 5
    assert outcomes.count("limited") == 5


@pytest.mark.anyio
async def test_a_run_indexes_the_site_with_the_real_engine(tmp_path: Path, world: World) -> None:
    api = make_admin(world.settings, AskDocs(world.settings), world.db)
    await api.act("reindex_site", world.owner.id, {"siteId": "alpha"}, "assistant")
    await api.runs.wait()
    with world.db.session() as session:
        run = session.scalars(select(IndexRunRow)).one()
        assert run.status == "succeeded", run.error
        assert run.chunks is not None
        assert run.chunks >= 1
    assert "alpha" in [site.id for site in api.service.sites]
    listed = world.api.read("list_index_runs", world.owner.id, {"siteId": "alpha"})
    assert listed["runs"][0]["status"] == "succeeded"
    with world.db.session() as session:
        assert session.scalar(select(func.count()).select_from(IndexRunRow)) == 1
    api.service.close()
