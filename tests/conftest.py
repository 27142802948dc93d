"""Shared fixtures. Each test area adds its own conftest beside its tests."""

from __future__ import annotations

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


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path
