"""Shared fixtures. Each test area adds its own conftest beside its tests."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
FASTAPI_DOCS = SHARED / "corpora" / "fastapi-docs"
FRIGATE_DOCS = SHARED / "corpora" / "frigate-docs"
EVAL_DIR = SHARED / "eval"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path
