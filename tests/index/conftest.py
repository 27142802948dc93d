from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from askdocs.index import IndexStore
from askdocs.index.edge import EdgeBackend
from tests.index.helpers import HashingEmbedder


@pytest.fixture
def index_root(tmp_path: Path) -> Path:
    return tmp_path / "data" / "index"


@pytest.fixture
def store(index_root: Path) -> Iterator[IndexStore]:
    opened = IndexStore(EdgeBackend(index_root))
    yield opened
    opened.close()


@pytest.fixture
def embedder() -> HashingEmbedder:
    return HashingEmbedder()
