"""Shared fixtures. Each test area adds its own conftest beside its tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# Everything the tests read is inside the repository (tests/data/README.md says what and whence);
# tests/test_self_contained.py fails when a test module refers to a path outside it.
TEST_DATA = REPO / "tests" / "data"
FASTAPI_DOCS = TEST_DATA / "fastapi-docs"
FRIGATE_DOCS = TEST_DATA / "frigate-docs"
HTTPX_DOCS = TEST_DATA / "httpx-docs"
EVAL_DIR = TEST_DATA / "eval"

# PostgreSQL's bounds are product timeouts (1 s by default, docs/deployment.md). On a loaded CI
# machine a fresh pool's first connect outran it once (503 database_unavailable creating a
# thread), so in-process apps here get 10 s; the tests of the bounds themselves
# (tests/db/test_timeouts.py, tests/assistant/test_db_hang.py, the battery's postgres_hang
# category, whose server gets a clean environment) set their own.
os.environ.setdefault("ASKDOCS_DATABASE__TIMEOUT_SECONDS", "10")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules with a slow test first, then the browser modules, then the rest (each module's
    tests stay together and in order). scripts/test hands whole modules to 2-4 processes; the
    battery and the durability rebuilds take about 5 minutes each, and run last they left one
    process working alone at the end."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    browser = {item.path for item in items if item.get_closest_marker("browser")}
    items.sort(key=lambda item: (item.path not in slow, item.path not in browser))
