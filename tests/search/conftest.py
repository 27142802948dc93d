"""Fixtures for the engine tests: one indexed fixture site, real model, real Qdrant Edge."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from askdocs.service import AskDocs
from askdocs.settings import Settings, load_settings
from askdocs.sites import folder_site
from tests.search.fixtures import write_docs

SITE = "fixture"


def fixture_settings(data_dir: Path, **overrides: Any) -> Settings:
    return load_settings(data_dir=data_dir, **overrides)


@pytest.fixture(scope="session")
def docs_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_docs(tmp_path_factory.mktemp("docs"))


@pytest.fixture(scope="session")
def indexed(tmp_path_factory: pytest.TempPathFactory, docs_root: Path) -> Iterator[AskDocs]:
    """A service whose fixture site is indexed once for the whole session (read-only use)."""
    data_dir = tmp_path_factory.mktemp("data")
    service = AskDocs(fixture_settings(data_dir), [folder_site(docs_root, SITE)])
    service.index(SITE)
    yield service
    service.close()
