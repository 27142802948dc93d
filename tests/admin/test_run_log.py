"""The Index runs log shows every run of an organisation's sites: a site created over REST
and indexed by the App's background indexer (no re-index asked for) is listed with its
figures; an unchanged re-check adds no line; a failing site is listed once with its error.
Real App, SQLite, the real engine (keyword-only: no embedding model)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import pytest

from askdocs.db.admin_models import IndexRunRow
from askdocs.indexing import CheckedSite
from askdocs.operation import slug
from tests.admin.test_assistant import _people
from tests.assistant.conftest import Harness, docs_root, open_harness
from tests.assistant.scripted import model_server

__all__ = ["docs_root"]
pytestmark = pytest.mark.anyio
ADMIN = "/api/v1/admin"
WAIT = 120.0


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def rest(tmp_path: Path, docs_root: Path) -> AsyncIterator[tuple[Harness, dict[str, Any]]]:
    with model_server() as model:
        url = f"sqlite:///{tmp_path / 'runs.db'}"
        overrides = {"index": {"first_run_delay_seconds": 0}}
        async with open_harness(tmp_path / "data", url, docs_root, model, **overrides) as harness:
            yield harness, _people(harness)


async def _change(harness: Harness, headers: dict[str, str], name: str, args: Any) -> Any:
    proposed = await harness.client.post(
        f"{ADMIN}/proposals/{slug(name)}", json=args, headers=headers
    )
    assert proposed.status_code == 200, proposed.text
    body = {**args, "confirmationToken": proposed.json()["confirmationToken"]}
    applied = await harness.client.post(f"{ADMIN}/apply/{slug(name)}", json=body, headers=headers)
    assert applied.status_code == 200, applied.text
    return applied.json()


async def _runs(harness: Harness, headers: dict[str, str]) -> list[dict[str, Any]]:
    listed = await harness.client.get(f"{ADMIN}/runs", headers=headers)
    assert listed.status_code == 200, listed.text
    runs: list[dict[str, Any]] = listed.json()["runs"]
    return runs


async def _check(harness: Harness) -> None:
    """One more periodic check, started now, and until it ended."""
    indexer = harness.app.indexer
    count = indexer.runs
    indexer.trigger()
    ok = await anyio.to_thread.run_sync(indexer.wait_runs, count + 1, WAIT)
    assert ok, "the background check did not run"


async def test_a_created_site_indexed_in_the_background_is_listed_with_its_figures(
    rest: tuple[Harness, dict[str, Any]],
) -> None:
    harness, people = rest
    _, headers = people["owner"]
    harness.app.indexer.start()
    await _check(harness)
    before = await _runs(harness, headers)
    page = "# Beta\n\nInstall beta with pip.\n"
    await _change(harness, headers, "CreateSite", {"id": "beta", "name": "Beta"})
    await _change(
        harness, headers, "WritePage", {"siteId": "beta", "path": "index.md", "content": page}
    )
    beta: list[dict[str, Any]] = []
    for _ in range(5):  # a check that began before the page was written logs the empty site
        await _check(harness)
        runs = [run for run in await _runs(harness, headers) if run not in before]
        beta = [run for run in runs if run["siteId"] == "beta"]
        if beta and beta[0]["status"] == "succeeded" and beta[0]["pages"] == 1:
            break
    assert beta, runs
    latest = beta[0]
    assert (latest["initiator"], latest["status"], latest["userId"]) == (
        "background",
        "succeeded",
        None,
    )
    assert (latest["pages"], latest["failedFiles"]) == (1, 0)
    assert latest["chunks"] >= 1
    assert None not in (latest["startedAt"], latest["finishedAt"])
    await _check(harness)  # nothing changed: no new line
    again = [run for run in await _runs(harness, headers) if run["siteId"] == "beta"]
    assert len(again) == len(beta)


async def test_a_failing_background_run_is_listed_once_with_its_error(
    rest: tuple[Harness, dict[str, Any]],
) -> None:
    harness, people = rest
    _, headers = people["owner"]
    log = harness.admin.run_log
    failed = CheckedSite(
        "alpha", "failed", _now(), _now(), None, "docs root unreadable: permission denied"
    )
    for _ in range(3):  # the retries of one failure
        await anyio.to_thread.run_sync(log.record, failed)
    await anyio.to_thread.run_sync(
        log.record, CheckedSite("static-config", "failed", _now(), _now())
    )
    runs = await _runs(harness, headers)
    assert [(r["siteId"], r["status"], r["error"]) for r in runs] == [
        ("alpha", "failed", "docs root unreadable: permission denied")
    ]
    with harness.runtime.db.session() as session:
        assert session.query(IndexRunRow).count() == 1  # the configured site logs nothing


def _now() -> datetime:
    return datetime.now(UTC)
